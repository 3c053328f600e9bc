# expect: 16 CTX601
"""Near miss of the gradient-accumulation reset: this loop steps the optimizer from a
closure but never back-propagates in its own body, so the totals keep every
iteration's graph, with its saved activations, until the reset."""
import torch


def train(model, loader, optimizer, criterion, log_every: int, log):
    running_loss = 0
    for step, (inputs, targets) in enumerate(loader):
        def closure():
            optimizer.zero_grad()
            return criterion(model(inputs), targets)
        optimizer.step(closure)
        outputs = model(inputs)
        running_loss += criterion(outputs, targets)
        if step % log_every == 0:
            log(running_loss.item() / log_every)
            running_loss = 0
