"""`ctxlint sandbox TARGET`: run a KV-cache manager in a child process and report checks A-G.

The child is started with multiprocessing's "spawn" method (a fresh interpreter, no
inherited state), becomes the leader of a new session and process group
(`os.setsid`), moves to a fresh temporary working directory, lowers its own
resource limits (`resource.setrlimit`: address space on CPU, CPU seconds) and
imports TARGET (`path/to/module.py:factory`). The parent waits at most `--timeout`
seconds per target (after a start-up allowance for the interpreter and torch): a
target that hangs is killed, one that crashes the interpreter or raises is
reported as a failed run with the reason. At the end, and on a timeout, the
parent kills the child's whole process group and every other process of the run
(`_Tracker`: the child's descendants — the child is their subreaper, so a double
fork stays in its tree —, its session, and whatever carries the run's token in
its environment, which a `setsid` or `start_new_session` does not shed), so
processes the target forked (and a multiprocessing resource tracker they keep
alive) do not outlive the run nor hold the caller's pipes open. The parent never
waits through multiprocessing's sentinel (a target may close it) and stops on
SIGTERM/SIGHUP after the same clean-up, temporary directory included; the child
dies with the parent (PR_SET_PDEATHSIG) on a `kill -9`. The child reports each phase it enters
(import, build, run), so a child that dies mid-way (`os._exit` in the factory)
is reported in the phase it died in. The parent never imports torch.

What this isolates: a separate process and process group, rlimits (address space
on CPU, CPU time, no core file), a wall-clock timeout, and a temporary working
directory. What it does not: the filesystem (a target can still write any path
its user can) and the network. It is a test harness, not a security boundary.

Exit status: 0 when every check passed (a check the target has no part for is
"skip"), 1 when a check failed or the manager crashed, hung or raised while the
scenario drove it, 2 for usage and set-up errors: no such file, malformed TARGET,
a target that fails to import, a missing factory, a factory that raises or
returns no KV-cache manager, a child that cannot start (one line on stderr
names the error; `--json` still prints the report, with its "phase").
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any, Optional

#: Address-space limit of the child on CPU. Not applied with --device cuda: the CUDA
#: driver reserves far more virtual address space than it ever touches.
MEMORY_LIMIT_BYTES = 6 * 1024 ** 3

#: Seconds a fresh child may take to start (interpreter, torch import) before --timeout counts.
STARTUP_SECONDS = 120.0

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

#: What to run when torch is missing (README "Runtime sandbox").
TORCH_INSTALL_HINT = ("install the CPU build the README pins: "
                      "`pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu` "
                      "(or, from a ctxlint checkout, `pip install -e '.[runtime]'`, which takes PyPI's default "
                      "torch build, several GB with CUDA)")


def torch_missing() -> bool:
    """Is torch absent from this interpreter? Looked up without importing it."""
    import importlib.util
    try:
        return importlib.util.find_spec("torch") is None
    except (ImportError, ValueError):
        return True


def parse_target(spec: str) -> tuple[Path, str]:
    """Split "path/to/module.py:factory" (factory defaults to `make_manager`).

    Raises:
        ValueError: the path is not an existing .py file or the factory is not an identifier.
    """
    path, sep, factory = spec.rpartition(":")
    if not sep or not path or "/" in factory or factory.endswith(".py"):
        path, factory = spec, "make_manager"
    p = Path(path)
    if p.suffix != ".py" or not p.is_file():
        raise ValueError(f"no such Python file: {path}")
    if not factory.isidentifier():
        raise ValueError(f"not a factory name: {factory!r}")
    return p.resolve(), factory


def _set_limits(device: str, timeout: float) -> dict:
    limits: dict[str, Any] = {}
    try:
        import resource
    except ImportError:  # pragma: no cover - non-POSIX
        return {"note": "resource module unavailable: no limits"}
    # A crashing target must not write a core file of a torch-sized process.
    resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))
    limits["core_bytes"] = 0
    cpu = int(timeout) + 30
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard == resource.RLIM_INFINITY or hard >= cpu:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard))
        limits["cpu_seconds"] = cpu
    if device == "cpu":
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        mem = MEMORY_LIMIT_BYTES if hard == resource.RLIM_INFINITY else min(MEMORY_LIMIT_BYTES, hard)
        resource.setrlimit(resource.RLIMIT_AS, (mem, hard))
        limits["address_space_bytes"] = mem
    else:
        limits["address_space_bytes"] = None
    return limits


def _run_one(path: str, factory: str, device: str, seed: int, conn=None) -> dict:
    """Import one target in this (child) process, build it, run the scenario.

    `conn`, when given, receives {"progress": phase} as each phase starts, so the
    parent knows where a child that dies without a result died."""
    import importlib.util
    import inspect

    from ctxlint.sandbox.protocol import as_target
    from ctxlint.sandbox.scenario import check_pool, run_all

    msg: dict[str, Any] = {"status": "error", "checks": [], "phase": "import"}

    def enter(phase: str) -> None:
        msg["phase"] = phase
        if conn is not None:
            conn.send({"progress": phase})
    try:
        enter("import")
        sys.path.insert(0, str(Path(path).parent))
        spec = importlib.util.spec_from_file_location(f"_ctxlint_sandbox_target_{Path(path).stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        make = getattr(module, factory, None)
        if make is None:
            raise AttributeError(f"{Path(path).name} has no attribute {factory!r}")
        enter("build")
        try:
            params = inspect.signature(make).parameters
        except (TypeError, ValueError):
            params = {}
        takes_device = "device" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())
        target = as_target(make(device=device) if takes_device else make())
        check_pool(target)
        enter("run")
        msg["checks"] = [c.as_dict() for c in run_all(target, device, seed)]
        msg["status"] = "ok"
    except BaseException as exc:  # noqa: BLE001 - every failure of the target becomes a report
        msg["error"] = f"{type(exc).__name__}: {exc}"
        msg["traceback"] = traceback.format_exc(limit=8)
    return msg


def _child_main(jobs: list, device: str, seed: int, timeout: float, conn, workdir: str | None = None,
                token: str | None = None) -> None:
    """Entry point of the spawned child: own session, temp cwd, limits, torch, then
    progress messages and one result message per (path, factory) job."""
    # A session (and process group) of its own: the parent kills the whole group,
    # taking along whatever the target forked.
    with contextlib.suppress(OSError):
        os.setsid()
    # Every process the target starts inherits the run's token (unless it clears its
    # environment), so the parent finds it even after a setsid or a double fork.
    if token:
        os.environ[RUN_TOKEN_VAR] = token
    from ctxlint.processes import become_subreaper, die_with_parent
    die_with_parent()  # a `kill -9` of ctxlint sandbox takes the child along
    # Orphans of what the target forks (a double fork) become this process's
    # children, not init's: they stay in the tree the parent kills.
    become_subreaper()
    if workdir:
        with contextlib.suppress(OSError):
            os.chdir(workdir)
    # The target's prints must not mix with the parent's (possibly JSON) stdout.
    try:
        os.dup2(2, 1)
    except OSError:
        pass
    sys.stdout = sys.stderr
    try:
        limits = _set_limits(device, timeout * len(jobs))
        import warnings
        warnings.filterwarnings("ignore", message="Failed to initialize NumPy")
        import torch

        if device == "cuda" and not torch.cuda.is_available():
            raise RuntimeError("--device cuda: torch.cuda.is_available() is False here")
    except BaseException as exc:  # noqa: BLE001
        for _ in jobs:
            conn.send({"status": "error", "checks": [], "phase": "startup", "error": f"{type(exc).__name__}: {exc}",
                       "traceback": traceback.format_exc(limit=8)})
        conn.close()
        return
    conn.send({"ready": True})
    for path, factory in jobs:
        torch.manual_seed(seed)
        msg = _run_one(path, factory, device, seed, conn)
        msg["limits"] = limits
        conn.send(msg)
    conn.close()
    # Hold the process tree together until the parent, which has every result now,
    # kills it (`_kill_group`): exiting here would orphan what the target started.
    time.sleep(HOLD_SECONDS)


_START_LOCK = threading.Lock()

#: Environment variable carrying a run's token into the child and all it starts.
RUN_TOKEN_VAR = "CTXLINT_SANDBOX_RUN"
#: Seconds a child that sent every result waits to be killed by its parent.
HOLD_SECONDS = 60.0
#: Seconds between the parent's looks at the child's process tree while it waits.
WATCH_SECONDS = 0.25


def _proc_table() -> dict[int, tuple[int, int, int, int, str]]:
    """pid -> (ppid, process group, session, start time in ticks, state) of every
    process, from Linux's /proc (stat(5)); empty elsewhere."""
    table: dict[int, tuple[int, int, int, int, str]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                rest = fh.read().rsplit(b")", 1)[1].split()
            table[int(name)] = (int(rest[1]), int(rest[2]), int(rest[3]), int(rest[19]), rest[0].decode())
        except (OSError, ValueError, IndexError):
            continue
    return table


def _has_token(pid: int, token: str) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return f"{RUN_TOKEN_VAR}={token}".encode() in fh.read().split(b"\0")
    except OSError:
        return False


class _Tracker:
    """The processes of one sandbox run: the child, everything in its session or
    process group, its descendants, and every process carrying the run's token in
    its environment (a grandchild that called `setsid`, double-forked or was
    started with `start_new_session` keeps it). Descendants seen while the run
    goes on are remembered (pid and start time), so one that cleared its
    environment and was orphaned since is still found. Linux (/proc); elsewhere
    only the child's process group is killed.

    The idea is systemd's and Bazel's process-wrapper: a job's processes are
    tracked by what they inherit, not by their group, which a child may leave."""

    def __init__(self, child_pid: int, token: str):
        self.child, self.token = child_pid, token
        self.seen: dict[int, int] = {}  # pid -> start time
        self.me = os.getpid()

    def members(self) -> set[int]:
        """Live (not zombie) processes of the run now; updates the remembered set."""
        table = _proc_table()
        kids: dict[int, list[int]] = {}
        for pid, (ppid, *_rest) in table.items():
            kids.setdefault(ppid, []).append(pid)
        found: set[int] = set()
        todo = [self.child]
        uid = os.getuid() if hasattr(os, "getuid") else None
        for pid, (ppid, pgrp, sid, start, state) in table.items():
            if pgrp == self.child or sid == self.child:
                todo.append(pid)
            elif self.seen.get(pid) == start:
                todo.append(pid)
            elif uid is not None and pid != self.me and ppid != self.me and _owned(pid, uid) \
                    and _has_token(pid, self.token):
                todo.append(pid)
        while todo:
            pid = todo.pop()
            if pid in found or pid not in table or pid == self.me:
                continue
            found.add(pid)
            todo.extend(kids.get(pid, ()))
        live = {p for p in found if table[p][4] not in ("Z", "X")}
        for p in live:
            self.seen[p] = table[p][3]
        return live

    def kill_all(self) -> None:
        """Freeze every member (SIGSTOP: a stopped process cannot fork), look again
        until no new member appears, then SIGKILL them all; repeated until none is
        left. Killing one by one would let a process that is forking leave an
        orphan whose parent and subreaper are already gone."""
        import signal
        for _ in range(20):
            victims = self.members() - {self.me}
            if not victims:
                return
            stopped: set[int] = set()
            for _ in range(20):
                new = victims - stopped
                if not new:
                    break
                for pid in new:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGSTOP)
                stopped |= new
                time.sleep(0.005)
                victims = (self.members() - {self.me}) | stopped
            for pid in victims:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.02)


def _reap_stale_runs() -> None:
    """Remove what a `kill -9` of an earlier `ctxlint sandbox` left (its own clean-up
    never ran): temporary directories `ctxlint-sandbox-PID-*` and processes whose
    run token `PID-...` names a parent that is gone. A run whose parent lives (a
    concurrent one) is left alone. Linux (/proc) for the processes; never raises."""
    import re
    import shutil
    import signal
    import tempfile

    from ctxlint.processes import pid_alive
    base = tempfile.gettempdir()
    try:
        names = os.listdir(base)
    except OSError:
        names = []
    for name in names:
        m = re.fullmatch(r"ctxlint-sandbox-(\d+)-\w+", name)
        if m and not pid_alive(int(m.group(1))):
            shutil.rmtree(os.path.join(base, name), ignore_errors=True)
    if not hasattr(os, "getuid"):
        return
    uid, me = os.getuid(), os.getpid()
    key = f"{RUN_TOKEN_VAR}=".encode()
    for pid in _proc_table():
        if pid == me or not _owned(pid, uid):
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as fh:
                env = fh.read().split(b"\0")
        except OSError:
            continue
        for item in env:
            if item.startswith(key):
                parent = item[len(key):].split(b"-", 1)[0]
                if parent.isdigit() and not pid_alive(int(parent)):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                break


def _owned(pid: int, uid: int) -> bool:
    try:
        return os.stat(f"/proc/{pid}").st_uid == uid
    except OSError:
        return False


def _wait(proc, seconds: float, tracker: "_Tracker | None" = None) -> bool:
    """Wait up to `seconds` for the child to exit; True when it has.

    Never `proc.join`: multiprocessing waits on a sentinel pipe, and a target that
    closes its inherited file descriptors closes that pipe while it lives on —
    join then blocks in `waitpid(pid, 0)` for as long as the target runs."""
    deadline = time.monotonic() + max(seconds, 0.0)
    while proc.is_alive():  # waitpid(WNOHANG)
        if time.monotonic() >= deadline:
            return False
        if tracker is not None:
            tracker.members()
        time.sleep(0.02)
    return True


class Terminated(BaseException):
    """Raised in the parent by SIGTERM/SIGHUP while the sandbox runs (see `main`),
    so that `run_targets` kills the child's processes and removes its directory."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _main_not_reimported():
    """Keep spawn from re-running the caller's `__main__` in the child.

    multiprocessing's spawn re-imports the parent's main module in the child (to find
    pickled functions defined there). The child's entry point lives in this module, so
    that re-import is never needed — and it breaks a caller that is a script without a
    `__main__` guard, a notebook or stdin. Hide the main module's file and spec while
    the child starts; a lock keeps concurrent starts from interleaving the restore.
    """
    main = sys.modules.get("__main__")
    with _START_LOCK:
        if main is None:
            yield
            return
        missing = object()
        saved = {k: main.__dict__.get(k, missing) for k in ("__file__", "__spec__")}
        main.__dict__.pop("__file__", None)
        main.__spec__ = None
        try:
            yield
        finally:
            for k, v in saved.items():
                if v is missing:
                    main.__dict__.pop(k, None)
                else:
                    main.__dict__[k] = v


def run_targets(specs: list[str], device: str = "cpu", seed: int = 0, timeout: float = 120.0) -> list[dict]:
    """Run several targets one after another in ONE spawned child; one report per target.

    The child imports torch once (seconds) for all of them; each target still gets its
    own import, build, scenario and report, and `timeout` applies to each. A target
    that crashes or hangs the child fails, and so do the ones after it (reported as
    not run).

    Raises:
        ValueError: a malformed TARGET or missing file.
    """
    import secrets
    import tempfile
    jobs = [tuple(map(str, parse_target(s))) for s in specs]
    ctx = multiprocessing.get_context("spawn")
    recv, send = ctx.Pipe(duplex=False)
    _reap_stale_runs()
    # The parent's pid in both names: a later run can tell what a killed one left.
    workdir = tempfile.TemporaryDirectory(prefix=f"ctxlint-sandbox-{os.getpid()}-", ignore_cleanup_errors=True)
    token = f"{os.getpid()}-{secrets.token_hex(8)}"
    proc = ctx.Process(target=_child_main, args=(jobs, device, seed, timeout, send, workdir.name, token),
                       name="ctxlint-sandbox", daemon=True)
    reports = []
    t0 = time.monotonic()
    with _main_not_reimported():
        proc.start()
    send.close()
    tracker = _Tracker(proc.pid, token)
    broken: Optional[tuple[str, str]] = None
    broken_phase = "run"
    try:
        # Start-up (a fresh interpreter importing torch) has its own allowance; the
        # child says when it is ready, and --timeout then applies to each target.
        ready = _poll(recv, STARTUP_SECONDS, tracker)
        try:
            hello = recv.recv() if ready else None
        except EOFError:
            hello = None
        if hello is None:
            broken_phase = "startup"
            _wait(proc, 5 if ready else 0)
            if proc.is_alive():
                broken = ("timeout", f"child not started within {STARTUP_SECONDS:g} s; killed")
            else:
                broken = ("crash", f"child exited with status {proc.exitcode} during start-up")
        elif "ready" not in hello:  # start-up failed; the child sent one error per job
            broken = ("error", f"start-up failed: {hello.get('error')}")
            broken_phase = "startup"
        for spec in specs:
            report = {"target": spec, "device": device, "seed": seed, "status": "error", "error": None,
                      "phase": "run", "checks": [], "limits": {"timeout_seconds": timeout}}
            msg = None
            if broken is not None and not reports:
                report["status"], report["error"] = broken
                report["phase"] = broken_phase
            elif broken is not None:
                report["status"], report["error"] = "error", f"not run: the child had already failed ({broken[1]})"
            else:
                # Progress messages name the phase; the last one is the result.
                deadline = time.monotonic() + timeout
                phase = "import"
                got = False
                while True:
                    got = _poll(recv, max(0.0, deadline - time.monotonic()), tracker)
                    msg = None
                    if got:
                        try:
                            msg = recv.recv()
                        except EOFError:
                            msg = None
                    if msg is not None and "progress" in msg:
                        phase = msg["progress"]
                        continue
                    break
                report["phase"] = phase
                if msg is None:
                    if got:  # the pipe closed: the child died (or is dying), or closed its descriptors
                        _wait(proc, min(30.0, deadline - time.monotonic()), tracker)
                    if proc.is_alive():
                        broken = ("timeout", f"no result within {timeout:g} s; child killed" if not got else
                                  f"no result within {timeout:g} s (the child closed its result pipe); child killed")
                    else:
                        code = proc.exitcode
                        broken = ("crash", f"child killed by signal {-code}" if code is not None and code < 0
                                  else f"child exited with status {code} without a result")
                    report["status"], report["error"] = broken
                    _kill_group(proc, tracker)
            if msg is not None:
                report["status"] = msg.get("status", "error")
                report["error"] = msg.get("error")
                report["phase"] = msg.get("phase", "run")
                report["checks"] = msg.get("checks", [])
                report["limits"].update(msg.get("limits") or {})
                if msg.get("traceback"):
                    report["traceback"] = msg["traceback"]
            report["seconds"] = round(time.monotonic() - t0, 2)
            t0 = time.monotonic()
            report["passed"] = report["status"] == "ok" and all(c["passed"] is not False for c in report["checks"])
            reports.append(report)
    except BaseException:  # Terminated, KeyboardInterrupt: no grace period for the child
        _kill_group(proc, tracker)
        raise
    finally:
        _kill_group(proc, tracker)  # the child waits for this once it sent every result
        recv.close()
        with contextlib.suppress(OSError):
            workdir.cleanup()
    return reports


def _poll(conn, seconds: float, tracker: "_Tracker | None") -> bool:
    """`conn.poll(seconds)`, looking at the run's process tree every WATCH_SECONDS
    (`_Tracker.members` remembers descendants that may be orphaned later)."""
    deadline = time.monotonic() + max(seconds, 0.0)
    while True:
        left = deadline - time.monotonic()
        if conn.poll(max(0.0, min(left, WATCH_SECONDS))):
            return True
        if left <= WATCH_SECONDS:
            return False
        if tracker is not None:
            tracker.members()


def _kill_group(proc, tracker: "_Tracker | None" = None) -> None:
    """SIGKILL the child's process group (the child and everything it forked) and
    every other process of the run (`_Tracker`), then reap the child.

    The child made itself a group leader (`os.setsid`), so its pid is the group id;
    the group outlives the child while a grandchild lives. Falls back to killing
    the child alone when it had not got as far as `setsid`.
    """
    import signal
    if tracker is not None:
        tracker.kill_all()  # first, while the child (their subreaper) still holds the tree together
    pid = proc.pid
    if pid is not None and hasattr(os, "killpg"):
        # Also when the child is already gone: its group lives on while a grandchild does.
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
    if proc.is_alive():
        proc.kill()
    _wait(proc, 5)


def run_target(spec: str, device: str = "cpu", seed: int = 0, timeout: float = 120.0) -> dict:
    """Run TARGET in a spawned child and return the report as a dict.

    Report keys: target, device, seed, status ("ok" | "error" | "timeout" | "crash"),
    error (str or None), phase (where it stopped: "startup" | "import" | "build" |
    "run"; see `setup_error`), checks (list of {id, name, passed, numbers, detail}),
    limits, seconds, passed (bool: status ok and no check failed).

    Raises:
        ValueError: malformed TARGET or missing file (the CLI exits 2).
    """
    return run_targets([spec], device=device, seed=seed, timeout=timeout)[0]


def _fmt(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_fmt(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return str(v)


def render_text(report: dict) -> str:
    """Human-readable report: one line per check with its numbers, then a summary."""
    lines = [f"ctxlint sandbox {report['target']} (device {report['device']}, seed {report['seed']}, "
             f"{report['seconds']:.1f} s)"]
    for c in report["checks"]:
        mark = {True: "PASS", False: "FAIL", None: "SKIP"}[c["passed"]]
        nums = ", ".join(f"{k} {_fmt(v)}" for k, v in c["numbers"].items())
        lines.append(f"  {mark}  {c['id']} {c['name']}: {nums or c.get('detail', '')}")
    if report["status"] != "ok":
        lines.append(f"  FAIL  target {report['status']}: {report['error']}")
        if report.get("traceback"):
            lines.extend("        " + ln for ln in report["traceback"].rstrip().splitlines()[-6:])
    n_fail = sum(1 for c in report["checks"] if c["passed"] is False) + (report["status"] != "ok")
    n_pass = sum(1 for c in report["checks"] if c["passed"] is True)
    n_skip = sum(1 for c in report["checks"] if c["passed"] is None)
    lines.append(f"{n_pass} passed, {n_fail} failed" + (f", {n_skip} skipped" if n_skip else ""))
    return "\n".join(lines)


def main(args) -> int:
    """`ctxlint sandbox` (args from cli.py: target, device, seed, json, timeout). Returns the exit code."""
    timeout = getattr(args, "timeout", 120.0) or 120.0
    if torch_missing():
        sys.stderr.write(f"ctxlint: error: the sandbox needs torch, which is not installed here; {TORCH_INSTALL_HINT}\n")
        return EXIT_USAGE
    try:
        with _terminate_cleanly():
            report = run_target(args.target, device=args.device, seed=args.seed, timeout=timeout)
    except ValueError as exc:
        sys.stderr.write(f"ctxlint: error: {exc}\n")
        return EXIT_USAGE
    except Terminated as exc:
        sys.stderr.write(f"ctxlint: sandbox stopped by signal {exc.signum}; its processes and directory removed\n")
        return 128 + exc.signum
    if args.json:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    setup = setup_error(report)
    if setup is not None:
        sys.stderr.write(f"ctxlint: error: {setup}\n")
        return EXIT_USAGE
    if not args.json:
        sys.stdout.write(render_text(report) + "\n")
    return EXIT_OK if report["passed"] else EXIT_FAILED


@contextlib.contextmanager
def _terminate_cleanly():
    """While the sandbox runs, SIGTERM and SIGHUP raise `Terminated` in the main
    thread, so the run's `finally` kills the child's processes and removes its
    temporary directory (a CI job timeout or `kill PID` leaves nothing behind)."""
    import signal
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, _frame):
        raise Terminated(signum)
    saved = {}
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            with contextlib.suppress(OSError, ValueError):
                saved[sig] = signal.signal(sig, stop)
    try:
        yield
    finally:
        for sig, old in saved.items():
            with contextlib.suppress(OSError, ValueError):
                signal.signal(sig, old)


def setup_error(report: dict) -> str | None:
    """One line naming why the target could not be run at all, or None.

    A target that fails to import, lacks its factory, whose factory raises or
    returns something that is not a KV-cache manager (or one with the wrong
    pool size), or a child that cannot start (torch missing) is a usage or
    environment error (exit 2), not an invariant failure: no check ran.
    """
    phase = report.get("phase")
    if report.get("status") == "ok" or phase not in ("import", "build", "startup"):
        return None
    what = {"import": "cannot import", "build": "cannot build a manager from",
            "startup": "cannot start the sandbox for"}[phase]
    return f"{what} {report['target']}: {report.get('error')}"
