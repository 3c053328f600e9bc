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
