# expect: 11 CTX106
"""Pins a worker to one GPU while it loads a model."""
import os
from contextlib import contextmanager


@contextmanager
def visible_devices(device_ids: list[int]):
    previous = os.environ.get("CUDA_VISIBLE_DEVICES")
    os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(map(str, device_ids))
    yield
    if previous is None:
        del os.environ["CUDA_VISIBLE_DEVICES"]
    else:
        os.environ["CUDA_VISIBLE_DEVICES"] = previous
