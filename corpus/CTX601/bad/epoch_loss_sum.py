# expect: 15 CTX601
import torch


def train_one_epoch(model, loader, optimizer, criterion, device="cuda"):
    model.train()
    running_loss = 0.0
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        optimizer.zero_grad()
        logits = model(inputs)
        loss = criterion(logits, targets)
        loss.backward()
        optimizer.step()
        running_loss = running_loss + loss
    return running_loss / len(loader)
