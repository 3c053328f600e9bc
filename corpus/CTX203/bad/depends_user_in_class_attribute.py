# expect: 19 CTX203
"""Audit helper that remembers the user of the last request on the class."""
from fastapi import Depends, FastAPI

app = FastAPI()


def current_user() -> dict:
    return {"id": "u1"}


class Audit:
    last_user = None


@app.get("/me")
async def me(user: dict = Depends(current_user)) -> dict:
    # visible to every later request, whoever makes it
    Audit.last_user = user
    return {"ok": True}
