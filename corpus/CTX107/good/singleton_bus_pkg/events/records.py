# expect: none
"""The task runs a method of the bus singleton of `bus.py`, which catches and logs
every error of its awaited work: no failure is lost with the reference."""
import asyncio

from events.bus import event_bus


def notify(topic, event):
    asyncio.create_task(event_bus.publish(topic, event))
