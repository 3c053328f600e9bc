# expect: 15 CTX601
# Near miss: the loss is appended before it is detached, so the list keeps every
# mini-batch's graph although each was already back-propagated.
import torch
import torch.nn.functional as F


def train_epoch(model, optimizer, batches, labels) -> float:
    losses = []
    for begin in range(0, len(batches)):
        optimizer.zero_grad()
        scores = model(batches[begin])
        loss_mb = F.cross_entropy(scores, labels[begin])
        loss_mb.backward()
        losses.append(loss_mb)
        loss_mb = loss_mb.detach()
        optimizer.step()
    return float(torch.stack(losses).mean())
