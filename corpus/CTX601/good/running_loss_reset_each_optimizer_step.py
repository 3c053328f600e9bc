# expect: none
"""torchtune-style recipe: the running totals are reset after every optimizer step,
and every micro-batch's loss is back-propagated before the next one (its saved
tensors are freed), so what the totals hold is one step's worth at most."""
import torch


def train(model, loader, optimizer, loss_fn, grad_accum: int, log):
    running_loss = 0
    running_metrics = {"rewards/chosen": 0, "rewards/rejected": 0}
    for idx, batch in enumerate(loader):
        logits = model(batch["tokens"])
        loss, chosen, rejected = loss_fn(logits, batch["labels"])
        loss = loss / grad_accum
        running_loss += loss
        running_metrics["rewards/chosen"] += chosen.mean() / grad_accum
        running_metrics["rewards/rejected"] += rejected.mean() / grad_accum
        loss.backward()
        if (idx + 1) % grad_accum == 0:
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            log({"loss": running_loss.item(), **{k: float(v) for k, v in running_metrics.items()}})
            running_loss = 0
            running_metrics = {key: 0 for key in running_metrics}
