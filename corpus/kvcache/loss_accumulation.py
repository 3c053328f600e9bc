# expect: 22 CTX601 the running sum adds the loss tensor itself, so loss_sum carries every step's autograd graph
# sandbox: G
"""The stack's training loop (fine-tuning an adapter between serving windows). The
running loss sum adds the loss tensor itself: `loss_sum` becomes a tensor whose
autograd graph reaches every step's graph, which stays alive until the epoch ends
and is returned to the caller. After ray-project/ray#40940.
"""
from torch import nn
from torch.nn import functional as F

from common import build


def train_epoch(model: nn.Module, loader, optimizer):
    loss_sum = 0.0
    steps = 0
    for inputs, targets in loader:
        optimizer.zero_grad()
        loss = F.mse_loss(model(inputs), targets)
        loss.backward()
        optimizer.step()
        loss_sum += loss
        steps += 1
    return loss_sum / max(steps, 1)


def make_manager(device: str = "cpu"):
    return build(device, train=train_epoch)
