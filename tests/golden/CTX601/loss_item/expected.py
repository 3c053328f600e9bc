def train_epoch(model, loader, optimizer):
    loss_sum, steps = 0.0, 0
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        loss_sum += loss.item()
        steps += 1
    return loss_sum / max(steps, 1)
