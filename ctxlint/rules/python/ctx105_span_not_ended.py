"""CTX105 span-not-ended: an OpenTelemetry span from `start_span()` that nobody ends."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python import owners
from ctxlint.semantic.python.cleanup import cannot_raise, following_statements, is_contextmanager, yields
from ctxlint.semantic.python.values import module_values


class SpanNotEnded(Rule):
    code = "CTX105"
    name = "span-not-ended"
    summary = ("Tracer.start_span() whose span is not used in `with`, not ended on every path, "
               "nor handed to an owner that ends it.")
    tokens = ("start_span",)
    doc = """\
## What it does
Flags OpenTelemetry `Tracer.start_span(...)` whose span is thrown away, never
`.end()`ed, ended only after an early `return` can skip it, ended only on the normal
path after the operation it times can leave by an exception (a `raise`, or a call or
`await` whose result the function still reads once the span is ended: `resp =
client.post(...)` ... `span.end()`; `return resp`), neither in `finally` nor in a
handler of a `try` around that operation (a span given `start_time=` records a past
interval and times nothing; calls on the span do not count), ended after a `yield` of a plain generator (a consumer
that stops early, `break`/`close()`/a client disconnect, closes the generator at the
`yield`; a `@contextmanager`'s cleanup after `yield` is CTX106's), replaced by a new span
before it is ended, stored on `self` without the class ending it, or handed to a
class of this module that does not end it on its close paths (an iterator wrapper
that ends it only when the stream is exhausted: `break`, `close()` or a with-exit
never end it). The receiver must hold an OpenTelemetry tracer (`trace.get_tracer()`,
a `Tracer` annotation, a binding also used for `start_as_current_span`), or the call
must pass OpenTelemetry values (`kind=SpanKind.CLIENT`) or hand the span to an
OpenTelemetry API; any other object's `start_span` (a class of this module, an
unknown receiver) is not a tracer. Not flagged: `with tracer.start_span(...)`,
`with span:`, `trace.use_span(span, end_on_exit=True)`, `.end()` in `finally`, a span
returned, kept in a container, or handed to code outside the module or to a class
that ends it on every close path. A span put in a plain record of this module (a class
with no close path of its own, e.g. `_Carrier(span=span)`) is followed with the record:
kept in a container on `self` that a method of the class takes back out and ends
(litellm's OTel logger: `self._open_llm_calls[id] = carrier` ... `carrier.span.end()`
in `_finish_carrier`) is handed to an owner; a record no method ends is reported.

Not checked: the project's own test modules (`test_*.py`, `*_test.py`, `conftest.py`,
pytest's collection names: `PythonFacts.is_test_module`): a test that starts a span to
feed a processor or exporter and never ends it (posthog's OTel processor tests) leaks one
span for one test. A testing utility the package ships for its users is still checked.

## Why is this bad
`start_span` (unlike `start_as_current_span` in a `with`) leaves ending to the
caller. An un-ended span is never exported, its attributes and events stay in
memory in the span processor, and the trace shows a request that never finished.

## Example
```python
def route(self, req):
    span = tracer.start_span("route")
    if not req.model:
        return None           # span never ended
    out = self._pick(req)
    span.end()
    return out
```

## Use instead
```python
def route(self, req):
    with tracer.start_as_current_span("route"):
        if not req.model:
            return None
        return self._pick(req)
```

## Fix safety
No automatic fix: where to end the span is a design decision.

## Source
OpenTelemetry Python API docs (`Tracer.start_span`: "the span must be ended");
aws/aws-durable-execution-sdk-python#643; openlit/openlit#1454 (a streaming span
ended only on `StopIteration`).
"""

    def check(self, facts):
        if facts.is_test_module:
            return  # the project's own tests: an un-ended span lives for one test
        values = module_values(facts)
        for call in facts.nodes(ast.Call):
            f = call.func
            if not (isinstance(f, ast.Attribute) and f.attr == "start_span"):
                continue
            fn = facts.enclosing_function(call)
            if fn is None or not values.is_otel_span_start(call):
                continue
            msg = _problem(facts, call, fn)
            if msg:
                yield facts.finding(self, call, msg)


def _owner_msg(h: owners.Handoff) -> str | None:
    name = getattr(h.owner, "name", "?")
    if h.kind == owners.EXHAUSTION_ONLY:
        line = f" (line {h.release.lineno})" if h.release is not None else ""
        return (f"span is handed to `{name}`, which ends it only when iterated to the end{line}: "
                "`break`, `close()` or leaving a `with` block never end it")
    if h.kind == owners.NOT_RELEASED:
        return f"span is handed to `{name}`, which keeps it but never ends it"
    return None


def _problem(facts, call: ast.Call, fn) -> str | None:
    values = module_values(facts)
    parent = facts.parents.get(call)
    if isinstance(parent, ast.withitem):
        return None
    if isinstance(parent, ast.Expr):
        return "span from `start_span()` is discarded and never ended"
    if isinstance(parent, ast.Call):
        pname = parent.func.attr if isinstance(parent.func, ast.Attribute) else getattr(parent.func, "id", "")
        if pname == "use_span" and not owners.use_span_ends(parent):
            return "span is made current with `use_span()` without `end_on_exit=True` and never ended"
        if pname == "set_span_in_context":
            return "span is put in a context but nothing keeps it to end it"
        if call in parent.args or any(k.value is call for k in parent.keywords):
            return _owner_msg(owners.handoff(facts, parent, call, owners.end_release))
        return None
    if not (isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is call):
        return None
    targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
    if len(targets) != 1:
        return None
    t = targets[0]
    b = values.binding(t)
    if isinstance(t, ast.Attribute):
        cls = facts.enclosing_class(call)
        if b is None or b[0] != "attr" or cls is None:
            return None  # another object's attribute: its owner's
        entry = (*owners.EXIT_METHODS, "close", "aclose", "__del__") if owners.enter_exit_of(facts, fn) else None
        kind, rel = owners.class_releases_attrs(facts, cls, {b}, owners.end_release, entry=entry)
        if kind == owners.RELEASED:
            return None
        d = facts.dotted(t) or t.attr
        if kind == owners.EXHAUSTION_ONLY:
            return (f"span stored on `{d}` is ended only when `{cls.name}` is iterated to the end "
                    f"(line {rel.lineno}): an early exit never ends it")
        if entry is not None:
            other_kind, other = owners.class_releases_attrs(facts, cls, {b}, owners.end_release)
            m = facts.enclosing_function(other) if other is not None and other_kind == owners.RELEASED else None
            if m is not None:
                return (f"span stored on `{d}` is ended only by `{cls.name}.{m.name}()` (line {other.lineno}), "
                        "which the `with` exit (`__exit__`/`close`) does not run: a `with` block leaves it open")
        return f"span stored on `{d}` is never ended by any method of `{cls.name}`"
    if not isinstance(t, ast.Name) or b is None:
        return None
    name = t.id
    keys = owners.refs(values, fn, b)
    ends = [n for n in facts.walk(fn, into_defs=True)
            if isinstance(n, ast.Call) and any(owners.reads(values, e, keys) for e in owners.end_release(n))]
    fate = _escape(facts, fn, keys, skip=parent)
    if fate == "escaped":
        return None
    if isinstance(fate, str):
        return fate
    if not ends:
        return f"span `{name}` from `start_span()` is never ended"
    if any(owners.protected(facts, e, fn) for e in ends):
        return None
    start = owners.pos(call)
    # replaced before ended: another assignment to the same variable with no end between
    for n in facts.walk(fn):
        if (isinstance(n, ast.Assign) and n is not parent
                and any(isinstance(x, ast.Name) and values.binding(x) == b for x in n.targets)
                and owners.pos(n) > start and not any(start < owners.pos(e) < owners.pos(n) for e in ends)):
            return f"span `{name}` is replaced (line {n.lineno}) before it is ended"
    first_end = min(owners.pos(e) for e in ends)
    for n in facts.walk(fn):
        if isinstance(n, ast.Return) and start < owners.pos(n) < first_end:
            return f"span `{name}` is not ended on the early return at line {n.lineno}"
    last_end = max(ends, key=owners.pos)
    if not is_contextmanager(facts, fn):  # a `@contextmanager`'s cleanup after `yield` is CTX106's
        for y in yields(facts, fn):
            if start < owners.pos(y) < owners.pos(last_end):
                return (f"span `{name}` is ended only after the generator's `yield` (line {y.lineno}), "
                        f"not in `finally` (line {last_end.lineno}): a consumer that stops early "
                        "(`break`, `close()`, a client disconnect) or an error in the stream closes the "
                        "generator at the `yield` and the span is never ended")
    # a span given its own `start_time=` records an interval that already happened
    # (OpenTelemetry API: the start defaults to now); no operation runs inside it
    post_hoc = any(k.arg == "start_time" for k in call.keywords)
    risky = None if post_hoc else _raises_before_end(facts, values, parent, fn, keys, first_end)
    if risky is not None:
        return (f"span `{name}` is ended only on the normal path (line {min(ends, key=owners.pos).lineno}): "
                f"when {_what(risky)}, the span is never ended "
                "(end it in `finally`, or use `start_as_current_span` in `with`)")
    return None


def _raises_before_end(facts, values, assign: ast.stmt, fn, keys: set, first_end) -> ast.AST | None:
    """The operation the span times that can leave the function before the span is
    ended: the first `raise`, or call or `await` whose result is bound to a local the
    function still reads once the span is ended (`resp = client.post(...)` ...
    `span.end()`; `return resp`), that runs after the span is started and before the
    statement that ends it, on the normal path, outside a `try` that ends the span in
    one of its handlers; None when there is none.

    A span started to record something that already happened (`start_time=` given,
    checked by the caller; attributes copied in from a dict, a helper given the span, a
    log line: no result read later) does not
    time any operation: a failure while filling it in is not the path this looks for.
    Calls on the span itself and calls that cannot raise (`cleanup.cannot_raise`) never
    count. A statement that holds an end (a `try` ending the span in its body and its
    handler, an `if` ending it on one branch) stops the search: what runs inside it is
    judged by its own shape (the early-return test), not here."""
    later_reads = None
    for stmt in following_statements(facts, assign, fn):
        if any(isinstance(n, ast.Call) and any(owners.reads(values, e, keys) for e in owners.end_release(n))
               for n in facts.walk(stmt, into_defs=True)):
            return None  # holds an end (a `try` ending it in a handler too): judged by its own shape
        if cannot_raise(facts, [stmt]):
            continue
        for n in facts.walk(stmt):
            if isinstance(n, ast.Raise):
                return n
            if not isinstance(n, (ast.Call, ast.Await)) or (isinstance(n, ast.Call) and _span_or_otel_call(facts, values, n, keys)):
                continue
            bound = facts.enclosing_statement(n)
            if not isinstance(bound, (ast.Assign, ast.AnnAssign)) or bound.value is None:
                continue
            targets = bound.targets if isinstance(bound, ast.Assign) else [bound.target]
            names = {t.id for tg in targets for t in ast.walk(tg) if isinstance(t, ast.Name)}
            if not names:
                continue
            if later_reads is None:
                later_reads = {x.id for x in facts.walk(fn, into_defs=True)
                               if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load) and owners.pos(x) >= first_end}
            if names & later_reads:
                return n
    return None


def _span_or_otel_call(facts, values, call: ast.Call, keys: set) -> bool:
    """A method call on the span (`span.set_attribute`, `span.add_event`), or an
    OpenTelemetry API call (`trace.set_span_in_context`): neither raises."""
    f = call.func
    if isinstance(f, ast.Attribute) and owners.reads(values, f.value, keys) and not isinstance(f.value, ast.Call):
        return True
    return (facts.qualname(f) or "").startswith("opentelemetry.")


def _what(node: ast.AST) -> str:
    """How the normal path is left at `node`, for the message."""
    if isinstance(node, ast.Raise):
        return f"the `raise` at line {node.lineno} runs"
    if isinstance(node, ast.Await):
        return f"the `await` at line {node.lineno} is cancelled or raises"
    seg = ast.unparse(node.func) if isinstance(node, ast.Call) else "the call"
    if len(seg) > 60:
        seg = seg[:57] + "..."
    return f"`{seg}()` (line {node.lineno}) raises"


def _escape(facts, fn, keys: set, skip) -> str | None:
    """Is the span handed to an owner ("escaped": returned, yielded, stored, `with span:`,
    passed to code that keeps or ends it), handed to a class of this module that does not
    end it (the message), or kept here (None)?"""
    values = module_values(facts)
    problem = None
    for n in facts.walk(fn, into_defs=True):
        if not (isinstance(n, (ast.Name, ast.Attribute)) and isinstance(n.ctx, ast.Load)
                and values.binding(n) in keys):
            continue
        p = owners.call_of_arg(facts, n)
        if isinstance(p, ast.withitem) and p.context_expr is n:
            return "escaped"
        if isinstance(p, (ast.Return, ast.Yield, ast.YieldFrom)):
            return "escaped"
        if isinstance(p, ast.Call) and (n in p.args or any(k.value is n for k in p.keywords)):
            if owners.end_release(p):
                continue  # use_span(span, end_on_exit=True): an end, counted by the caller
            pname = p.func.attr if isinstance(p.func, ast.Attribute) else getattr(p.func, "id", "")
            if pname == "use_span":
                continue
            h = owners.handoff(facts, p, n, owners.end_release)
            if h.kind in (owners.ESCAPED, owners.RELEASED):
                return "escaped"
            problem = problem or _owner_msg(h)
            continue
        if isinstance(p, (ast.Assign, ast.AnnAssign)) and p is not skip and p.value is n:
            tg = p.targets if isinstance(p, ast.Assign) else [p.target]
            if any(not isinstance(x, ast.Name) for x in tg):
                return "escaped"
        if isinstance(p, (ast.List, ast.Tuple, ast.Dict, ast.Set)):
            return "escaped"
    return problem
