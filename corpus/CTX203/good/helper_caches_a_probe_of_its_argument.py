# expect: none
"""The helper caches a boolean it computes once from the folder it is handed; the folder
comes from the request, the cached flag is a fact about the filesystem, not request state."""
from pathlib import Path

from fastapi import FastAPI, Request

app = FastAPI()
_CASE_INSENSITIVE: bool | None = None


def folder_is_case_insensitive(folder: Path) -> bool:
    global _CASE_INSENSITIVE
    if _CASE_INSENSITIVE is None:
        _CASE_INSENSITIVE = (folder / "PROBE").exists() == (folder / "probe").exists()
    return _CASE_INSENSITIVE


@app.post("/upload/{name}")
async def upload(request: Request, name: str):
    folder = Path("/data") / request.headers["x-tenant"] / name
    return {"case_insensitive": folder_is_case_insensitive(folder)}
