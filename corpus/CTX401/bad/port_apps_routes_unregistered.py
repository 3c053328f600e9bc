# expect: 20 CTX401
"""Each `listen` files a per-call listener under the same key in two tables;
`unlisten` ends the listener's routes outright, and its app stays behind."""
import threading


class WebApp:
    def __init__(self, title: str):
        self.title = title


class ListenerRegistry:
    def __init__(self):
        self._lock = threading.Lock()
        self._apps: dict[str, WebApp] = {}
        self._routes: dict[str, list] = {}

    def listen(self, listener_id: str, title: str) -> WebApp:
        with self._lock:
            self._apps[listener_id] = WebApp(title)
            self._routes[listener_id] = []
            return self._apps[listener_id]

    def unlisten(self, listener_id: str) -> None:
        with self._lock:
            self._routes.pop(listener_id, None)
