# expect: none
def train(model, loader, optimizer, accum_steps: int = 4):
    """Summing micro-batch losses before one backward() is the point: the sum is reset every step."""
    micro = []
    losses = []
    for batch in loader:
        micro.append(batch)
        if len(micro) < accum_steps:
            continue
        total = 0
        for mb in micro:
            total += model(**mb).loss / accum_steps
        total.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(total.detach())
        micro = []
    return losses
