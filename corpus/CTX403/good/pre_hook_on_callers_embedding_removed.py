# expect: none
import functools

import torch


def _apply_mask(module, args, *, mask: torch.Tensor):
    (input_ids,) = args
    return (input_ids.masked_fill(~mask, 0),)


@torch.inference_mode()
def score_with_mask(model, batch: dict, mask: torch.Tensor) -> torch.Tensor:
    embed = model.get_input_embeddings()
    handle = embed.register_forward_pre_hook(functools.partial(_apply_mask, mask=mask))
    try:
        logits = model(**batch).logits
    finally:
        handle.remove()
    return logits[:, -1].log_softmax(-1)


def score_all(model, batches: list[dict], masks: list[torch.Tensor]) -> list[torch.Tensor]:
    return [score_with_mask(model, b, m) for b, m in zip(batches, masks)]
