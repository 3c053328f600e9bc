"""`ctxlint template-probe FILE`: render a template in jinja2's sandbox and report
every SecurityError it raises.

Every variable the template reads is given a permissive stand-in value, so the
template renders far enough for `ImmutableSandboxedEnvironment` to see each
attribute walk and call it makes. Each unsafe expression is reported once, at its
template line, in the template's own terms (the variable it walks from), never
with the probe's internal types.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from ctxlint.languages.jinja import known_extensions


class StandIn:
    """A permissive stand-in value for an undeclared template variable.

    Supports attribute and item access, calls, iteration (two stand-ins), `len`,
    arithmetic and string concatenation, so that a template renders far enough for
    the sandbox to see every attribute and call it makes. Names starting with `_`
    raise AttributeError (so the sandbox's own checks, not this class, decide).
    """

    unsafe_callable = False
    alters_data = False

    def __init__(self, name: str, depth: int = 0):
        self._name = name
        self._depth = depth

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise AttributeError(attr)
        return StandIn(f"{self._name}.{attr}", self._depth + 1)

    def __getitem__(self, key):
        return StandIn(f"{self._name}[{key!r}]", self._depth + 1)

    def __call__(self, *a, **k):
        return StandIn(f"{self._name}()", self._depth + 1)

    def __iter__(self):
        if self._depth > 3:
            return iter(())
        return iter([StandIn(f"{self._name}[0]", self._depth + 1), StandIn(f"{self._name}[1]", self._depth + 1)])

    def __len__(self):
        return 2

    def __bool__(self):
        return True

    def __str__(self):
        return f"<{self._name}>"

    __repr__ = __str__

    def __add__(self, other):
        return str(self) + str(other)

    def __radd__(self, other):
        return str(other) + str(self)

    def __contains__(self, item):
        return False

    def __int__(self):
        return 1

    def __float__(self):
        return 1.0

    def __lt__(self, other):
        return False

    __gt__ = __le__ = __ge__ = __lt__

    def __sub__(self, other):
        return 1

    __mul__ = __rmul__ = __rsub__ = __mod__ = __truediv__ = __floordiv__ = __sub__

    def keys(self):
        return []

    def items(self):
        return []


class _Refused(StandIn):
    """What the probe hands back for an access the sandbox refused: a further walk from
    it is part of the same, already reported, expression."""


def _describe(name: str) -> str:
    """How a stand-in's path reads in a report: `doc`, `x.y`, or "an item of `messages`"
    (both stand-ins a loop gets describe the loop's one expression)."""
    name = re.sub(r"\[\d+\]", "[…]", name)
    if name.endswith("[…]"):
        return f"an item of `{name[:-3]}`"
    return f"`{name}`"


def probe(text: str, name: str = "<template>", on_error=None) -> tuple[list[dict], list[str]]:
    """Render `text` in jinja2's ImmutableSandboxedEnvironment with stand-ins for every
    undeclared variable; collect every SecurityError the sandbox raises.

    The sandbox raises at the use of an unsafe attribute, an unsafe call, or an unsafe
    format string; the probe records each (with the template line) and lets rendering go
    on, rendering twice (stand-ins truthy, then a falsy variant of each top-level test)
    to cover both branches of `{% if %}`.

    `on_error`, when given, is called with each error as it is found (`probe_bounded`
    streams them, so that a render stopped at a limit keeps what it found).

    Unbounded: a template can run for hours or allocate without end
    (`{{ "x" * 3000000000 }}`); `probe_main` uses `probe_bounded`.

    Returns:
        (security errors as {"line", "message"}, other notes such as render errors).
    Raises:
        jinja2.TemplateSyntaxError: the template does not parse.
    """
    import jinja2
    from jinja2 import meta
    from jinja2.exceptions import SecurityError
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    errors: list[dict] = []
    notes: list[str] = []

    def here() -> int:
        f = sys._getframe(1)
        while f is not None:
            tmpl = f.f_globals.get("__jinja_template__")
            if tmpl is not None:
                try:
                    return tmpl.get_corresponding_lineno(f.f_lineno)
                except Exception:
                    return 0
            f = f.f_back
        return 0

    seen: set[tuple] = set()      # (line, attribute, variable) reported
    seen_attr: set[tuple] = set()  # (line, attribute) reported in the first pass
    state = {"variant": "truthy"}

    def record(exc: Exception, obj=None, attribute: str | None = None) -> None:
        line = here()
        if isinstance(obj, _Refused):
            return  # `doc.__class__.__mro__`: one expression, reported at `__class__`
        if attribute is not None:
            if state["variant"] != "truthy" and (line, attribute) in seen_attr:
                return  # the same expression, met again with the falsy values
            who = _describe(obj._name) if isinstance(obj, StandIn) else None
            key = (line, attribute, who if who is not None else type(obj).__name__)
            if key in seen:
                return
            seen.add(key)
            seen_attr.add((line, attribute))
            message = (f"access to attribute {attribute!r} of {who} is unsafe" if who is not None
                       else str(exc))
        else:
            message = str(exc)
            if (line, message) in seen:
                return
            seen.add((line, message))
        errors.append({"line": line, "message": message})
        if on_error is not None:
            on_error(errors[-1])

    class ProbeEnvironment(ImmutableSandboxedEnvironment):
        def unsafe_undefined(self, obj, attribute):
            u = super().unsafe_undefined(obj, attribute)
            try:
                # The sandbox hands back an Undefined that raises SecurityError on use
                # (printing it gives ""): raise it now so that it is seen.
                u._fail_with_undefined_error()
            except SecurityError as exc:
                record(exc, obj, attribute)
            return _Refused(f"{getattr(obj, '_name', '?')}.{attribute}")

        def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - jinja2's signature
            try:
                return super().call(__context, __obj, *args, **kwargs)
            except SecurityError as exc:
                record(exc)
                return StandIn("unsafe-call")

    env = ProbeEnvironment(extensions=known_extensions())
    tree = env.parse(text)
    names = sorted(meta.find_undeclared_variables(tree))
    tmpl = env.from_string(text)
    for variant in ("truthy", "falsy"):
        state["variant"] = variant
        ctx = {n: StandIn(n) for n in names}
        if variant == "falsy":
            ctx = {n: "" for n in names}
        try:
            tmpl.render(**ctx)
        except SecurityError as exc:
            record(exc)
        except (jinja2.TemplateError, TypeError, ValueError, AttributeError, KeyError, IndexError,
                ZeroDivisionError, OverflowError, RecursionError) as exc:
            notes.append(f"render ({variant} stand-ins) stopped: {type(exc).__name__}: {exc}")
    return errors, notes


#: Wall-clock seconds a probe's render may take (`probe_bounded`).
PROBE_SECONDS = 10.0
#: Address space (bytes) a probe's render may add to what the probe process starts with.
PROBE_MEMORY_BYTES = 1024 * 2**20


def probe_bounded(text: str, name: str = "<template>", seconds: float = PROBE_SECONDS,
                  memory: int = PROBE_MEMORY_BYTES) -> tuple[list[dict], list[str], str | None]:
    """`probe` in a child process with a time and a memory limit.

    The child (`python -m ctxlint.template_probe`, a fresh interpreter: no fork of a
    threaded parent) lowers its own RLIMIT_AS to its size plus `memory` and its
    RLIMIT_CPU to `seconds` + 1, then renders and writes each SecurityError as a
    JSON line as it is found. The parent kills it after `seconds` of wall-clock
    time. A template that multiplies a string by 3,000,000,000 or nests two
    `range(99999)` loops stops at a limit with what it found so far.

    Returns:
        (errors, notes, limit): `limit` is None when the render finished, else
        what stopped it ("time: 10 s", "memory: 1024 MiB").
    Raises:
        jinja2.TemplateSyntaxError: the template does not parse (checked here first).
    """
    import json
    import subprocess

    from ctxlint.languages.jinja import known_extensions
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    ImmutableSandboxedEnvironment(extensions=known_extensions()).parse(text)  # raises TemplateSyntaxError

    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    job = json.dumps({"text": text, "name": name, "seconds": seconds, "memory": memory})
    proc = subprocess.Popen([sys.executable, "-m", "ctxlint.template_probe"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    limit = None
    try:
        out, _ = proc.communicate(job.encode("utf-8", "surrogatepass"), timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        limit = f"time: {seconds:g} s"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    errors: list[dict] = []
    notes: list[str] = []
    done = False
    for line in out.decode("utf-8", "replace").splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if "error" in msg:
            errors.append(msg["error"])
        elif "notes" in msg:
            notes.extend(msg["notes"])
            done = True
        elif msg.get("limit") and limit is None:
            limit = msg["limit"]
    if limit is None and not done:
        code = proc.returncode
        import signal
        if code is not None and code < 0 and -code in (signal.SIGXCPU, signal.SIGKILL):
            limit = f"time: {seconds:g} s of CPU"
        else:
            limit = f"memory: {memory // 2**20} MiB" if code in (None, 0, 1) else f"the probe process ended ({code})"
    return errors, notes, limit


def _child() -> int:
    """The child of `probe_bounded`: read the job from stdin, set the limits, probe,
    write JSON lines ({"error": ...} each, then {"notes": [...]} or {"limit": ...})."""
    import json
    import jinja2  # noqa: F401 - imported before the limit is set

    job = json.loads(sys.stdin.buffer.read().decode("utf-8", "surrogatepass"))
    out = sys.stdout

    def emit(obj) -> None:
        out.write(json.dumps(obj) + "\n")
        out.flush()
    try:
        import resource
        from ctxlint.engine import _vm_size
        size = _vm_size()
        if size is not None:
            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            want = size + int(job["memory"])
            if hard != resource.RLIM_INFINITY:
                want = min(want, hard)
            resource.setrlimit(resource.RLIMIT_AS, (want, hard))
        cpu = int(job["seconds"]) + 1
        soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        if hard == resource.RLIM_INFINITY or hard >= cpu:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard))
    except (ImportError, ValueError, OSError):
        pass  # no resource module: the parent's wall-clock limit still holds
    reserve = bytearray(1 << 20)  # freed on MemoryError, so that the report can be written
    try:
        _, notes = probe(job["text"], job["name"], on_error=lambda e: emit({"error": e}))
    except MemoryError:
        del reserve
        emit({"limit": f"memory: {int(job['memory']) // 2**20} MiB"})
        return 0
    emit({"notes": notes})
    return 0


def probe_main(args) -> int:
    """`ctxlint template-probe FILE [--json]`: exit 1 when the sandbox raised a SecurityError,
    0 when the template renders clean, 2 when it cannot be read or parsed or its render
    reached the time or memory limit (`probe_bounded`) without an error."""
    import json

    import jinja2
    path = Path(args.file)
    try:
        text, err = __import__("ctxlint.engine", fromlist=["decode"]).decode(path.read_bytes(), "jinja", args.file)
    except OSError as exc:
        sys.stderr.write(f"ctxlint: error: cannot read {args.file}: {exc.strerror or exc}\n")
        return 2
    if text is None:
        sys.stderr.write(f"ctxlint: error: {err.message}\n")
        return 2
    try:
        errors, notes, limit = probe_bounded(text, args.file)
    except jinja2.TemplateSyntaxError as exc:
        sys.stderr.write(f"ctxlint: error: {args.file}:{exc.lineno}: cannot parse Jinja template: {exc.message}\n")
        return 2
    if limit is not None:
        notes.append(f"render stopped: limit reached ({limit}); what it reached before is reported")
    if getattr(args, "json", False):
        print(json.dumps({"path": args.file, "security_errors": [{"path": args.file, **e} for e in errors],
                          "notes": notes, "limit_reached": limit}, indent=2))
    else:
        for e in errors:
            print(f"{args.file}:{e['line']}: SecurityError: {e['message']}")
        for n in notes:
            sys.stderr.write(f"ctxlint: {args.file}: {n}\n")
        if errors:
            print(f"{len(errors)} SecurityError{'s' if len(errors) != 1 else ''} in the sandbox"
                  + (f" before the limit was reached ({limit})" if limit else ""))
        else:
            print(f"limit reached ({limit}): the render did not finish" if limit
                  else "renders clean in ImmutableSandboxedEnvironment")
    # A render stopped at a limit is not "clean": exit 2 (could not finish) unless it found errors.
    return 1 if errors else (2 if limit else 0)


if __name__ == "__main__":  # the child of `probe_bounded`
    raise SystemExit(_child())
