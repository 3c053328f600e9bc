# expect: none
"""The tracker turns what it is given into a Python float before filing it, so the
tensors it receives leave no graph behind; the loop may hand it the loss itself."""
from collections import defaultdict

import torch

METRICS: dict[str, list] = defaultdict(list)


def track(name: str, value) -> None:
    METRICS[name].append(float(value))


def train(model, loader, lr: float = 1e-4) -> None:
    optim = torch.optim.AdamW(model.parameters(), lr=lr)
    for inputs, targets in loader:
        loss = torch.nn.functional.mse_loss(model(inputs), targets)
        loss.backward()
        optim.step()
        track("loss", loss)
        track("grad_norm", torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0).item())
        optim.zero_grad()
