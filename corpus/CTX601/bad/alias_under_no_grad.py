# expect: 15 CTX601
"""Binding a name inside `torch.no_grad()` does not strip a graph from a tensor made
outside it: `kept` is the loss itself, history and all."""
import torch


def train(model, data, criterion, optimizer):
    history = []
    for inputs, targets in data:
        loss = criterion(model(inputs), targets)
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            kept = loss
        history.append(kept)
    return history
