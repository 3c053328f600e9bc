# expect: none
"""`_install_markers` registers hooks and runs one warm-up pass; its only caller is
`load`, which only `__init__` calls, so it runs once per worker."""
import functools

import torch


def _mark(module, args, *, label):
    torch.cuda.nvtx.mark(label)


class Worker:
    def __init__(self, build_model, sample):
        self.sample = sample
        self.load(build_model)

    def load(self, build_model):
        self.model = build_model()
        self._install_markers()

    def _install_markers(self):
        for label, module in self.model.named_modules():
            module.register_forward_pre_hook(functools.partial(_mark, label=label))
        with torch.no_grad():
            self.model(self.sample)

    def run(self, batch):
        return self.model(batch)
