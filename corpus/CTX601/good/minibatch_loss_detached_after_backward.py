# expect: none
# A cached loss back-propagates each mini-batch when asked to and keeps only the
# detached loss; when it is not asked to (evaluation, or the caller back-propagates
# the sum), the list holds this one call's graphs, which the caller needs.
import torch
import torch.nn.functional as F


def calculate_loss(model, batches, labels, with_backward: bool = False) -> torch.Tensor:
    losses = []
    for begin in range(0, len(batches)):
        scores = model(batches[begin])
        loss_mb = F.cross_entropy(scores, labels[begin], reduction="sum")
        if with_backward:
            loss_mb.backward()
            loss_mb = loss_mb.detach()
        losses.append(loss_mb)
    return torch.stack(losses).sum()
