"""The Python semantic layer.

Modules:
    facts       `PythonFacts`: the one traversal (parents, type index), imports and
                qualified names, ContextVar bindings, scope ids; `lint()`.
    containers  long-lived containers with their insert/remove/read/escape sites.
    cache_keys  scope ids reachable per function, key closures, key sinks.

Everything is computed on demand and memoized on the `PythonFacts` object, so a
file pays only for the facts the selected rules ask for.
"""
