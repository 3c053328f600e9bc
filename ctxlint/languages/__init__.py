"""Languages: python (ast), go (tree-sitter), jinja (jinja2 parser)."""
