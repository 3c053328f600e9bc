# expect: none
"""Metrics rows filled key by key, or built by comprehension, from reduced values:
`float(t)`, `.item()`, `.tolist()` and `.cpu().numpy()` give Python numbers, lists
and NumPy arrays, none of which carries autograd history."""
import torch


def train_epoch(model, loader, optimizer, criterion, log):
    rows = []
    for inputs, targets in loader:
        optimizer.zero_grad()
        logits = model(inputs)
        loss = criterion(logits, targets)
        loss.backward()
        optimizer.step()
        row = {}
        row["loss"] = float(loss)
        row["grad_norms"] = [p.grad.norm().item() for p in model.parameters() if p.grad is not None]
        row["top_class"] = logits.argmax(-1).tolist()
        rows.append(row)
        log.append({name: value.detach().cpu().numpy() for name, value in model.named_parameters()})
    return rows


def train_with_steps(model, batches, optimizer):
    per_step = []
    for batch in batches:
        optimizer.zero_grad()
        out = model(**batch)
        out.loss.backward()
        optimizer.step()
        stats = {"lr": optimizer.param_groups[0]["lr"]}
        stats.update(loss=out.loss.item(), tokens=int(batch["attention_mask"].sum()))
        per_step.append(stats)
    return per_step


def train_epochs(model, loader, optimizer, criterion, epochs: int):
    history = []
    for _ in range(epochs):
        step_losses = []
        for inputs, targets in loader:
            optimizer.zero_grad()
            loss = criterion(model(inputs), targets)
            loss.backward()
            optimizer.step()
            step_losses.append(loss.item())
        epoch_loss = sum(step_losses) / max(len(step_losses), 1)
        loss_log = {"train": epoch_loss, "worst": max(step_losses, default=0.0)}
        history.append(epoch_loss)
        history.append(loss_log)
    return history
