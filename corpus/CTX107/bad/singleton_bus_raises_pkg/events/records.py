# expect: 10 CTX107
"""The bus singleton's `publish` lets its await raise: that error is stored on a task
nobody holds."""
import asyncio

from events.bus import event_bus


def notify(topic, event):
    asyncio.create_task(event_bus.publish(topic, event))
