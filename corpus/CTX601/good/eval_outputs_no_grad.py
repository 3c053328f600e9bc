# expect: none
import torch


def train_and_collect(model, loader, val_loader, optimizer):
    preds = []
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        with torch.no_grad():
            preds.append(model(**next(iter(val_loader))).logits)
    return preds
