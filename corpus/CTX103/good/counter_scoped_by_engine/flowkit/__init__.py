# expect: none
"""A small step-graph package (see signals.py and engine.py)."""
