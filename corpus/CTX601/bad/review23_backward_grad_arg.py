# expect: 13 CTX601
"""Tensor.backward(gradient): the receiver is the graph tensor, not the gradient."""
import torch


def train(encoder, batches, grads, opt):
    feats = []
    for x, g in zip(batches, grads):
        opt.zero_grad()
        h = encoder(x)
        h.backward(g)
        opt.step()
        feats.append(h)                      # every step's graph kept
    return feats
