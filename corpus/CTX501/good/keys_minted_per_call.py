# expect: none
"""Keys minted in the call itself: a uuid4 job handle, and the id a new Job object
gives itself (its dataclass field defaults to a fresh uuid). No other call, and no
other tenant, can ever produce these keys."""
import uuid
from dataclasses import dataclass, field
from typing import Dict

_JOB_CACHE: Dict[str, dict] = {}
_JOB_REGISTRY: Dict[str, "Job"] = {}


@dataclass
class Job:
    tenant_id: str
    prompt: str
    handle: str = field(default_factory=lambda: uuid.uuid4().hex)


def submit(tenant_id: str, prompt: str) -> str:
    ticket = uuid.uuid4().hex
    _JOB_CACHE[ticket] = {"tenant": tenant_id, "prompt": prompt}
    return ticket


def enqueue(tenant_id: str, prompt: str) -> Job:
    job = Job(tenant_id=tenant_id, prompt=prompt)
    _JOB_REGISTRY[job.handle] = job
    return job


def finish(ticket: str, handle: str) -> None:
    _JOB_CACHE.pop(ticket, None)
    _JOB_REGISTRY.pop(handle, None)
