# expect: 18 CTX601
"""The token count is graph-free, but the product with the loss is not: the running
total keeps every step's graph alive."""
import torch


def train(model, loader, loss_fn, optimizer):
    total = 0
    for batch in loader:
        labels = batch["labels"]
        n = (labels != -100).sum()
        loss = loss_fn(model(batch["input_ids"]), labels)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        with torch.no_grad():
            scale = n.float()
        total += loss * scale
    return total
