# expect: none
"""The step helper back-propagates, then rewrites every entry of the loss dict it
returns with a detached copy: the training loop sums values without history (composer's
`_train_microbatch`)."""
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
