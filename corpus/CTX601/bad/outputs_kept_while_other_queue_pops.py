# expect: 19 CTX601
# expect: 20 CTX601
"""Near miss of the pipeline queue: the loop pops the inputs but keeps appending every
output, each with its graph, and the float running total keeps every loss's graph too."""
import torch


def train(model, optimizer, microbatches, backward_step, loss_fn):
    input_tensors = []
    outputs = []
    running = torch.zeros([], dtype=torch.float32)
    for mb in microbatches:
        out = model(mb["input"])
        input_tensors.append(mb["input"])
        loss = loss_fn(out, mb["labels"])
        backward_step(input_tensors.pop(0), loss)
        loss.backward()
        optimizer.step()
        outputs.append(out)
        running += loss
    return outputs, running
