"""CTX105 / CTX108 / CTX110: resources held across a point where the caller can stop.

- CTX105: a span ended after a generator's `yield` (a consumer that stops early closes
  the generator there), or ended only on the normal path while a call before the end
  can raise;
- CTX108: an instance container that one `async def` uses as a registry of its own
  calls (inserts under its key, removes the same key itself later) is long-lived for
  that call: an `await` before the `try` whose `finally` removes it is unprotected;
- CTX110: a slot passed to the engine while the stream still holds it is used, not
  handed on, when the stream releases it itself; an `acquire` is a held resource
  where the same stream releases it (with or without arguments).

Each bad shape is paired with its nearest correct twin.
"""
from __future__ import annotations

import textwrap

from ctxlint.config import Config
from ctxlint.engine import lint_text
from ctxlint.rules import get_rule


def found(src: str, code: str) -> set[int]:
    return {f.line for f in lint_text("t.py", textwrap.dedent(src), "python", [get_rule(code)], Config())}


# ----------------------------------------------------------------------- CTX105
GEN = """
from opentelemetry import trace
tracer = trace.get_tracer(__name__)

def relay(source):
    sp = tracer.start_span("relay")
    for item in source:
        yield item
    sp.end()
"""


def test_span_ended_after_generator_loop_is_flagged():
    assert found(GEN, "CTX105") == {6}


def test_span_ended_in_finally_of_generator_is_fine():
    src = GEN.replace("    for item in source:\n        yield item\n    sp.end()\n",
                      "    try:\n        for item in source:\n            yield item\n    finally:\n        sp.end()\n")
    assert found(src, "CTX105") == set()


def test_contextmanager_generator_is_left_to_ctx106():
    src = GEN.replace("def relay", "import contextlib\n\n@contextlib.contextmanager\ndef relay")
    assert found(src, "CTX105") == set()


def test_yielded_span_is_handed_on():
    src = GEN.replace("yield item", "yield sp")
    assert found(src, "CTX105") == set()


CALL = """
from opentelemetry import trace
tracer = trace.get_tracer(__name__)

def fetch(client, url):
    sp = tracer.start_span("fetch")
    sp.set_attribute("url.len", len(url))
    body = client.get(url)
    sp.end()
    return body
"""


def test_span_skipped_when_call_raises_is_flagged():
    (f,) = lint_text("t.py", textwrap.dedent(CALL), "python", [get_rule("CTX105")], Config())
    assert f.line == 6 and "`client.get()` (line 8) raises" in f.message


def test_span_methods_and_no_raise_statements_do_not_count():
    src = CALL.replace("    body = client.get(url)\n", "    body = url\n")
    assert found(src, "CTX105") == set()


def test_handler_that_ends_the_span_covers_the_call():
    src = CALL.replace("    body = client.get(url)\n",
                       "    try:\n        body = client.get(url)\n"
                       "    except Exception:\n        sp.end()\n        raise\n")
    assert found(src, "CTX105") == set()


def test_await_before_end_is_a_way_out():
    src = (CALL.replace("def fetch", "async def fetch")
           .replace("body = client.get(url)", "body = await client.get(url)"))
    (f,) = lint_text("t.py", textwrap.dedent(src), "python", [get_rule("CTX105")], Config())
    assert "`await` at line 8 is cancelled or raises" in f.message


# ----------------------------------------------------------------------- CTX108
REG = """
import asyncio

class Frontend:
    def __init__(self, core):
        self.core = core
        self.outs = {}

    async def run(self, k, payload):
        q = asyncio.Queue()
        self.outs[k] = q
        await self.core.submit(k, payload)
        try:
            while True:
                yield await q.get()
        finally:
            self.outs.pop(k, None)
"""


def test_await_before_the_removing_try_is_flagged():
    # no name in the file says "request": the key is the call's own because the call removes it
    assert found(REG, "CTX108") == {11}


#: REG with the hand-off moved inside the `try` whose `finally` removes the entry.
REG_GUARDED = REG.replace("        await self.core.submit(k, payload)\n        try:\n",
                          "        try:\n            await self.core.submit(k, payload)\n")


def test_await_inside_the_removing_try_is_fine():
    assert found(REG_GUARDED, "CTX108") == set()


def test_entry_not_removed_by_its_call_is_not_a_call_registry():
    # inserted under a per-call key, never removed by that call, no other method removes
    src = REG.replace("            self.outs.pop(k, None)\n", "            pass\n")
    assert found(src, "CTX108") == set()


# ----------------------------------------------------------------------- CTX110
STREAM = """
from fastapi import FastAPI
from fastapi.responses import StreamingResponse

app = FastAPI()

async def events(pool, engine, prompt):
    lease = await pool.acquire()
    async for tok in engine.generate(prompt, lease=lease):
        yield tok
    pool.release(lease)

@app.post("/s")
async def s(body: dict):
    return StreamingResponse(events(app.state.pool, app.state.engine, body["p"]))
"""


def test_slot_passed_to_the_engine_and_released_after_loop_is_flagged():
    assert found(STREAM, "CTX110") == {8}


def test_slot_released_in_finally_is_fine():
    src = STREAM.replace("    async for tok in engine.generate(prompt, lease=lease):\n        yield tok\n"
                         "    pool.release(lease)\n",
                         "    try:\n        async for tok in engine.generate(prompt, lease=lease):\n"
                         "            yield tok\n    finally:\n        pool.release(lease)\n")
    assert found(src, "CTX110") == set()


def test_slot_stored_elsewhere_is_handed_on():
    src = STREAM.replace("    async for tok", "    app.state.current_lease = lease\n    async for tok")
    assert found(src, "CTX110") == set()


#: STREAM with a slot acquired by argument (`await pool.acquire(prompt)`), no value kept.
ACQUIRE_BY_ARG = (STREAM.replace("lease = await pool.acquire()", "await pool.acquire(prompt)")
                  .replace("lease=lease", "lease=None"))


def test_acquire_with_arguments_released_by_receiver():
    src = ACQUIRE_BY_ARG.replace("pool.release(lease)", "pool.release(prompt)")
    assert found(src, "CTX110") == {8}


def test_acquire_nothing_releases_is_not_held():
    src = ACQUIRE_BY_ARG.replace("    pool.release(lease)\n", "")
    assert found(src, "CTX110") == set()


def test_recording_span_that_times_nothing_is_fine():
    # attributes filled in from a helper and a log line: no result read after the end
    src = CALL.replace("    body = client.get(url)\n", "    extra = client.describe(url)\n    sp.set_attribute('d', extra)\n")
    assert found(src, "CTX105") == set()


def test_span_with_explicit_start_time_is_not_judged_on_exceptions():
    src = CALL.replace('tracer.start_span("fetch")', 'tracer.start_span("fetch", start_time=0)')
    assert found(src, "CTX105") == set()


def test_await_in_the_cleanup_block_before_removal_is_not_the_window():
    src = REG_GUARDED.replace("        finally:\n            self.outs.pop(k, None)\n",
                              "        finally:\n            await self.core.abort(k)\n            self.outs.pop(k, None)\n")
    assert found(src, "CTX108") == set()
