# expect: 13 CTX501
"""A module dict used as a memo (looked up, computed on a miss, stored under the
same key) whatever it is called: the answer is generated for the caller's user
(personalised by `user_id`), but the key is only the model and the question, so
user B is served user A's personalised answer."""
from typing import Dict

_answers: Dict[str, str] = {}


def answer_for(user_id: str, model: str, question: str, backend) -> str:
    key = f"{model}:{question}"
    if key not in _answers:
        if len(_answers) >= 4096:
            _answers.pop(next(iter(_answers)))  # drop the oldest entry
        _answers[key] = backend.complete(model, question, user=user_id)
    return _answers[key]
