# expect: 15 CTX403 every scoring call registers another pre-hook on the embedding and drops the handle: masks from earlier requests keep being applied to later ones
import functools

import torch


def _apply_mask(module, args, *, mask: torch.Tensor):
    (input_ids,) = args
    return (input_ids.masked_fill(~mask, 0),)


@torch.inference_mode()
def score_with_mask(model, batch: dict, mask: torch.Tensor) -> torch.Tensor:
    embed = model.get_input_embeddings()
    embed.register_forward_pre_hook(functools.partial(_apply_mask, mask=mask))
    logits = model(**batch).logits
    return logits[:, -1].log_softmax(-1)


def score_all(model, batches: list[dict], masks: list[torch.Tensor]) -> list[torch.Tensor]:
    return [score_with_mask(model, b, m) for b, m in zip(batches, masks)]
