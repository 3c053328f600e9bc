# expect: none
"""A local named like the module's thread-local shadows it inside the coroutine."""
import threading

state = threading.local()


def sync_handler(user: str) -> str:
    state.user = user
    return state.user


async def async_handler(user: str) -> str:
    state = {"user": user}
    return state["user"]
