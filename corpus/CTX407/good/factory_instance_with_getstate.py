# expect: none
import asyncio

import ray
import torch


def _restore_table(bias_cpu: torch.Tensor) -> "LogitBiasTable":
    table = LogitBiasTable.__new__(LogitBiasTable)
    table.bias = bias_cpu
    table._lock = asyncio.Lock()
    table._loop = None
    return table


class LogitBiasTable:
    def __init__(self, vocab_size: int, device: str) -> None:
        self.bias = torch.zeros(vocab_size, device=device)
        self._lock = asyncio.Lock()
        self._loop = asyncio.new_event_loop()

    async def update(self, token_id: int, value: float) -> None:
        async with self._lock:
            self.bias[token_id] = value

    def __reduce__(self):
        # ship a CPU copy of the plain data; no lock, no loop, no GPU storage
        return (_restore_table, (self.bias.detach().cpu(),))


def build_table(vocab_size: int) -> LogitBiasTable:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    return LogitBiasTable(vocab_size, device)


def share_with_samplers(vocab_size: int):
    table = build_table(vocab_size)
    return ray.put(table)
