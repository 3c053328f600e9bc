# expect: none
"""Import watchers: run callbacks when a module (or a source file) is imported."""
