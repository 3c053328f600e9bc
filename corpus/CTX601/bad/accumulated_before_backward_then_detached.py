# expect: 12 CTX601
# Reported in review of stop 22's exemptions: total += loss before backward(); loss = loss.detach().
# (A real bug the first version of the exemption silenced.)
import torch.nn.functional as F


def train_epoch(model, optimizer, batches, labels) -> float:
    total = 0
    for x, y in zip(batches, labels):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        total += loss                     # the PyTorch FAQ bug: keeps every step's graph
        loss.backward()
        loss = loss.detach()
        optimizer.step()
    return float(total)
