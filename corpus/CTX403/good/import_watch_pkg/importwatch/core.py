# expect: none
"""The base watcher: callbacks are kept per module name / origin path and removed by
`unregister_*_hook`; registering hands nothing back."""
import abc
import sys
from collections import defaultdict
from pathlib import Path


class BaseWatcher(abc.ABC):
    _instance = None

    @classmethod
    def install(cls) -> None:
        if cls._instance is None:
            cls._instance = cls()
            sys.meta_path.insert(0, cls._instance)


class ImportWatcher(BaseWatcher):
    def __init__(self):
        self.by_module = defaultdict(list)
        self.by_origin = defaultdict(list)

    @classmethod
    def register_module_hook(cls, module: str, hook) -> None:
        cls.install()
        cls._instance.by_module[module].append(hook)
        loaded = sys.modules.get(module)
        if loaded is None:
            return
        hook(loaded)

    @classmethod
    def unregister_module_hook(cls, module: str, hook) -> None:
        if cls._instance is None:
            return
        hooks = cls._instance.by_module.get(module, [])
        if hook in hooks:
            hooks.remove(hook)

    @classmethod
    def register_origin_hook(cls, origin: Path, hook):
        cls.install()
        path = str(origin.resolve())
        cls._instance.by_origin[path].append(hook)
        for mod in list(sys.modules.values()):
            if getattr(mod, "__file__", None) == path:
                hook(mod)
                return None

    @classmethod
    def after_module_imported(cls, module: str):
        def decorator(hook):
            cls.register_module_hook(module, hook)
            return hook
        return decorator
