# expect: none
"""A memo of tokenizers by model name beside a user id: the stored value does not
depend on the user, so sharing it across users is the point of the cache. An
accumulator filled with an empty list on a miss is no cache either."""
from typing import Dict, List

_loaded: Dict[str, object] = {}
_history: Dict[str, List[str]] = {}


def tokenizer_for(user_id: str, model: str, loader) -> object:
    tok = _loaded.get(model)
    if tok is None:
        tok = loader.load_tokenizer(model)
        _loaded[model] = tok
    return tok


def remember(user_id: str, model: str, line: str) -> None:
    if model not in _history:
        _history[model] = list()
    _history[model].append(line)
