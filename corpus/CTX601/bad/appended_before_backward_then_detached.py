# expect: 14 CTX601
# Reported in review of stop 22's exemptions: the loss is appended before backward() and the detach that follows it.
# (A real bug the first version of the exemption silenced.)
import torch
import torch.nn.functional as F


def train_epoch(model, optimizer, batches, labels) -> float:
    history = []
    for begin in range(0, len(batches)):
        optimizer.zero_grad()
        scores = model(batches[begin])
        loss_mb = F.cross_entropy(scores, labels[begin])
        history.append(loss_mb)           # appended WITH its graph, before the detach
        loss_mb.backward()
        loss_mb = loss_mb.detach()
        optimizer.step()
    return float(torch.stack(history).mean())
