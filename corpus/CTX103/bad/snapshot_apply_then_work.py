# expect: 16 CTX103
# Near miss of the snapshot-setter exemption: one var set over and over from a
# list of items inside a loop (not a walk of the vars of a snapshot), for the
# work that follows in the same iteration: the last item stays bound afterwards.
import contextvars

current_item: contextvars.ContextVar[str] = contextvars.ContextVar("current_item")


def handle(item: str) -> None:
    print(current_item.get(), item)


def process_all(items: list[str]) -> None:
    for item in items:
        current_item.set(item)
        handle(item)
