# expect: 26 CTX407 the object returned by a factory holds an asyncio lock, an event loop and a (possibly CUDA) tensor and is sent with ray.put, with no __getstate__/__reduce__
import asyncio

import ray
import torch


class LogitBiasTable:
    def __init__(self, vocab_size: int, device: str) -> None:
        self.bias = torch.zeros(vocab_size, device=device)
        self._lock = asyncio.Lock()
        self._loop = asyncio.new_event_loop()

    async def update(self, token_id: int, value: float) -> None:
        async with self._lock:
            self.bias[token_id] = value


def build_table(vocab_size: int) -> LogitBiasTable:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    return LogitBiasTable(vocab_size, device)


def share_with_samplers(vocab_size: int):
    table = build_table(vocab_size)
    return ray.put(table)
