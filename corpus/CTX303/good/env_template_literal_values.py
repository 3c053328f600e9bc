# expect: none
"""An operator-set URL template filled with the author's literal only: a field like
`{0.__class__.__init__}` can reach nothing but str's builtin methods."""
import os

import httpx


def guard_url() -> str:
    template = os.environ.get("GUARD_BASE_URL_TEMPLATE", "https://{service}.example.com/v1")
    return template.format(service="ai-guard")


async def check(text: str) -> dict:
    async with httpx.AsyncClient() as client:
        resp = await client.post(guard_url(), json={"text": text})
        return resp.json()
