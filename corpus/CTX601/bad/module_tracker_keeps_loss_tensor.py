# expect: 28 CTX601
"""A module-level metrics tracker: `track(name, value)` files every value under its name
for the end-of-run report. The training loop hands it the loss tensor, so the tracker
keeps every step's autograd graph until the process exits."""
from collections import defaultdict

import torch

METRICS: dict[str, list] = defaultdict(list)


def track(name: str, value) -> None:
    series = METRICS[name]
    series.append(value)


def track_many(values: dict) -> None:
    for name, value in values.items():
        track(name, value)


def train(model, loader, lr: float = 1e-4) -> None:
    optim = torch.optim.AdamW(model.parameters(), lr=lr)
    for inputs, targets in loader:
        loss = torch.nn.functional.mse_loss(model(inputs), targets)
        loss.backward()
        optim.step()
        track("loss", loss)
        optim.zero_grad()
