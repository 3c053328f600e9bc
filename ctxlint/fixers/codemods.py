"""Every Python codemod, registered: the libcst framework and the codemods of
`python_codemods`, plus those kept in modules of their own (`ctx110_codemod`,
`ctx407_codemod`), which register themselves in `CODEMODS` when imported. The fixer
driver and the tests import this module, so the framework never imports its plugins
(no import cycle).
"""

from __future__ import annotations

import ctxlint.fixers.ctx110_codemod  # noqa: F401  (registers its codemods)
import ctxlint.fixers.ctx407_codemod  # noqa: F401  (registers its codemod)
from ctxlint.fixers.python_codemods import *  # noqa: F401,F403
from ctxlint.fixers.python_codemods import CODEMODS, ModuleContext, Window, apply  # noqa: F401
