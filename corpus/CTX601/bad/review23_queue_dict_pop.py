# expect: 15 CTX601
"""Per-key history dict: popping a stale key of the dict makes the whole dict a 'queue'."""
import torch
from collections import defaultdict


def train(model, loader, optimizer):
    history = defaultdict(list)
    for step, batch in enumerate(loader):
        optimizer.zero_grad()
        out = model(**batch)
        loss = out.loss
        loss.backward()
        optimizer.step()
        history["loss"].append(loss)          # graph kept for every step
        history.pop("eval_loss", None)        # an unrelated key
    return history
