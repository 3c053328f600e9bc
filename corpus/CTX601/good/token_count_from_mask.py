# expect: none
"""Counting supervised tokens: `(labels != ignore).sum()` is a comparison reduced to a
count. A bool tensor cannot require grad, so the running count holds no graph even
though it is a tensor and the loss function object is consulted for the ignore index."""
import torch


def train_epoch(model, loader, loss_fn, optimizer):
    num_tokens = 0
    running = 0.0
    for batch in loader:
        labels = batch["labels"]
        current = (labels != loss_fn.ignore_index).sum()
        num_tokens += current
        loss = loss_fn(model(batch["input_ids"]), labels) * current
        running += loss.item()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    return running / num_tokens
