# fix: kept
# fix case (bounded_registry): issue 35's mcp-agent break. A get-or-create registry of objects the caller configures and drops: a WeakValueDictionary would lose the configured object (and its configuration) as soon as the caller lets go, so the fix bounds the registry instead (a lookup has a miss path: evicted entries are recreated)
import threading


class Logger:
    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self.session_id = None


_lock = threading.Lock()
_loggers: dict[str, Logger] = {}


def get_logger(namespace: str, session_id=None) -> Logger:
    with _lock:
        if namespace in _loggers:
            logger = _loggers[namespace]
        else:
            logger = Logger(namespace)
            _loggers[namespace] = logger
        if session_id is not None:
            logger.session_id = session_id
        return logger


def configure(namespace: str, session_id: str) -> None:
    get_logger(namespace, session_id=session_id)  # configured, then dropped


def behaviour():
    import gc
    configure("app.server", "s-42")
    gc.collect()
    return get_logger("app.server").session_id
