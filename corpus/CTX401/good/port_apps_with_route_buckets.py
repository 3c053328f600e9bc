# expect: none
"""One web app per listening port for the life of the process. The per-port route
table drops its bucket when the last route goes, which ends no port's life: the
port's app stays for the next `mount` on it."""
import threading


class WebApp:
    def __init__(self, title: str):
        self.title = title
        self.handlers: dict[str, object] = {}


class PortAppRegistry:
    def __init__(self):
        self._lock = threading.Lock()
        self._apps: dict[int, WebApp] = {}
        self._routes: dict[int, dict[str, str]] = {}

    def app_for(self, port: int, title: str = "agents") -> WebApp:
        with self._lock:
            if port not in self._apps:
                self._apps[port] = WebApp(title)
                self._routes[port] = {}
            return self._apps[port]

    def mount(self, port: int, path: str, owner: str) -> None:
        with self._lock:
            self._routes.setdefault(port, {})[path] = owner

    def unmount_owner(self, port: int, owner: str) -> list[str]:
        with self._lock:
            paths = self._routes.get(port, {})
            gone = [p for p, o in paths.items() if o == owner]
            for p in gone:
                del paths[p]
            if not paths:
                self._routes.pop(port, None)
            return gone
