# expect: none
# A transform factory applies one transform per matched submodule, once, at set-up:
# an input or output location gets a hook, a weight location is fused into the
# weight. The helpers the module is handed in the weight arm never run after a
# hook registered in another arm of the chain.
import torch
from torch import nn


def fuse_into_weight(module: nn.Module, transform) -> None:
    with torch.no_grad():
        module.weight.copy_(transform(module.weight))


class TransformFactory:
    def __init__(self, locations: dict) -> None:
        self.locations = locations

    def apply_to_model(self, model: nn.Module) -> None:
        for name, module in model.named_modules():
            if name in self.locations:
                self._apply_to_module(module, self.locations[name])

    def _apply_to_module(self, module: nn.Module, location: str) -> None:
        transform = nn.Identity()
        if location == "input":
            def input_hook(_, args):
                return (transform(args[0]),)

            module.register_forward_pre_hook(input_hook, prepend=True)
        elif location == "weight":
            fuse_into_weight(module, transform)
        elif location == "output":
            module.register_forward_hook(lambda _m, _i, out: transform(out))
        else:
            fuse_into_weight(module, transform)
