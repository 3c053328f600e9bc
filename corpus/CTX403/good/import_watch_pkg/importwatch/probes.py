# expect: none
"""A watcher that installs each probe's hook once per location: a second request for
the same location runs the hook on the loaded module instead of adding another."""
import sys
from pathlib import Path

from importwatch.core import ImportWatcher


class ProbeWatcher(ImportWatcher):
    _locations: set = set()

    @classmethod
    def register_origin_hook(cls, origin: Path, hook) -> None:
        if str(origin) in cls._locations:
            for mod in list(sys.modules.values()):
                if getattr(mod, "__file__", None) == str(origin):
                    hook(mod)
            return
        cls._locations.add(str(origin))
        super().register_origin_hook(origin, hook)

    @classmethod
    def register_module_hook(cls, module: str, hook) -> None:
        if module in cls._locations:
            loaded = sys.modules.get(module)
            if loaded is not None:
                hook(loaded)
            return
        cls._locations.add(module)
        super().register_module_hook(module, hook)

    @classmethod
    def unregister_module_hook(cls, module: str, hook) -> None:
        cls._locations.discard(module)
        return super().unregister_module_hook(module, hook)


def watch_probe(probe, on_import):
    """Called once per probe the agent receives."""
    ProbeWatcher.register_module_hook(probe.module, on_import)
    ImportWatcher.register_origin_hook(Path(probe.source_file), on_import)
