"""`python -m ctxlint.rules --write-manifest`: regenerate the rule manifest (`ctxlint.rules.manifest_main`)."""

import sys

from ctxlint.rules import manifest_main

sys.exit(manifest_main())
