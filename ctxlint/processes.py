"""Process hygiene shared by the lint pool (`engine`) and the sandbox runner: a
worker or child must not outlive the ctxlint process that started it.
"""

from __future__ import annotations

import os
import sys
import threading
import time


def die_with_parent(watch_seconds: float = 1.0) -> None:
    """Make this process end when its parent does (a `kill -9` of ctxlint included).

    Linux: prctl(PR_SET_PDEATHSIG, SIGKILL) through ctypes (the kernel kills this
    process when the thread that forked it exits). Elsewhere, or when prctl is
    unavailable: a daemon thread that checks every `watch_seconds` whether the
    parent is still the one it started with and calls `os._exit(1)` when not.
    If the parent is already gone when this is called, the process exits at once.
    """
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        import ctypes
        import signal
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0:  # 1 = PR_SET_PDEATHSIG
                if os.getppid() != parent:  # the parent died before the request took effect
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while True:
            time.sleep(watch_seconds)
            if os.getppid() != parent:
                os._exit(1)
    threading.Thread(target=watch, name="ctxlint-parent-watch", daemon=True).start()


def become_subreaper() -> bool:
    """Linux: make this process the reaper of its orphaned descendants
    (prctl PR_SET_CHILD_SUBREAPER), so a grandchild whose parent exits (a double
    fork) is re-parented here instead of to init and stays in this process's tree.
    Returns whether it took effect (False elsewhere)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # 36 = PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


#: Suffix of the temporary files `fixers.write_atomic` writes beside a target.
TEMP_SUFFIX = ".ctxlint-tmp"
#: Age (seconds) after which a temporary file whose writer is unknown is stale.
STALE_SECONDS = 3600.0


def pid_alive(pid: int) -> bool:
    """Is there a process `pid` (signal 0; a process of another user counts)?"""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def temp_prefix(name: str) -> str:
    """The prefix of a temporary file for `name`: `.NAME.PID.` (the writer's pid,
    so that a later run can tell a file left by a killed writer)."""
    return f".{name}.{os.getpid()}."


def remove_if_stale(path: str) -> bool:
    """Remove a temporary file `.NAME.PID.XXXX.ctxlint-tmp` left by a writer that is
    gone (killed with `kill -9` between writing it and renaming it); one without a
    pid is stale after STALE_SECONDS. Returns whether it was removed; never raises."""
    base = os.path.basename(path)
    if not (base.startswith(".") and base.endswith(TEMP_SUFFIX)):
        return False
    parts = base[: -len(TEMP_SUFFIX)].rsplit(".", 2)
    try:
        stale = len(parts) == 3 and parts[1].isdigit() and not pid_alive(int(parts[1]))
        if not stale and not (len(parts) == 3 and parts[1].isdigit()):
            stale = time.time() - os.lstat(path).st_mtime > STALE_SECONDS
        if stale:
            os.unlink(path)
        return stale
    except OSError:
        return False
