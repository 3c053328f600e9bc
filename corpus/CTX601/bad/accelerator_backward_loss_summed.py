# expect: 12 CTX601
"""Near miss of the strategy's backward: what `accelerator.backward(loss)` back-propagates is
`loss`, and summing it keeps every step's graph."""


def train(accelerator, model, optimizer, loader):
    total = 0
    for batch in loader:
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        total += loss
    return total
