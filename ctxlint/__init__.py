"""ctxlint: a linter for request-context and cache-lifecycle bugs in LLM-serving code.

Finds leaked cancel funcs, unreset ContextVars, request objects parked in globals,
template sandbox escapes, unbounded adapter registries and cache keys without a
tenant/adapter scope, in Python, Go and Jinja2 templates.
"""

__version__ = "0.1.0"
