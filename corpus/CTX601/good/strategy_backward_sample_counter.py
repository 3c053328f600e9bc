# expect: none
"""A trainer that back-propagates through its strategy object counts consumed samples
with plain ints; the strategy (`self.strategy`) is no tensor, and the counter holds no graph."""


class SFTTrainer:
    def __init__(self, strategy, model, optimizer, loader):
        self.strategy, self.model, self.optimizer, self.loader = strategy, model, optimizer, loader

    def fit(self, args, consumed_samples: int = 0):
        accumulated_gradient = self.strategy.accumulated_gradient
        samples_per_micro_batch = args.train.batch_size // accumulated_gradient
        for batch in self.loader:
            loss = self.model(**batch).loss
            self.strategy.backward(loss, self.model, self.optimizer)
            self.strategy.optimizer_step(self.optimizer, self.model)
            consumed_samples += samples_per_micro_batch
        return consumed_samples
