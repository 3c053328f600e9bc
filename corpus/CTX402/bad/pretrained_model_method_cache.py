# expect: 17 CTX402
"""A checkpoint-loaded model caches a lookup on itself: after `del model` the
class-wide cache still holds the model, and its weights, until 128 newer calls."""
from functools import lru_cache

import torch
from transformers import PreTrainedModel


class CodecPreTrainedModel(PreTrainedModel):
    base_model_prefix = "codec"

    def _init_weights(self, module):
        if isinstance(module, torch.nn.Conv1d):
            torch.nn.init.kaiming_normal_(module.weight)

    @lru_cache
    def conv_layers(self, module: torch.nn.Module) -> list:
        return [m for m in module.modules() if isinstance(m, torch.nn.Conv1d)]

    def remove_weight_norm(self):
        for conv in self.conv_layers(self):
            torch.nn.utils.remove_weight_norm(conv)
