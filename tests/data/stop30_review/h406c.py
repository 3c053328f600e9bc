import torch


class Recorder:
    def __init__(self, model):
        self.captured = []
        self.handle = model.layer.register_forward_hook(self._capture)

    def _capture(self, module, inp, output):
        self.captured.append(output[0])

    def reset(self):
        self.captured: list = []
