# expect: none
"""A WSGI shop API (see state.py, middleware.py)."""
