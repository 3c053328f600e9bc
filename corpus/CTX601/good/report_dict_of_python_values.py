# expect: none
"""Periodic reports from a training loop: every value in the report is Python data
(`.item()` sums, `.detach().tolist()` weights, ints), so keeping the reports keeps no
autograd graph."""
import torch
from torch import nn


def train(model: nn.Module, loader, steps: int, report_every: int = 10):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = nn.MSELoss()
    reports = []
    running_loss, num_batches = 0.0, 0
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        num_batches += 1
        if step % report_every == 0:
            avg_loss = running_loss / max(num_batches, 1)
            weight = model.weight.detach().flatten().tolist()
            report = {"loss": avg_loss, "weight": weight, "step": step}
            reports.append(report)
            running_loss, num_batches = 0.0, 0
        if step >= steps:
            break
    return reports


def fit(model: nn.Module, loader, epochs: int):
    opt = torch.optim.AdamW(model.parameters())
    history = []
    for epoch in range(epochs):
        losses = []
        for batch in loader:
            opt.zero_grad()
            outputs = model(batch["x"])
            loss = nn.functional.cross_entropy(outputs, batch["y"])
            loss.backward()
            opt.step()
            losses.append(loss.item())
        history.append({"epoch": epoch, "mean_loss": sum(losses) / len(losses),
                        "min_loss": min(losses)})
    return history
