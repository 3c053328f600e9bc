# expect: none
"""`register_pre_wrap_hook` is a model provider's list of callbacks run before it wraps
the model (Megatron-Bridge), not a torch hook: it hands back no handle to keep, and
this module defines no such method."""
from megatron.bridge.models import ModelProvider


def build_model(provider: ModelProvider, config, freeze):
    def _freeze(model):
        freeze(model, config.frozen)
        return model

    provider.register_pre_wrap_hook(_freeze)
    model = provider.provide_distributed_model(config)
    out = model(config.warmup_batch)
    return model, out
