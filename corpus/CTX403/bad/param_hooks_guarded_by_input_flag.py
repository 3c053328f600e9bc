# expect: 22 CTX403
"""Near miss of unsloth's layer flag: the guard is a flag on this call's input tensor,
which is new on every call, so every call hooks the layer's parameters again."""
import torch


def _clone_grads(hidden: torch.Tensor, layer: torch.nn.Module) -> None:
    if getattr(hidden, "_grads_hooked", False):
        return
    hidden._grads_hooked = True

    def hook_for(param):
        def hook(grad):
            if param.grad is not None:
                return None
            return grad.clone()

        return hook

    for param in layer.parameters():
        if param.requires_grad:
            param.register_hook(hook_for(param))


def run_block(layer: torch.nn.Module, hidden: torch.Tensor) -> torch.Tensor:
    _clone_grads(hidden, layer)
    return layer(hidden)
