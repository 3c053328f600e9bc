# expect: 21 CTX601
"""`_step` back-propagates and hands the loss tensor back; the caller sums the tensors,
so every step's graph stays reachable from `running`."""
import torch


class Loop:
    def __init__(self, net, opt):
        self.net = net
        self.opt = opt

    def _step(self, batch):
        out = self.net(batch["x"])
        err = torch.nn.functional.mse_loss(out, batch["y"])
        err.backward()
        return err

    def epoch(self, batches):
        running = torch.zeros(())
        for batch in batches:
            running += self._step(batch)
            self.opt.step()
            self.opt.zero_grad()
        return float(running)
