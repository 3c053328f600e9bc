# expect: none
"""A parity check trains a reference and a sharded copy side by side: the inner loop
runs exactly twice (a literal pair), and the list is made afresh each step."""
import torch


def check_parity(ref_model, ref_optim, fsdp_model, fsdp_optim, inp, assert_close):
    for _ in range(10):
        losses = []
        for model, optim in ((ref_model, ref_optim), (fsdp_model, fsdp_optim)):
            optim.zero_grad()
            losses.append(model(inp).sum())
            losses[-1].backward()
            optim.step()
        assert_close(losses[0], losses[1])
