# expect: none
"""Accuracy bookkeeping in a training loop: argmax indices compared with targets, cast
to long, and a mask turned into float then summed. None of these is recorded by
autograd (integer and bool tensors never require grad)."""
import torch
import torch.nn.functional as F


def fit(net, batches, opt):
    correct = 0
    seen = []
    padded = 0
    for x, y in batches:
        logits = net(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()
        opt.step()
        preds = logits.argmax(dim=-1)
        correct += (preds == y).long().sum()
        seen.append(y.ne(-100).to(torch.long).sum())
        padded += (x == 0).float().mean()
    return correct, seen, padded
