"""Shared per-file analyses (facts), computed lazily and once, read by every rule.

The layer sits between `languages/` (parsing only) and `rules/` (one module per
rule): go/analysis's shared passes, ruff's `ruff_python_semantic`.
"""
