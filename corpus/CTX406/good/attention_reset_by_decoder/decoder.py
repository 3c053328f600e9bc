# expect: none
import torch


def greedy_decode(attn, cell, enc_states: torch.Tensor, steps: int) -> list[torch.Tensor]:
    attn.reset()
    h = enc_states.new_zeros(enc_states.size(0), cell.hidden_size)
    outs = []
    for _ in range(steps):
        ctx = attn(enc_states, h)
        h = cell(ctx, h)
        outs.append(h)
    return outs
