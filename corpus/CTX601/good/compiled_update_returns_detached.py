# expect: none
"""torchrl's training scripts: a local `update()` steps the optimizer and hands back its
losses `.detach()`ed, possibly through a dispatcher, and is wrapped by `torch.compile`;
the loop keeps a `.clone()` of each result for logging. A clone of a detached tensor has
no history."""
import torch


def train(cfg, loss_module, optim, buffer, num_updates, log):
    def update_critic(batch):
        loss = loss_module(batch)
        loss["loss_critic"].backward()
        optim.step()
        optim.zero_grad(set_to_none=True)
        return loss.select("loss_critic").detach()

    def update_all(batch):
        loss = loss_module(batch)
        (loss["loss_critic"] + loss["loss_actor"]).backward()
        optim.step()
        optim.zero_grad(set_to_none=True)
        return loss.detach()

    def update(batch, update_actor):
        if update_actor:
            return update_all(batch)
        return update_critic(batch)

    if cfg.compile:
        update = torch.compile(update, mode="reduce-overhead")

    losses = []
    for i in range(num_updates):
        batch = buffer.sample()
        loss = update(batch, update_actor=i % 2 == 0).clone()
        losses.append(loss)
    log(torch.stack(losses).float().mean())
