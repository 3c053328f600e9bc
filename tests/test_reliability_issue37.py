"""Issue 37: nothing a file, a cache entry, an editor frame or a sandbox target does
can hang ctxlint, leak a process or write wrong code.

Each test is one repro of /work/shared/repros/reliability (the issue's table number
in the test name), plus two bounded fuzz targets: LSP frames (`FrameDecoder` and a
live server) and sandbox targets. Tests that start processes check afterwards that
none of them is still running.
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ctxlint.lsp import MAX_CONTENT_LENGTH, FrameDecoder

CTXLINT = [sys.executable, "-m", "ctxlint"]


# ------------------------------------------------------------------ helpers
def frame(body: bytes | str, *, length: int | None = None, newline: bytes = b"\r\n") -> bytes:
    if isinstance(body, str):
        body = body.encode()
    n = len(body) if length is None else length
    return b"Content-Length: " + str(n).encode() + newline + newline + body


def rpc(**kw) -> str:
    return json.dumps({"jsonrpc": "2.0", **kw})


INIT = rpc(id=1, method="initialize", params={"capabilities": {}, "processId": None, "rootUri": None})


def read_messages(data: bytes) -> list[dict]:
    """The JSON messages in a server's stdout (its own frames are well formed)."""
    msgs = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        if not rest and not head.strip():
            break
        n = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
        msgs.append(json.loads(rest[:n]))
        data = rest[n:]
    return msgs


def lsp_session(chunks: list[bytes], pause: float = 0.0, timeout: float = 60.0) -> tuple[list[dict], str, int]:
    """Write `chunks` to `ctxlint lsp` (with `pause` seconds between them), close stdin;
    return (messages written, stderr, exit status)."""
    p = subprocess.Popen([*CTXLINT, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    import threading
    out: dict = {}
    t1 = threading.Thread(target=lambda: out.__setitem__("o", p.stdout.read()))
    t2 = threading.Thread(target=lambda: out.__setitem__("e", p.stderr.read()))
    t1.start()
    t2.start()
    try:
        for c in chunks:
            p.stdin.write(c)
            p.stdin.flush()
            if pause:
                time.sleep(pause)
        p.stdin.close()
        rc = p.wait(timeout)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    t1.join(10)
    t2.join(10)
    return read_messages(out.get("o", b"")), out.get("e", b"").decode("utf-8", "replace"), rc


def answers(msgs: list[dict]) -> dict:
    return {m["id"]: m for m in msgs if "id" in m and "method" not in m}


# --------------------------------------------------------- 3, 4: LSP framing
def decode_all(stream: bytes, sizes=None) -> tuple[list[bytes], list[str]]:
    d = FrameDecoder()
    bodies, errors = [], []
    pos = 0
    rng = random.Random(len(stream))
    while pos < len(stream):
        n = sizes.pop(0) if sizes else rng.randint(1, 64)
        for kind, item in d.feed(stream[pos:pos + n]):
            (bodies if kind == "body" else errors).append(item)
        pos += n
    return bodies, errors


@pytest.mark.parametrize("bad", [
    b"Content-Length: 99999999999999\r\n\r\n{}",            # 3: would be allocated whole
    b"Content-Length: abc\r\n\r\n{}",                        # 4: not a number
    b"Content-Length: -5\r\n\r\n{}",
    b"Content-Type: application/json\r\n\r\n{}",           # no Content-Length at all
    frame(rpc(id=9, method="x"), length=7),                  # shorter than the body
    frame(rpc(id=9, method="x"), length=200),                # longer than the body
    b"\x00\xff garbage \r\n",
])
def test_4_decoder_finds_the_next_frame_after_a_bad_one(bad):
    good = rpc(id=2, method="shutdown").encode()
    for chunked in (None, [len(bad) + 1000]):
        bodies, errors = decode_all(bad + frame(good), list(chunked) if chunked else None)
        assert bodies[-1] == good, (bad, bodies, errors)
        assert errors, bad


def test_4_lf_only_headers_are_read():
    bodies, errors = decode_all(frame(INIT, newline=b"\n") + frame(INIT))
    assert bodies == [INIT.encode()] * 2 and not errors


def test_3_huge_content_length_is_never_allocated():
    d = FrameDecoder()
    out = d.feed(b"Content-Length: %d\r\n\r\n" % (MAX_CONTENT_LENGTH + 1) + b"{}" * 10)
    assert [k for k, _ in out] == ["error"] and d.need is None and d.pending() <= 20


def test_fuzz_lsp_frame_decoder_recovers_every_good_frame():
    """Fuzz target (bounded, seeded): random bad frames between good ones, cut into random
    chunks. Every good frame comes out exactly once, in order, and the decoder's buffer
    stays bounded by a header plus the largest declared body."""
    rng = random.Random(37)

    def bad_frame() -> bytes:
        body = json.dumps({"jsonrpc": "2.0", "id": rng.randint(0, 9), "method": "m" * rng.randint(0, 30)}).encode()
        kind = rng.randrange(8)
        if kind == 0:
            return b"Content-Length: " + rng.choice([b"abc", b"-1", b"1e3", b"", b"99999999999999999", b"0x10",
                                                     b"12 34"]) + b"\r\n\r\n" + body
        if kind == 1:
            return b"Content-Type: text/plain\r\n\r\n" + body
        if kind == 2:
            return frame(body, length=rng.randint(1, max(1, len(body) - 1)))   # too short
        if kind == 3:
            return frame(body, length=len(body) + rng.randint(len("Content-Length:") + 1, 120))  # too long
        if kind == 4:
            return bytes(rng.randrange(256) for _ in range(rng.randint(1, 200))).replace(b"\n", b" ")
        if kind == 5:
            return frame(body, newline=rng.choice([b"\n", b"\r\n"]))  # a fine frame
        if kind == 6:
            return b"\r\n" * rng.randint(1, 5)
        return b"Content-Length: %d\r\n\r\n" % (MAX_CONTENT_LENGTH + rng.randint(1, 10**12)) + body
    deadline = time.monotonic() + 4
    rounds = 0
    while time.monotonic() < deadline and rounds < 400:
        rounds += 1
        goods = [json.dumps({"jsonrpc": "2.0", "id": f"good-{rounds}-{i}", "method": "shutdown"}).encode()
                 for i in range(rng.randint(1, 6))]
        stream = b"".join(bad_frame() + frame(g) for g in goods)
        d = FrameDecoder()
        got, pos = [], 0
        while pos < len(stream):
            n = rng.randint(1, 300)
            got += [item for kind, item in d.feed(stream[pos:pos + n]) if kind == "body"]
            assert d.pending() <= MAX_CONTENT_LENGTH + 8192 + 300
            pos += n
        good_seen = [b for b in got if b.startswith(b'{"jsonrpc": "2.0", "id": "good-')]
        assert good_seen == goods, (rounds, stream[:400])


def test_3_4_server_survives_bad_frames_and_answers_the_next():
    good = [frame(INIT), frame(rpc(id=2, method="shutdown")), frame(rpc(method="exit"))]
    for bad in (b"Content-Length: 99999999999999\r\n\r\n{}", b"Content-Length: abc\r\n\r\n{}",
                b"Content-Type: x\r\n\r\n{}", frame(rpc(id=3, method="shutdown"), length=5)):
        msgs, err, rc = lsp_session([bad, *good], pause=0.2)
        ids = answers(msgs)
        assert 1 in ids and "result" in ids[1] and "result" in ids.get(2, {}), (bad, msgs, err)
        assert "Traceback" not in err and "internal error" not in err, err
        assert rc == 0, (bad, rc, err)


def test_fuzz_lsp_server_stays_up():
    """Fuzz target (bounded, seeded): a live server gets 60 random frames (bad headers,
    wrong lengths, non-JSON and non-object bodies, unknown methods) between an
    initialize and a shutdown; it answers both and exits cleanly."""
    rng = random.Random(3717)
    chunks = [frame(INIT)]
    for i in range(60):
        body = rng.choice([
            rpc(id=100 + i, method=rng.choice(["foo/bar", "$/x", "textDocument/hover", "workspace/symbol"])),
            rpc(method="textDocument/didChange", params={"textDocument": {"uri": "file:///nope.py", "version": i},
                                                         "contentChanges": [{"text": "x"}]}),
            "[1, 2", "null", "\"str\"", "{}", rpc(id=None, method=None), "\udcff".encode("utf-8", "surrogatepass")
            .decode("latin-1"),
        ])
        kind = rng.randrange(4)
        if kind == 0:
            chunks.append(frame(body))
        elif kind == 1:
            chunks.append(b"Content-Length: " + rng.choice([b"x", b"-3", b"999999999999999"]) + b"\r\n\r\n"
                          + body.encode("utf-8", "surrogateescape"))
        elif kind == 2:
            chunks.append(frame(body, length=max(1, len(body) // 2)))
        else:
            chunks.append(frame(body, newline=b"\n"))
    chunks += [frame(rpc(id="last", method="shutdown")), frame(rpc(method="exit"))]
    msgs, err, rc = lsp_session(chunks, pause=0.01)
    ids = answers(msgs)
    assert "result" in ids[1] and "result" in ids["last"], (ids.keys(), err[-2000:])
    assert "Traceback" not in err and rc == 0, err[-2000:]


# ------------------------------------------------------ 8: after shutdown, -32601
def test_8_requests_after_shutdown_get_invalid_request_and_unknown_method_gets_32601():
    msgs, err, rc = lsp_session([
        frame(INIT),
        frame(rpc(id=5, method="foo/bar")),                    # no params: -32601, not -32602
        frame(rpc(id=6, method="foo/bar", params={"a": 1})),
        frame(rpc(method="foo/notified")),                     # an unknown notification: dropped
        frame(rpc(id=2, method="shutdown")),
        frame(rpc(id=3, method="textDocument/codeAction", params={
            "textDocument": {"uri": "file:///x.py"},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": []}})),
        frame(rpc(id=4, method="shutdown")),
        frame(rpc(method="exit")),
    ], pause=0.2)
    ids = answers(msgs)
    assert ids[5]["error"]["code"] == -32601 and ids[6]["error"]["code"] == -32601, ids
    assert "result" in ids[2]
    assert ids[3]["error"]["code"] == -32600 and ids[4]["error"]["code"] == -32600, ids
    assert rc == 0 and "Traceback" not in err, err


# ------------------------------------------------------ 7: didChange futures
def test_7_did_change_keeps_no_future():
    """pygls files each notification's future under a fresh uuid; after 300 didChanges
    the protocol holds none of them (it held 300+ before)."""
    import asyncio

    from ctxlint.lsp import create_server
    server = create_server()
    out = io.BytesIO()
    from pygls.io_ import StdoutWriter
    server.protocol.set_writer(StdoutWriter(out))
    uri = "file:///tmp/issue37_leak_probe.txt"  # not a linted language: only the bookkeeping runs
    msgs = [frame(INIT), frame(rpc(method="initialized", params={})),
            frame(rpc(method="textDocument/didOpen", params={"textDocument": {
                "uri": uri, "languageId": "plaintext", "version": 1, "text": "x\n"}}))]
    msgs += [frame(rpc(method="textDocument/didChange", params={
        "textDocument": {"uri": uri, "version": v}, "contentChanges": [{"text": f"x = {v}\n"}]}))
        for v in range(2, 302)]
    server._stop_event = __import__("threading").Event()

    async def go():
        await server._serve(io.BytesIO(b"".join(msgs)))
        for _ in range(20):
            await asyncio.sleep(0)
    asyncio.run(go())
    assert server.workspace.get_text_document(uri).source == "x = 301\n"
    assert len(server.protocol._request_futures) <= 2, len(server.protocol._request_futures)


# --------------------------------------------------------------- 5, 6: sandbox
HAS_TORCH = __import__("importlib").util.find_spec("torch") is not None
requires_torch = pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed (pip install torch==2.13.0)")


def alive(pid: int) -> bool:
    """Is `pid` a live process (not a zombie)?"""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except OSError:
        return False


def wait_gone(pids, seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [p for p in pids if alive(p)]
        if not left:
            return []
        time.sleep(0.1)
    return [p for p in pids if alive(p)]


def noted(d: Path) -> list[str]:
    """The pids a hostile target has written to `d/pids` so far."""
    f = d / "pids"
    return f.read_text().split() if f.exists() else []


def strays(token_dir: Path) -> list[int]:
    """pids a target wrote to `token_dir/pids` that are still alive."""
    f = token_dir / "pids"
    pids = [int(x) for x in f.read_text().split()] if f.exists() else []
    return wait_gone(pids, 5.0)


SPAWNERS = {
    # one way each for a process to leave the child's process group or session
    "setsid": "if os.fork() == 0:\n    os.setsid()\n    os.execvp('sleep', ['sleep', '9102'])\n",
    "setpgid": "if os.fork() == 0:\n    os.setpgid(0, 0)\n    os.execvp('sleep', ['sleep', '9103'])\n",
    "double_fork": ("if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
                    "        os.execvp('sleep', ['sleep', '9104'])\n    os._exit(0)\n"),
    "new_session": "subprocess.Popen(['sleep', '9105'], start_new_session=True)\n",
    "env_cleared": ("if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
                    "        os.execve('/bin/sleep', ['sleep', '9106'], {})\n    os._exit(0)\n"),
}


def hostile_target(tmp: Path, name: str, spawn: list[str], then: str) -> str:
    """A target module whose factory starts processes (recording their pids) and then
    `then`s: "raise", "hang", "close_fds_hang", "exit"."""
    log = tmp / "pids"
    body = ["import os, subprocess, time, sys", f"LOG = {str(log)!r}",
            "def note(pid):", "    open(LOG, 'a').write(f'{pid}\\n')",
            "_real_fork, _real_popen = os.fork, subprocess.Popen",
            "def fork():", "    pid = _real_fork()", "    if pid:", "        note(pid)", "    else:",
            "        note(os.getpid())", "    return pid",
            "class Popen(_real_popen):", "    def __init__(self, *a, **k):",
            "        super().__init__(*a, **k)", "        note(self.pid)",
            "os.fork, subprocess.Popen = fork, Popen",
            "def make_manager():"]
    for code in spawn:
        body += ["    " + ln for ln in SPAWNERS[code].splitlines()]
    body.append("    note(os.getpid())")
    body.append({"raise": "    raise ValueError('hostile target')",
                 "hang": "    time.sleep(10**6)",
                 "close_fds_hang": "    os.closerange(3, 4096)\n    time.sleep(10**6)",
                 "exit": "    os._exit(3)"}[then])
    path = tmp / f"{name}.py"
    path.write_text("\n".join(body) + "\n")
    return f"{path}:make_manager"


@requires_torch
def test_5_target_closing_its_fds_cannot_outlast_the_timeout(tmp_path):
    from ctxlint.sandbox.runner import run_target
    spec = hostile_target(tmp_path, "closefds", [], "close_fds_hang")
    t0 = time.monotonic()
    r = run_target(spec, timeout=3.0)
    assert r["status"] == "timeout", r
    # start-up (torch import) is not counted by --timeout; 3 s + the 5 s grace of a closed pipe at most
    assert r["seconds"] < 3.0 + 30, r
    assert time.monotonic() - t0 < 120
    assert strays(tmp_path) == []


@requires_torch
@pytest.mark.parametrize("then", ["raise", "hang"])
def test_6_processes_that_leave_the_group_die_with_the_run(tmp_path, then):
    from ctxlint.sandbox.runner import run_target
    spec = hostile_target(tmp_path, f"escape_{then}", list(SPAWNERS), then)
    r = run_target(spec, timeout=4.0)
    assert r["status"] == ("timeout" if then == "hang" else "error"), r
    pids = [int(x) for x in (tmp_path / "pids").read_text().split()]
    assert len(pids) >= 2 * len(SPAWNERS), pids  # every spawner ran
    assert strays(tmp_path) == [], "processes outlived the sandbox run"


@requires_torch
def test_6_sigterm_to_the_sandbox_kills_the_child_and_removes_its_directory(tmp_path):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    spec = hostile_target(tmp_path, "hang", ["setsid"], "hang")
    p = subprocess.Popen([*CTXLINT, "sandbox", spec, "--timeout", "100"], env={**os.environ, "TMPDIR": str(tmpdir)},
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline and len(noted(tmp_path)) < 3:  # the fork, its child, the target
            time.sleep(0.2)
        pids = noted(tmp_path)
        assert len(pids) >= 3 and list(tmpdir.glob("ctxlint-sandbox-*")), pids
        time.sleep(0.3)
        p.send_signal(signal.SIGTERM)
        rc = p.wait(30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert rc == 128 + signal.SIGTERM, (rc, p.stderr.read())
    assert strays(tmp_path) == []
    assert list(tmpdir.glob("ctxlint-sandbox-*")) == []


@requires_torch
def test_fuzz_sandbox_runner_leaves_nothing_behind(tmp_path):
    """Fuzz target (bounded, seeded): targets built from random ways of starting
    processes and random endings (raise, hang, close the fds, exit the process); each
    run ends within its timeout, and no process it started is left."""
    from ctxlint.sandbox.runner import run_targets
    rng = random.Random(3737)
    for i in range(2):
        d = tmp_path / f"run{i}"
        d.mkdir()
        then = rng.choice(["raise", "hang", "close_fds_hang", "exit"])
        spec = hostile_target(d, f"t{i}", rng.sample(sorted(SPAWNERS), rng.randint(1, 3)), then)
        [r] = run_targets([spec], timeout=3.0)
        assert r["status"] in ("error", "timeout", "crash") and r["seconds"] < 3.0 + 40, (then, r)
        assert strays(d) == [], (then, (d / f"t{i}.py").read_text())


def test_6_kill9_of_check_jobs_leaves_no_worker(tmp_path):
    src = (Path(__file__).resolve().parents[1] / "ctxlint" / "engine.py").read_text()
    for i in range(200):
        (tmp_path / f"m{i}.py").write_text(src)
    p = subprocess.Popen([*CTXLINT, "check", ".", "--no-cache", "--jobs", "2"], cwd=tmp_path,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def workers() -> list[int]:
        out = []
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    with open(f"/proc/{name}/stat", "rb") as fh:
                        f = fh.read().rsplit(b")", 1)[1].split()
                except OSError:
                    continue
                if int(f[2]) == p.pid and int(name) != p.pid:  # in its process group
                    out.append(int(name))
        return out
    try:
        deadline = time.monotonic() + 60
        seen: list[int] = []
        while time.monotonic() < deadline and p.poll() is None and len(seen) < 2:
            seen = workers()
            time.sleep(0.02)
        if p.poll() is not None:
            pytest.skip("the run ended before its workers could be seen")
        os.kill(p.pid, signal.SIGKILL)
    finally:
        p.wait(30)
    assert wait_gone(seen, 10.0) == [], "pool workers outlived a kill -9 of ctxlint check"


# ------------------------------------------------------------------ CLI helpers
DATA = Path(__file__).resolve().parent / "data" / "issue37"
CREATE_TASK = "import asyncio\n\n\nasync def f(g):\n    asyncio.create_task(g())\n"


def cli(args: list[str], cwd: Path, timeout: float = 120, prefix: list[str] | None = None,
        **kw) -> subprocess.CompletedProcess:
    if args[:1] == ["check"] and "--min-confidence" not in args:
        args = [*args, "--min-confidence", "low"]  # these snippets are latent: both tiers
    return subprocess.run([*(prefix or []), *CTXLINT, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, **kw)


def as_ordinary_user() -> list[str]:
    """A command prefix under which file permissions apply (root: DAC override dropped)."""
    if os.geteuid() != 0:
        return []
    import shutil
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: permissions cannot be made to apply")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


# ------------------------------------------------ 1: template-probe limits
def test_1_template_probe_stops_at_the_memory_limit(tmp_path):
    from ctxlint.template_probe import probe_bounded
    errors, notes, limit = probe_bounded('{{ "x" * 3000000000 }}', "bomb.j2", seconds=60, memory=256 * 2**20)
    assert limit is not None and limit.startswith("memory"), (limit, notes)


def test_1_template_probe_stops_at_the_time_limit_and_keeps_what_it_found(tmp_path):
    from ctxlint.template_probe import probe_bounded
    text = ("{{ x.__class__ }}{% for a in range(99999) %}{% for b in range(99999) %}"
            "{% endfor %}{% endfor %}")
    errors, notes, limit = probe_bounded(text, "hang.j2", seconds=2)
    assert limit is not None and limit.startswith("time"), limit
    assert [e["line"] for e in errors] == [1] and "__class__" in errors[0]["message"]


def test_1_template_probe_cli_says_limit_reached(tmp_path, monkeypatch):
    import ctxlint.template_probe as tp
    monkeypatch.setattr(tp, "PROBE_SECONDS", 2.0)
    monkeypatch.setattr(tp.probe_bounded, "__defaults__", (2.0, 256 * 2**20))
    t = tmp_path / "hang.j2"
    t.write_text("{% for a in range(99999) %}{% for b in range(99999) %}{% endfor %}{% endfor %}")
    from ctxlint.cli import main
    import contextlib
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["template-probe", str(t)]) == 2
    assert "limit reached" in out.getvalue()


def test_1_a_finite_template_still_renders_clean(tmp_path):
    from ctxlint.template_probe import probe_bounded
    assert probe_bounded("{% for a in range(3) %}{{ a }}{% endfor %}", "ok.j2") == ([], [], None)


# ------------------------------------------------------- 2: cached edits
def test_2_fix_never_applies_a_corrupted_cached_edit(tmp_path):
    work, ref = tmp_path / "work", tmp_path / "ref"
    for d in (work, ref):
        d.mkdir()
        (d / "a.go").write_bytes((DATA / "cache_fix_victim.go").read_bytes())
    assert cli(["check", ".", "--fix", "--no-cache"], ref).returncode in (0, 1)
    expected = (ref / "a.go").read_text()
    assert expected != (DATA / "cache_fix_victim.go").read_text()  # the reference run fixed something
    assert cli(["check", "."], work).returncode == 1
    cache = next((work / ".ctxlint_cache").glob("findings-*.json"))
    data = json.loads(cache.read_text())
    edits = 0
    for entry in data.values():
        for f in entry if isinstance(entry, list) else entry["findings"]:
            for e in (f.get("fix") or {}).get("edits", []):
                e["start"] = e["end"] = 0
                e["text"] = 'import "os"; func init() { os.RemoveAll("/") }\n'
                edits += 1
    assert edits
    cache.write_text(json.dumps(data))
    old = time.time() - 3600  # the file predates the run: the shortcut that trusts findings would apply
    os.utime(work / "a.go", (old, old))
    r = cli(["check", ".", "--fix"], work)
    assert "RemoveAll" not in (work / "a.go").read_text(), r.stderr
    assert (work / "a.go").read_text() == expected


# ---------------------------------------------- 9: FIFO and /dev/zero caches
@pytest.mark.parametrize("kind", ["fifo", "devzero", "directory"])
def test_9_a_cache_file_that_is_not_a_regular_file_is_ignored(tmp_path, kind):
    (tmp_path / "a.py").write_text(CREATE_TASK)
    assert cli(["check", "."], tmp_path).returncode == 1
    cache = next((tmp_path / ".ctxlint_cache").glob("findings-*.json"))
    cache.unlink()
    if kind == "fifo":
        os.mkfifo(cache)
    elif kind == "devzero":
        cache.symlink_to("/dev/zero")
    else:
        cache.mkdir()
    r = cli(["check", "."], tmp_path, timeout=60)
    assert r.returncode == 1 and "CTX107" in r.stdout and "internal error" not in r.stderr, r.stderr


def test_9_read_regular_is_bounded(tmp_path):
    from ctxlint.engine import FileTooLarge, read_regular
    p = tmp_path / "f"
    p.write_bytes(b"x" * 100)
    assert read_regular(p, 100) == b"x" * 100
    with pytest.raises(FileTooLarge):
        read_regular(p, 99)
    with pytest.raises(OSError):
        read_regular("/dev/zero", 10)


# ------------------------------------------------------ 11: CTX302 linear
def test_11_locator_never_scans_every_code_span():
    """CTX302 was quadratic: each finding's column scanned every `{{ }}` span of the
    template. The locator answers "inside code?" by bisection: with its span list
    taken away after construction, every column is still found."""
    from ctxlint.semantic.jinja.templates import _Locator
    text = "{% for x in y %}{{ x.__class__ }}{% endfor %} __class__\n" * 300
    loc = _Locator(text, {})
    assert len(loc.spans) == 900
    loc.spans = None  # a linear scan would now raise TypeError
    cols = {loc.column(n, "__class__") for n in range(1, 301)}
    assert cols == {text.index("__class__")}  # the one inside code, not the text after it


# ------------------------------------------------------ 12: deep templates
def test_12_a_1000_filter_chain_does_not_crash_the_project_pass(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "t.j2").write_text("{{ x" + "|e" * 1000 + " }}\n")
    (tmp_path / "render.py").write_text(
        "import jinja2\nenv = jinja2.Environment(loader=jinja2.FileSystemLoader('templates'))\n"
        "env.get_template('t.j2').render(x=1)\n")
    r = cli(["check", ".", "--no-cache"], tmp_path)
    assert r.returncode == 0 and "internal error" not in r.stderr, r.stderr


def test_12_find_all_matches_jinja2_order():
    from jinja2 import Environment, nodes

    from ctxlint.semantic.jinja.templates import find_all
    tree = Environment().parse("{% for a in b %}{{ a.c|d(e.f) }}{% if g %}{{ h[i] }}{% endif %}{% endfor %}")
    assert list(find_all(tree, (nodes.Name, nodes.Getattr))) == list(tree.find_all((nodes.Name, nodes.Getattr)))


# -------------------------------------------- 13, 14: permissions
def test_13_unreadable_file_and_directory_are_notices_never_all_checks_passed(tmp_path):
    prefix = as_ordinary_user()
    (tmp_path / "noread.py").write_text(CREATE_TASK)
    (tmp_path / "noread.py").chmod(0)
    (tmp_path / "nodir").mkdir()
    (tmp_path / "nodir" / "x.py").write_text(CREATE_TASK)
    (tmp_path / "ok.py").write_text("x = 1\n")
    try:
        (tmp_path / "nodir").chmod(0)
        alone = cli(["check", "noread.py"], tmp_path, prefix=prefix)
        tree = cli(["check", ".", "--no-cache"], tmp_path, prefix=prefix)
        cached = cli(["check", "."], tmp_path, prefix=prefix)
    finally:
        (tmp_path / "nodir").chmod(0o755)
    # no finding, so exit 0 (the exit-code contract), but never called clean
    assert alone.returncode == 0 and "All checks passed" not in alone.stdout, alone
    assert "noread.py: cannot read" in alone.stderr and "could not be read" in alone.stdout
    for r in (tree, cached):
        assert r.returncode == 0 and "All checks passed" not in r.stdout, r
        assert "nodir: directory not checked" in r.stderr and "noread.py: cannot read" in r.stderr, r.stderr
        assert "Could not read 2 paths" in r.stdout


def test_14_fix_leaves_a_read_only_file_alone_with_a_notice(tmp_path):
    prefix = as_ordinary_user()
    ro = tmp_path / "ro.py"
    ro.write_text(CREATE_TASK)
    ro.chmod(0o444)
    r = cli(["check", "ro.py", "--fix", "--no-cache"], tmp_path, prefix=prefix)
    assert ro.read_text() == CREATE_TASK and "ro.py: not fixed: the file is read-only" in r.stderr, r.stderr
    assert r.returncode == 1 and stat_mode(ro) == 0o444
    # as root too (no DAC dropped): a read-only file is left alone
    r = cli(["check", "ro.py", "--fix", "--no-cache"], tmp_path)
    assert ro.read_text() == CREATE_TASK
    ro.chmod(0o644)
    r = cli(["check", "ro.py", "--fix", "--no-cache"], tmp_path)
    assert ro.read_text() != CREATE_TASK and r.returncode == 0, r.stderr


def stat_mode(p: Path) -> int:
    import stat
    return stat.S_IMODE(p.stat().st_mode)


# ------------------------------------------------------ 15: deleted cwd
def test_15_deleted_working_directory(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text(CREATE_TASK)
    gone = tmp_path / "gone"
    runner = tmp_path / "run.py"
    runner.write_text("import sys\nfrom ctxlint.cli import main\nsys.exit(main(sys.argv[1:]))\n")

    def run(*args: str) -> subprocess.CompletedProcess:
        gone.mkdir()
        tier = ["--min-confidence", "low"] if args[:1] == ("check",) else []
        return subprocess.run(["bash", "-c", 'cd "$1" && rmdir "$1" && shift && exec "$@"', "-", str(gone),
                               sys.executable, str(runner), *args, *tier], capture_output=True, text=True,
                              timeout=120)
    check = run("check", str(src), "--no-cache")
    assert check.returncode == 1 and "CTX107" in check.stdout and "internal error" not in check.stderr, check
    fix = run("check", str(src), "--fix")
    assert fix.returncode == 0 and "1 fixed" in fix.stdout, fix
    rel = run("check", "src")
    assert rel.returncode == 2 and "working directory no longer exists" in rel.stderr, rel
    assert "Traceback" not in rel.stderr


# ------------------------------------------------ 16: stale temporary files
def test_16_temporary_files_of_a_killed_run_are_removed_by_the_next(tmp_path):
    (tmp_path / "a.py").write_text(CREATE_TASK)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text("x = 1\n")
    dead = 2**22 + 12345  # above any pid_max: no such process
    stale = [tmp_path / f".a.py.{dead}.k3j2.ctxlint-tmp", tmp_path / "sub" / f".b.py.{dead}.zz.ctxlint-tmp"]
    live = tmp_path / f".a.py.{os.getpid()}.live.ctxlint-tmp"  # a run still writing it
    for p in [*stale, live]:
        p.write_text("half")
    (tmp_path / ".ctxlint_cache").mkdir()
    cache_tmp = tmp_path / ".ctxlint_cache" / f".tmp-.{dead}.q.ctxlint-tmp"
    cache_tmp.write_text("{")
    r = cli(["check", "."], tmp_path)
    assert r.returncode == 1, r.stderr
    assert not any(p.exists() for p in stale) and live.exists() and not cache_tmp.exists()
    # a file named alone: its directory's leftovers go when it is fixed
    again = tmp_path / f".a.py.{dead}.k4.ctxlint-tmp"
    again.write_text("half")
    r = cli(["check", "a.py", "--fix"], tmp_path)
    assert not again.exists() and live.exists(), r.stderr
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".ctxlint-tmp") and p != live]


def test_16_kill9_during_fix_leaves_nothing_the_next_run_keeps(tmp_path):
    for i in range(60):
        (tmp_path / f"m{i}.py").write_text(CREATE_TASK * 40)
    for _ in range(3):
        p = subprocess.Popen([*CTXLINT, "check", ".", "--fix", "--no-cache", "--jobs", "1"], cwd=tmp_path,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(random.Random(_).uniform(0.8, 2.0))
        p.kill()
        p.wait()
    cli(["check", ".", "--no-cache"], tmp_path)
    assert not [q for q in tmp_path.iterdir() if q.name.endswith(".ctxlint-tmp")]
    for q in tmp_path.glob("m*.py"):
        compile(q.read_text(), str(q), "exec")  # every file whole: old or fixed, never half-written


# ---------------------------------------------------- 17: files Python refuses
@pytest.mark.parametrize("raw, message", [
    (b"# coding: utf-16\nimport asyncio\n", "utf-16"),
    (b"\xef\xbb\xbf# coding: latin-1\nimport asyncio\n", "encoding problem"),
    (b"# -*- coding: no-such-codec -*-\nx = 1\n", "unknown encoding"),
    (b"import asyncio\nreturn 1\n", "'return' outside function"),
    (b"from __future__ import annota\n", "future feature annota is not defined"),
    (b"x = 1\nfrom __future__ import annotations\n", "from __future__ imports must occur at the beginning"),
    (b"class C:\n    yield 1\n", "'yield' outside function"),
    (b"for x in y:\n    pass\nelse:\n    break\n", "'break' outside loop"),
    (b"await x\n", "'await' outside function"),
])
def test_17_files_python_refuses_are_ctx000_with_its_message(tmp_path, raw, message):
    (tmp_path / "r.py").write_bytes(raw)
    for extra in ([], ["--select", "CTX107"]):  # full lint, and the syntax-only path
        r = cli(["check", "r.py", "--no-cache", "--output-format", "json", *extra], tmp_path)
        found = json.loads(r.stdout)
        assert [f["code"] for f in found] == ["CTX000"] and message in found[0]["message"], (extra, found, r.stderr)
        with pytest.raises(SyntaxError):
            compile(raw, "r.py", "exec")


VALID = [
    '"""doc"""\nfrom __future__ import annotations\nfrom __future__ import division\nx = 1\n',
    "# coding: latin-1\nx = 'caf\xe9'\n",
    "def f():\n    return 1\n\n\nasync def g():\n    await f()\n    async for x in y:\n        break\n",
    "for x in range(3):\n    if x:\n        break\n    continue\nwhile True:\n    break\n",
    "f = lambda: (yield)\nclass C:\n    def m(self):\n        return (yield)\n",
    "class C:\n    for i in range(2):\n        if i:\n            break\n",
]


@pytest.mark.parametrize("text", VALID)
def test_17_valid_code_is_never_ctx000(tmp_path, text):
    compile(text.encode("latin-1") if "latin-1" in text else text, "v.py", "exec")  # the interpreter accepts it
    p = tmp_path / "v.py"
    p.write_bytes(text.encode("latin-1") if "latin-1" in text else text.encode())
    r = cli(["check", "v.py", "--no-cache", "--output-format", "json"], tmp_path)
    assert "CTX000" not in r.stdout, r.stdout


def test_17_ctxlint_own_sources_are_not_ctx000():
    from ctxlint.languages.python import parse
    root = Path(__file__).resolve().parents[1] / "ctxlint"
    for p in root.rglob("*.py"):
        assert parse(str(p), p.read_text())[1] is None, p


# ------------------------------------------------- 18: hints and escaping
def test_18_no_hint_for_flags_the_run_already_had():
    from ctxlint.findings import Edit, Finding, Fix
    from ctxlint.report import ReportContext
    from ctxlint.report.text_report import render
    fs = [Finding("CTX999", "x", "a.py", 1, 1, 1, 2, "m", Fix("d", "unsafe", (Edit(0, 0, "y"),))),
          Finding("CTX998", "x", "a.py", 2, 1, 2, 2, "m", Fix("d", "safe", (Edit(0, 0, "y"),)))]
    ctx = ReportContext(files=1)
    assert "--unsafe-fixes" in render(fs, ctx) and "fixable with `ctxlint check --fix`" in render(fs, ctx)
    ctx.applied_fixes = "safe"
    assert "--unsafe-fixes" in render(fs, ctx) and "fixable with `ctxlint check --fix`" not in render(fs, ctx)
    ctx.applied_fixes = "unsafe"
    assert "fixable" not in render(fs, ctx)


def test_18_control_characters_in_file_names_are_escaped(tmp_path):
    names = ["a\nb.py", "\x1b[2Jclear.py", "tab\there.py"]
    for n in names:
        (tmp_path / n).write_text(CREATE_TASK)
    r = cli(["check", "."], tmp_path)
    assert r.returncode == 1
    assert "\x1b" not in r.stdout + r.stderr
    lines = [ln for ln in r.stdout.splitlines() if "CTX107" in ln]
    assert sorted(ln.split(":")[0] for ln in lines) == sorted(["a\\nb.py", "\\x1b[2Jclear.py", "tab\\there.py"])
    j = json.loads(cli(["check", ".", "--output-format", "json"], tmp_path).stdout)
    assert sorted(f["path"] for f in j) == sorted(names)  # JSON carries the names as they are


@requires_torch
def test_6_kill9_of_the_sandbox_is_cleaned_up_by_the_next_run(tmp_path):
    """`kill -9` of `ctxlint sandbox` runs no clean-up: the child dies with it
    (PDEATHSIG), and the next run removes the temporary directory and kills the
    target's processes that left the session (they carry the dead run's token)."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = {**os.environ, "TMPDIR": str(tmpdir)}
    spec = hostile_target(tmp_path, "hang", ["setsid", "double_fork"], "hang")
    p = subprocess.Popen([*CTXLINT, "sandbox", spec, "--timeout", "100"], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline and len(noted(tmp_path)) < 5:
            time.sleep(0.2)
        time.sleep(0.3)
        p.kill()
    finally:
        p.wait(30)
    pids = [int(x) for x in (tmp_path / "pids").read_text().split()]
    assert list(tmpdir.glob("ctxlint-sandbox-*"))  # left behind, as kill -9 allows nothing else
    other = tmp_path / "other"
    other.mkdir()
    nxt = subprocess.run([*CTXLINT, "sandbox", hostile_target(other, "quick", [], "raise"), "--timeout", "30"],
                         env=env, capture_output=True, text=True, timeout=200)
    assert nxt.returncode == 2, nxt.stderr
    assert wait_gone(pids, 10.0) == [] and list(tmpdir.glob("ctxlint-sandbox-*")) == []


@pytest.mark.parametrize("src,msg", [
    ("def f(xs):\n    for x in xs:\n        pass\n    break\n", "'break' outside loop"),
    ("def g():\n    await h()\n", "'await' outside async function"),
    ("class C:\n    def m(self):\n        continue\n", "'continue' not properly in loop"),
])
@pytest.mark.parametrize("select", [[], ["--select", "CTX5"]])
def test_17_refused_inside_a_function_body_is_ctx000(tmp_path, src, msg, select):
    """The compiler also refuses code inside function bodies that the parser accepts:
    CTX000 with its message, whether rules run on the file or only the syntax check."""
    (tmp_path / "r.py").write_text(src)
    res = subprocess.run([*CTXLINT, "check", "--no-cache", "--output-format", "json", *select, "r.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    (f,) = json.loads(res.stdout)
    assert f["code"] == "CTX000" and msg in f["message"]


def test_17_valid_loops_and_async_code_are_not_refused(tmp_path):
    (tmp_path / "ok.py").write_text("async def g(xs):\n    for x in xs:\n        if x:\n            continue\n"
                                    "        await x\n    f = lambda: [y for y in xs]\n    while True:\n        break\n")
    res = subprocess.run([*CTXLINT, "check", "--no-cache", "--output-format", "json", "ok.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert json.loads(res.stdout) == []
