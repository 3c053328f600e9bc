# expect: none
"""Runs a step graph: binds the pause counter and the replies for the whole run and
resets both in `finally`."""


class Engine:
    def __init__(self, steps):
        self.steps = steps

    def run(self, state, replies=None):
        from flowkit.signals import _pause_index, _replies

        index_token = _pause_index.set(0)
        replies_token = _replies.set(replies)
        try:
            for step in self.steps:
                state = step(state)
            return state
        finally:
            _replies.reset(replies_token)
            _pause_index.reset(index_token)
