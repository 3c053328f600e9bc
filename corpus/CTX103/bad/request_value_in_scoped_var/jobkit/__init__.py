# expect: none
"""A job runner package (see context.py and runner.py)."""
