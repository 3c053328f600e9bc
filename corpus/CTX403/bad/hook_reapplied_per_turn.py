# expect: 19 CTX403
"""`apply_vector` runs once from `__init__`, but `chat` calls it again on every turn:
one caller running once does not make the method run once, so hooks pile up."""
import functools


def _add_vector(module, args, output, *, vector):
    return output + vector


class SteeringSession:
    def __init__(self, model, vector, calibration_ids):
        self.model = model
        self.calibration_ids = calibration_ids
        self.apply_vector(vector)

    def apply_vector(self, vector):
        hook = functools.partial(_add_vector, vector=vector)
        self.model.layers[6].register_forward_hook(hook)
        return self.model(self.calibration_ids)

    def chat(self, input_ids, vector):
        self.apply_vector(vector)
        return self.model(input_ids)
