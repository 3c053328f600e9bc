# expect: none
class EventBus:
    def __init__(self):
        self.subscribers = {}
        self.coordinator = None

    async def publish(self, topic, event):
        await self.coordinator.publish(topic, event)


event_bus = EventBus()
