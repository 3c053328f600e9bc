# expect: 13 CTX601
"""`total = total + loss` on an integer tensor promotes to float and carries the graph."""
import torch


def train(model, loader, optimizer, criterion, device):
    total = torch.zeros((), dtype=torch.long, device=device)
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total = total + loss                 # long + float -> float tensor with grad_fn
    return total
