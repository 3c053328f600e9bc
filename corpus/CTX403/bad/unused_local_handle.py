# expect: 13 CTX403
import torch


class ActivationProbe:
    def __init__(self, model):
        self.model = model
        self.seen = []

    def predict(self, batch):
        def record(module, args, output):
            self.seen.append(output.detach().cpu())
        handle = self.model.encoder.register_forward_hook(record)
        with torch.no_grad():
            return self.model(batch)
