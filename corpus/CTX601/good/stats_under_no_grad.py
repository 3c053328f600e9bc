# expect: none
"""Statistics of the model's outputs computed inside `torch.no_grad()`: tensors made
there have requires_grad=False, so keeping them across steps keeps no graph."""
import torch


def train(model, data, criterion, optimizer):
    history = []
    norm_total = 0
    for inputs, targets in data:
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            output_norm = outputs.norm(dim=-1).mean()
        history.append(output_norm)
        norm_total += output_norm
    return history, norm_total
