"""`python -m ctxlint` entry point."""
import sys

from ctxlint.cli import main

sys.exit(main())
