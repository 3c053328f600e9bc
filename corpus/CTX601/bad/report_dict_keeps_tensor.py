# expect: 18 CTX601 loss
# expect: 21 CTX601 report
# expect: 36 CTX601 row
# expect: 48 CTX601 logits
"""Reports that still hold a graph tensor: a running total kept as a tensor, a row
filled with the loss itself, and a dict mixing `.item()` with raw logits."""
import torch


def train(model, loader, optimizer, loss_fn):
    reports = []
    running = 0.0
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        running = running + loss
        avg_loss = running / max(step, 1)
        report = {"loss": avg_loss, "step": step}
        reports.append(report)
    return reports


def train_rows(model, loader, optimizer, criterion):
    rows = []
    for inputs, targets in loader:
        optimizer.zero_grad()
        logits = model(inputs)
        loss = criterion(logits, targets)
        loss.backward()
        optimizer.step()
        row = {}
        row["step_loss"] = loss
        row["n"] = len(inputs)
        rows.append(row)
    return rows


def train_mixed(model, loader, optimizer, criterion):
    history = []
    for inputs, targets in loader:
        optimizer.zero_grad()
        logits = model(inputs)
        loss = criterion(logits, targets)
        loss.backward()
        optimizer.step()
        history.append({"loss": loss.item(), "logits": logits})
    return history
