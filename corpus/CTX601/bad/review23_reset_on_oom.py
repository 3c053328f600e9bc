# expect: 14 CTX601
"""The only reset of the running total is in the OOM handler."""
import torch


def train(model, loader, optimizer, criterion):
    total_loss = 0.0
    for step, (x, y) in enumerate(loader):
        try:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            total_loss += loss               # keeps every step's graph
        except torch.cuda.OutOfMemoryError:
            total_loss = 0.0
            torch.cuda.empty_cache()
    return total_loss
