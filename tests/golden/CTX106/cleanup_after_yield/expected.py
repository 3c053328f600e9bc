from contextlib import contextmanager


@contextmanager
def adapter_routing(model, names):
    handles = []
    for mod in model.modules():
        if getattr(mod, "accepts_adapter_names", False):
            handles.append(mod.register_forward_pre_hook(_inject, with_kwargs=True))
    # hand control to the with-body
    try:
        yield handles
    finally:
        for h in handles:
            h.remove()
