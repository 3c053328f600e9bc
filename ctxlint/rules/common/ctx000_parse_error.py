"""CTX000 parse-error: a file that cannot be decoded or parsed (emitted by the languages)."""

from __future__ import annotations

from ctxlint.rules import Rule


class ParseError(Rule):
    code = "CTX000"
    name = "parse-error"
    language = "any"
    summary = "A file that cannot be decoded or parsed."
    doc = """\
## What it does
Reports a file ctxlint could not decode (not UTF-8, binary) or parse (a syntax
error in Python, tree-sitter ERROR nodes in Go, a Jinja2 TemplateSyntaxError),
at the location the parser gives.

Python is parsed with the grammar of the interpreter ctxlint runs on. A file that
grammar rejects but a newer Python's accepts (PEP 695 `type` statements and type
parameters, PEP 701 f-strings; judged by libcst's parser) is valid code, so it is
no finding: the run prints a notice that the file was not analysed and how to
lint it (run ctxlint on that Python). Nor is a `.py` file that Python rejects at a
line of Jinja template syntax (`{{cookiecutter.slug}}`, `{% if %}`, a `# % block` line
statement; within the three lines before the error): it is the template a project
generator (cookiecutter, copier) renders into Python, and the run prints a notice that
it was not analysed. A syntax error with no template syntax near it is still reported.

## Why is this bad
A file that does not parse is not analysed at all: every other rule is silent on
it, so a leak in it would go unnoticed.

## Example
```python
def handler(request:
    ...
```

## Use instead
Fix the syntax error, or exclude the file (`exclude` in `[tool.ctxlint]`).

## Fix safety
No fix.

## Source
ruff's E999 / syntax-error diagnostics.
"""

    def check(self, facts):
        return ()
