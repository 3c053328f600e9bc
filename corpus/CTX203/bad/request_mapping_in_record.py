# expect: 20 CTX203
# expect: 21 CTX203
# expect: 32 CTX203
"""Near misses of a record of request data: the record holds the request's
`headers`/`args` mappings or the request object itself, objects of the request,
next to plain values read out of it."""
import time

from flask import Flask, request
from starlette.requests import Request

app = Flask(__name__)
_seen = {}
_raw_args = []


@app.route("/track")
def track():
    pid = request.args.get("pid", type=int)
    _seen[pid] = {"pid": pid, "headers": request.headers, "at": time.time()}
    _raw_args.append(request.args)
    return "ok"


_pending: dict[str, list] = {}


async def remember(req: Request) -> None:
    user = req.headers.get("x-user")
    body = await req.json()
    if body.get("defer"):
        _pending[req.headers["x-id"]] = [user, body["model"], req]
