# expect: 10 CTX401
"""Kind: an undo's `pop()` trims one message on a rare action; every other chat call's append
stays, so each user's history still grows without bound (review of stop 29's element-removal exemption)."""
from collections import defaultdict

HISTORY: defaultdict[str, list[str]] = defaultdict(list)


async def chat(user_id: str, message: str) -> None:
    HISTORY[user_id].append(message)          # every request


async def undo(user_id: str) -> None:
    if HISTORY[user_id]:
        HISTORY[user_id].pop()               # one message, on a rare user action
