# expect: 11 CTX601
"""Drops NaN losses from the history, keeps every other graph."""
import torch


def train(model, loader, optimizer):
    losses = []
    for batch in loader:
        optimizer.zero_grad()
        loss = model(**batch).loss
        losses.append(loss)                  # graph kept
        if torch.isnan(loss):
            losses.pop()
            continue
        loss.backward()
        optimizer.step()
    return torch.stack(losses).mean()
