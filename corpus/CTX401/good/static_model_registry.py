# expect: none
"""A registry filled once at import time from a fixed table is not per-request state."""
_MODEL_CLASSES: dict[str, type] = {}


def register_model(name: str):
    def deco(cls):
        _MODEL_CLASSES[name] = cls
        return cls
    return deco


@register_model("llama")
class LlamaForCausalLM:
    pass


def resolve(name: str) -> type:
    return _MODEL_CLASSES[name]
