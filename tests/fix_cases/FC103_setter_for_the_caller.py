# fix: same
# fix case (contextvar_reset_finally): issue 35's cashews and aiomisc breaks. A method that sets a switch for its caller, then records that it did (cashews `_set_disable`), and a module function that sets a format for its caller, then configures a logger (aiomisc `basic_config`): resetting either before it returns undoes its purpose, so no fix may touch them
import logging
from contextvars import ContextVar

_style: ContextVar[str] = ContextVar("style", default="plain")


class Switchboard:
    def __init__(self) -> None:
        self.__off: ContextVar[frozenset] = ContextVar(f"off-{id(self)}", default=frozenset())
        self._used = False

    def _switch_off(self, names: frozenset) -> None:
        self.__off.set(names)
        self._used = True

    def turn_off(self, *names: str) -> None:
        self._switch_off(frozenset(names))

    def is_off(self, name: str) -> bool:
        return self._used and name in self.__off.get()


def setup_output(style: str = "json", level: int = logging.INFO) -> None:
    _style.set(style)
    logging.getLogger("fixcase").setLevel(level)


def behaviour():
    board = Switchboard()
    board.turn_off("read")
    seen = [board.is_off("read"), board.is_off("write")]
    setup_output("color", logging.DEBUG)
    seen.append(_style.get())
    return seen
