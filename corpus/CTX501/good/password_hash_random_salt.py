# expect: none
"""Reduced from xinference's api/oauth2/advanced/crypto.py: a bcrypt password hash is
built with a fresh random salt, so it is stored and verified, never looked up as a key;
the sha256 only pre-hashes passwords longer than bcrypt's 72 bytes."""
import hashlib

import bcrypt


def get_password_hash(password: str, salt_scope: str = "") -> str:
    pwd_bytes = password.encode("utf-8")
    if len(pwd_bytes) > 72:
        pwd_bytes = hashlib.sha256(pwd_bytes).digest()[:72]
    salt = bcrypt.gensalt()
    return bcrypt.hashpw(pwd_bytes, salt).decode("utf-8")
