"""Template rules (Jinja2 files and template strings/format strings in Python), one
module per rule. Shared template facts live in `ctxlint.semantic.jinja`.
"""
