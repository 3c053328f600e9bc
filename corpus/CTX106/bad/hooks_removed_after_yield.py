# expect: 19 CTX106
"""Routes per-sample adapter names through forward pre-hooks for one generate() call."""
from contextlib import contextmanager
from functools import partial


def _route(module, args, kwargs, *, adapter_names):
    kwargs["adapter_names"] = adapter_names
    return args, kwargs


@contextmanager
def mixed_batch(model, adapter_names: list[str]):
    handles = []
    for module in model.modules():
        if hasattr(module, "lora_A"):
            hook = partial(_route, adapter_names=adapter_names)
            handles.append(module.register_forward_pre_hook(hook, with_kwargs=True))
    yield
    for handle in handles:
        handle.remove()
