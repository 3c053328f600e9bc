# expect: 13 CTX601
"""Backward with retain_graph=True frees nothing: the reset keeps up to log_every steps of saved activations."""
import torch


def train(model, loader, optimizer, criterion, log_every=1000):
    running = 0.0
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_graph=True)
        optimizer.step()
        running += loss
        if step % log_every == 0:
            print(float(running))
            running = 0.0
