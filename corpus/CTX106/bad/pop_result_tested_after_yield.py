# expect: 15 CTX106
# Reported in review of stop 22's exemptions: a removal whose answer is tested is still the cleanup.
# (A real bug the first version of the exemption silenced.)
import logging
import time
from contextlib import contextmanager

log = logging.getLogger(__name__)
_active: dict[str, float] = {}


@contextmanager
def track_request(request_id: str):
    _active[request_id] = time.monotonic()
    yield
    # the removal's answer is tested, but it IS the cleanup: an exception in the
    # body skips it and the entry stays in _active forever
    if _active.pop(request_id, None) is None:
        log.warning("request %s was not tracked", request_id)
