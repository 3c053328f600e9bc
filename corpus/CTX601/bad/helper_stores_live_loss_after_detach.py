# expect: 29 CTX601
"""The helper detaches every entry, then stores the live loss back under "total": that
entry keeps each step's graph, and the loop sums it."""
import torch


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def _train_microbatch(self, batch, scale: float) -> dict:
        loss = self.model(batch)
        losses = {"total": loss}
        for k, v in losses.items():
            losses[k] = v.detach().clone().mean() * scale
        losses["total"] = loss
        loss.backward()
        return losses

    def fit(self, loader):
        totals: dict = {}
        for batch in loader:
            self.optimizer.zero_grad()
            for micro in batch.split(4):
                for k, microbatch_loss in self._train_microbatch(micro, 0.25).items():
                    if k not in totals:
                        totals[k] = torch.zeros(1)
                    totals[k] += microbatch_loss
            self.optimizer.step()
        return totals
