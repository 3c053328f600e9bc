# expect: none
# A library's own generic class constructed through a subscripted alias
# (`PromptFunction[P, R](...)`) with the decorator's template: no str.format and no
# known prompt-template class is involved, so there is no format string to judge.
from typing import Callable, Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class PromptFunction(Generic[P, R]):
    def __init__(self, name: str, template: str):
        self.name = name
        self.template = template


def prompt(template: str) -> Callable[[Callable[P, R]], PromptFunction[P, R]]:
    def decorator(func: Callable[P, R]) -> PromptFunction[P, R]:
        return PromptFunction[P, R](name=func.__name__, template=template)

    return decorator
