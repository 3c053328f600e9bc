"""Python rules, one module per rule (`ctx103_contextvar_not_reset.py`).

Each module defines one `Rule` subclass; the registry imports every module of
this package (see `ctxlint.rules.all_rules`). Shared analyses live in
`ctxlint.semantic.python`, never here.
"""
