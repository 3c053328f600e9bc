# expect: none
"""A 1F1B pipeline schedule keeps each microbatch's input and output until its backward
step, then pops them (a queue, not a history), and counts tokens in an integer tensor,
which can hold no graph."""
import torch


def one_f_one_b(model, optimizer, microbatches, backward_step, num_warmup: int):
    input_tensors = []
    output_tensors = []
    total_num_tokens = torch.zeros([], dtype=torch.int, device="cuda")
    for mb in microbatches:
        output_tensor, num_tokens = model(mb["input"]), mb["num_tokens"]
        total_num_tokens += num_tokens
        input_tensors.append(mb["input"])
        output_tensors.append(output_tensor)
        if len(output_tensors) > num_warmup:
            input_tensor = input_tensors.pop(0)
            out = output_tensors.pop(0)
            backward_step(input_tensor, out)
            optimizer.step()
    return total_num_tokens.item()
