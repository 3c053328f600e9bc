# expect: none
"""unsloth's `_param_grads_out_of_pool`: run on every compiled block call, it hooks the
block's parameters only the first time, guarded by a flag in the layer's own `__dict__`
that it sets before registering."""
import weakref

import torch


def _param_grads_out_of_pool(layer: torch.nn.Module) -> None:
    if layer.__dict__.get("_block_grad_hooks", False):
        return
    layer.__dict__["_block_grad_hooks"] = True

    def hook_for(param):
        ref = weakref.ref(param)

        def hook(grad):
            p = ref()
            if p is None or p.grad is not None:
                return None
            return grad.clone()

        return hook

    for param in layer.parameters():
        if param.requires_grad:
            param.register_hook(hook_for(param))


def run_block(layer: torch.nn.Module, hidden: torch.Tensor) -> torch.Tensor:
    _param_grads_out_of_pool(layer)
    return layer(hidden)
