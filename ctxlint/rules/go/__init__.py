"""Go rules, one module per rule (`ctx101_lost_cancel.py`).

Shared analyses (control-flow graph, escape of values, ctx-in-scope facts) live in
`ctxlint.semantic.go`.
"""
