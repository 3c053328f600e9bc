# expect: 16 CTX601
"""Near miss of nemo's combined loss: each part is back-propagated on its own and the
sum is only logged at the end of the epoch, so every step's graph stays reachable
through it."""


class SSLModel:
    def train_epoch(self, loader, log):
        epoch_loss = 0.0
        opt = self.optimizer
        for batch in loader:
            for key in batch.keys():
                logits = self.forward(batch[key]["audio"])
                part_loss = self.criterion(logits, batch[key]["labels"])
                opt.zero_grad()
                epoch_loss += part_loss
                part_loss.backward()
                opt.step()
        log("epoch_loss", float(epoch_loss))
        return epoch_loss
