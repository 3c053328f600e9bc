# expect: none
"""A replica keeps one access-log context dict and, for each request, overwrites two
fixed keys of it (module constants naming the route and the request id fields)
before handing the request to the user callable. Cancelled during that call, the
request leaves the two keys as they are: the next request overwrites them, and the
dict never holds more than its fixed fields. Also a table of the model each
request slot was warmed with, written under a slot index from `range(self.slots)`.
Shape of ray serve's ReplicaBase `_access_log_context`."""
import logging

from .log_fields import LOG_FIELD_REQUEST_ID

logger = logging.getLogger(__name__)

LOG_FIELD_ROUTE = "route"


class ReplicaServer:
    def __init__(self, user_callable, slots: int) -> None:
        self._user = user_callable
        self.slots = slots
        self._log_context: dict[str, object] = {"component": "replica"}
        self._slot_model: dict[int, str] = {}

    def reconfigure(self, component: str) -> None:
        self._log_context = {"component": component}
        self._slot_model.clear()

    def _record_access(self, request) -> None:
        self._log_context[LOG_FIELD_REQUEST_ID] = request.request_id
        self._log_context[LOG_FIELD_ROUTE] = request.route
        logger.info("request served", extra=self._log_context)

    async def handle_request(self, request) -> object:
        self._record_access(request)
        return await self._user.call(request)

    async def warm_slots(self, model_id: str) -> None:
        for request_slot in range(self.slots):
            self._slot_model[request_slot] = model_id
            await self._user.warm(request_slot, model_id)
