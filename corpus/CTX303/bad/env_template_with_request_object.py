# expect: 11 CTX303
"""The operator's template is filled with a live object: `{req.app.state.secrets}`
or `{req.__init__.__globals__}` walk from it."""
import os

from fastapi import Request


async def banner(req: Request) -> str:
    template = os.environ.get("BANNER_TEMPLATE", "Hello {req.client.host}")
    return template.format(req=req)
