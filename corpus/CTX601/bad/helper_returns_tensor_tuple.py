# expect: 27 CTX601
"""The step helper hands back the loss tensor itself in its tuple: the sum keeps every
step's graph."""
import torch


class Trainer:
    def __init__(self, model, optimizer, loader):
        self.model = model
        self.optimizer = optimizer
        self.loader = loader

    def _train_step(self, batch):
        parts = {}
        loss = self.model(batch)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        parts["main"] = loss.item()
        return loss, parts

    def _train_epoch(self):
        epoch_total_loss = torch.zeros(())
        for batch in self.loader:
            total_loss, losses = self._train_step(batch)
            self.optimizer.step()
            epoch_total_loss += total_loss
        return epoch_total_loss / len(self.loader)
