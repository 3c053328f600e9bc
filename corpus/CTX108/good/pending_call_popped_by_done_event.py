# expect: none
"""A realtime session tracks a function call the server announced; the server's later
`arguments.done` event pops it. The item and its id come from the server, the handler
only adds the entry when it is not tracked yet, and the await that follows notifies
listeners: a cancelled handler does not change when the server's done event arrives.
Reduced from pipecat-ai pipecat/services/openai/realtime/llm.py
(_handle_evt_conversation_item_added / _handle_evt_function_call_arguments_done)."""


class RealtimeLLMService:
    def __init__(self) -> None:
        self._pending_function_calls: dict = {}
        self._handlers: dict = {}

    async def _call_event_handler(self, name: str, *args) -> None:
        for handler in self._handlers.get(name, []):
            await handler(*args)

    async def _on_item_added(self, evt) -> None:
        if evt.item.type == "function_call":
            if evt.item.call_id not in self._pending_function_calls:
                self._pending_function_calls[evt.item.call_id] = evt.item
        await self._call_event_handler("on_item_created", evt.item.id, evt.item)

    async def _on_arguments_done(self, evt) -> None:
        item = self._pending_function_calls.pop(evt.call_id, None)
        if item is not None:
            await self._call_event_handler("on_function_call", item.name, evt.arguments)
