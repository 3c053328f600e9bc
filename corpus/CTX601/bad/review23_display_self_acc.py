# expect: 18 CTX601
"""GAN trainer: per-step loop over the two (model, optimizer) pairs; the running total lives on self."""
import torch


class GANTrainer:
    def __init__(self, gen, disc, g_opt, d_opt):
        self.gen, self.disc = gen, disc
        self.g_opt, self.d_opt = g_opt, d_opt
        self.epoch_loss = torch.zeros(())

    def train_step(self, batch):
        for model, opt in ((self.gen, self.g_opt), (self.disc, self.d_opt)):
            opt.zero_grad()
            loss = model.compute_loss(batch)
            loss.backward()
            opt.step()
            self.epoch_loss += loss          # self.epoch_loss chains every step's graph
        return self.epoch_loss
