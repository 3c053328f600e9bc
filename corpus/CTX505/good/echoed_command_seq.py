# expect: none
"""Reduced from a workflow sandbox: every outgoing command gets a per-kind sequence
number, the number goes into the command, and the engine's activation job carries it
back. `job.seq` (a message of another module) is the number `_bump_seq()` returned."""
import asyncio
from typing import Dict, Tuple

from engine_pb import activation_pb2, commands_pb2


class Sandbox:
    def __init__(self):
        self._seqs: Dict[str, int] = {}
        self._commands: list = []
        self._signals: Dict[int, Tuple[asyncio.Future, str]] = {}
        self._queries: Dict[int, asyncio.Future] = {}

    def _bump_seq(self, kind: str) -> int:
        seq = self._seqs.get(kind, 0) + 1
        self._seqs[kind] = seq
        return seq

    async def signal_child(self, command: commands_pb2.Command, target: str) -> None:
        seq = self._bump_seq("signal")
        command.signal_external.seq = seq
        fut = asyncio.get_running_loop().create_future()
        self._signals[seq] = (fut, target)
        self._commands.append(command)
        await fut

    def query_peer(self, name: str) -> asyncio.Future:
        seq = self._bump_seq("query")
        fut = asyncio.get_running_loop().create_future()
        self._queries[seq] = fut
        self._commands.append(commands_pb2.Command(query=commands_pb2.Query(seq=seq, name=name)))
        return fut

    def _resolve_signal(self, job: activation_pb2.ResolveSignal) -> None:
        pending = self._signals.pop(job.seq, None)
        if pending is None:
            raise RuntimeError(f"no pending signal for seq {job.seq}")
        pending[0].set_result(None)

    def _resolve_query(self, job) -> None:
        fut = self._queries.pop(job.seq, None)
        if fut is not None and not fut.done():
            fut.set_result(job.result)
