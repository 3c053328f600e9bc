# expect: none
import logging

log = logging.getLogger(__name__)


class EventBus:
    def __init__(self):
        self.subscribers = {}
        self.coordinator = None

    async def publish(self, topic, event):
        try:
            await self.coordinator.publish(topic, event)
        except Exception as e:
            log.error("publish to coordinator failed: %s", e)


event_bus = EventBus()
