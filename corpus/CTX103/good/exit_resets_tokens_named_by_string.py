# expect: none
"""An async scope object keeps one token per override on attributes and its exit
walks `(var, attribute name)` pairs, resetting each stored token through `getattr`."""
import contextvars

current_project = contextvars.ContextVar("current_project", default=None)
model_override = contextvars.ContextVar("model_override", default=None)
retry_policy = contextvars.ContextVar("retry_policy", default=None)


class ProjectScope:
    def __init__(self, project, model=None, retries=None):
        self._project = project
        self._model = model
        self._retries = retries
        self._project_token = None
        self._model_token = None
        self._retries_token = None

    async def _bind(self):
        self._project_token = current_project.set(self._project)
        if self._model is not None:
            self._model_token = model_override.set(self._model)
        if self._retries is not None:
            self._retries_token = retry_policy.set(self._retries)

    async def __aenter__(self):
        await self._bind()
        return self

    async def __aexit__(self, exc_type, exc, tb):
        for var, slot in reversed((
            (current_project, "_project_token"),
            (model_override, "_model_token"),
            (retry_policy, "_retries_token"),
        )):
            token = getattr(self, slot)
            if token is not None:
                var.reset(token)
                setattr(self, slot, None)
