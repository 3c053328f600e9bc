# expect: none
"""nemo's SSL TTS `training_step`: the batch's parts are summed into one combined loss,
which one `manual_backward` back-propagates after the loop. Keeping each part's graph
until then is the point."""
import torch


class SSLModel:
    def training_step(self, batch, batch_idx):
        loss = 0.0
        opt_a, opt_b = self.optimizers()
        for key in batch.keys():
            logits = self.forward(batch[key]["audio"])
            part_loss = self.criterion(logits, batch[key]["labels"])
            loss += part_loss
            if not self.combined:
                opt_a.zero_grad()
                self.manual_backward(part_loss)
                opt_a.step()
        if self.combined:
            opt_a.zero_grad()
            self.manual_backward(loss)
            opt_a.step()
        return loss
