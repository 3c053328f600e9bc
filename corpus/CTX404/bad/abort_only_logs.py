# expect: 31 CTX404
"""The abort path was left as a log line: `finish_request` frees the request's
prompt and output buffer, `abort_request` announces the abort and frees nothing, so
every client disconnect leaks both entries."""
import logging
from typing import Dict, List

logger = logging.getLogger(__name__)


class AsyncStreamEngine:
    def __init__(self, scheduler):
        self.scheduler = scheduler
        self.prompts: Dict[str, str] = {}
        self.outputs: Dict[str, List[str]] = {}

    def add_request(self, request_id: str, prompt: str) -> None:
        self.prompts[request_id] = prompt
        self.outputs[request_id] = []
        self.scheduler.enqueue(request_id)

    def append_output(self, request_id: str, text: str) -> None:
        self.outputs[request_id].append(text)

    def finish_request(self, request_id: str) -> List[str]:
        self.prompts.pop(request_id, None)
        out = self.outputs.pop(request_id)
        logger.debug("finished %s with %d chunks", request_id, len(out))
        return out

    def abort_request(self, request_id: str) -> None:
        logger.info("Aborted request %s.", request_id)
