import collections
import torch


class Recorder:
    def __init__(self, model):
        self.captured = collections.deque(maxlen=4)
        self.handle = model.layer.register_forward_hook(self._capture)

    def _capture(self, module, inp, output):
        self.captured.append(output[0])
