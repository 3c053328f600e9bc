# expect: none
# A connection's send context: the body runs in a `try` whose `else:` flushes only
# when it succeeded, and the socket is closed only when a flag says something went
# wrong after the body; the flag is False at the `yield`, so a body that raises needs
# neither (a protocol error is re-raised as is, by design).
import threading
from contextlib import contextmanager


class ProtocolError(Exception):
    pass


class Connection:
    def __init__(self, sock) -> None:
        self.sock = sock
        self.mutex = threading.Lock()
        self.pending: list[bytes] = []

    def drain(self) -> None:
        self.sock.sendall(b"".join(self.pending))

    def close_socket(self) -> None:
        self.sock.close()

    @contextmanager
    def send_context(self):
        raise_close_exc = False
        with self.mutex:
            try:
                yield
            except ProtocolError:
                raise
            except Exception:
                raise_close_exc = True
            else:
                try:
                    self.drain()
                except OSError:
                    raise_close_exc = True
        if raise_close_exc:
            self.close_socket()
