# expect: none
"""Reduced from xinference's vendored FACodec trainer (facodec_trainer.py): the step
helper back-propagates and hands back `loss.item()` (a float) with a dict of floats,
so the epoch sum holds no tensor."""
import torch


class Trainer:
    def __init__(self, model, optimizer, loader):
        self.model = model
        self.optimizer = optimizer
        self.loader = loader

    def _train_step(self, batch):
        parts = {}
        total_loss = 0
        loss = self.model(batch)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        with torch.no_grad():
            total_loss = loss.item()
            parts["main"] = loss.item()
        return total_loss, parts

    def _train_epoch(self):
        epoch_total_loss: int = 0
        for batch in self.loader:
            total_loss, losses = self._train_step(batch)
            epoch_total_loss += total_loss
        return epoch_total_loss / len(self.loader)
