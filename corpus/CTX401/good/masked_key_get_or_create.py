# expect: none
"""One opaque handle per distinct credential: `mask_credential` mints a fresh token
only the first time it sees a credential, and returns the stored one afterwards.
The two maps grow with the set of credentials the process is configured with, not
with calls."""
import secrets
import threading

_HANDLE_PREFIX = "cred-handle-"
_plain_by_handle: dict[str, str] = {}
_handle_by_plain: dict[str, str] = {}
_maps_lock = threading.Lock()


def mask_credential(credential: str) -> str:
    if not credential:
        return credential
    with _maps_lock:
        known = _handle_by_plain.get(credential)
        if known is not None:
            return known
        handle = _HANDLE_PREFIX + secrets.token_hex(12)
        _plain_by_handle[handle] = credential
        _handle_by_plain[credential] = handle
    return handle


def unmask(text: str) -> str:
    with _maps_lock:
        pairs = list(_plain_by_handle.items())
    for handle, plain in pairs:
        text = text.replace(handle, plain)
    return text
