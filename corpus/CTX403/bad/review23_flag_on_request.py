# expect: 14 CTX403
"""The flag is on the per-call request, the hook is on the shared model: hooks pile up per request."""
import torch


class SteeringServer:
    def __init__(self, model):
        self.model = model

    def generate(self, request):
        if getattr(request, "_steered", False):
            return self.model.generate(request.input_ids)
        vec = torch.tensor(request.vector)
        self.model.layers[request.layer].register_forward_hook(lambda m, i, o: o + vec)
        request._steered = True
        return self.model.generate(request.input_ids)
