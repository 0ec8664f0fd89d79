"""Optional accounts: sign-up, log-in, sessions, password change and deletion.

Anyone still plays by link as a guest; an account links the seats its person takes to one name,
so that matches count for him (ratings, the profile). What is chosen, and why:

- **Passwords** are hashed with argon2id by ``argon2-cffi`` (the maintained binding of the
  reference implementation; its default parameters, RFC 9106's low-memory profile), checked in
  constant time, and rehashed on log-in when the defaults change.
- **Sessions** are a signed cookie, ``itsdangerous``'s :class:`URLSafeTimedSerializer` (what
  Starlette's own SessionMiddleware uses underneath, without the middleware's dict-in-a-cookie
  for every request): the cookie holds the account's id and its *generation*, which a password
  change bumps, so every other session of the account ends with it. ``HttpOnly`` (no script
  reads it), ``SameSite=Lax`` (no cross-site POST carries it), ``Secure`` over HTTPS, 30 days.
- **CSRF**: every POST that the cookie authorises (log-out, password, deletion, the queue, an
  invitation) must carry ``X-CSRF-Token``, an HMAC of the session cookie that only this site's
  pages can read (``GET /api/me``), besides the Origin check of :mod:`sueca.server.guard`.
- **Log-in is rate limited** per name and per address (:class:`~sueca.server.limits.
  AddressLimiter`): 5 tries a minute for one name, 10 from one address (sign-ups count there
  too), and 240 hashes a minute for the whole server; argon2's cost (about half a second of a
  core per hash here, on purpose) is paid only within them, on two threads off the loop.

The key that signs cookies is a file made at first start (mode 0600): ``<db>.secret`` beside a
SQLite database, else ``session.secret`` in the user's data directory (:func:`load_secret`;
``sueca serve`` reads it), so cookies survive a restart and a cluster's workers on one machine
share it.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, URLSafeTimedSerializer

from sueca.server.limits import AddressLimiter, TokenBucket
from sueca.server.players import Account

COOKIE = "sueca_session"
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30
NAME_MIN, NAME_MAX = 2, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 256
_HASHER = PasswordHasher()
# A hash to check against when a name has no account, so that a log-in takes as long for an
# unknown name as for a wrong password (the timing names no account).
_DUMMY_HASH = _HASHER.hash("not a password of anyone's")


class AccountError(ValueError):
    """A request about accounts refused; ``code`` names why, ``status`` its HTTP status."""

    def __init__(self, message: str, code: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def name_key(name: str) -> str:
    """The form of a name that must be unique: NFKC, case folded (Ana and ANA are one)."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name: Any) -> str:
    """An account's name, cleaned (spaces made one), or :class:`AccountError`: 2 to 24
    letters, digits, spaces, ``-``, ``_`` or ``.``."""
    if not isinstance(name, str):
        raise AccountError("the name must be text", "bad_name")
    cleaned = " ".join(unicodedata.normalize("NFC", name).split())
    if not NAME_MIN <= len(cleaned) <= NAME_MAX:
        raise AccountError(f"a name has {NAME_MIN} to {NAME_MAX} characters", "bad_name")
    if not all(c.isalnum() or c in " -_." for c in cleaned):
        raise AccountError("a name has letters, digits, spaces, '-', '_' and '.' only",
                           "bad_name")
    return cleaned


def check_password(password: Any) -> str:
    if not isinstance(password, str):
        raise AccountError("the password must be text", "bad_password")
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters",
                           "bad_password")
    return password


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def verify(account: Account | None, password: str) -> bool:
    """Whether ``password`` is the account's (an unknown account costs the same time)."""
    try:
        return _HASHER.verify(account.password if account else _DUMMY_HASH, password) and (
            account is not None)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(account: Account) -> bool:
    try:
        return _HASHER.check_needs_rehash(account.password)
    except InvalidHashError:
        return False


@dataclass(frozen=True)
class Session:
    account_id: int
    generation: int


class Sessions:
    """Signs and reads session cookies, and the CSRF token of each."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        self._serializer = URLSafeTimedSerializer(secret, salt="sueca-session")

    def cookie(self, account: Account) -> str:
        return self._serializer.dumps({"a": account.id, "g": account.generation})

    def read(self, cookie: str | None) -> Session | None:
        """The session a cookie holds, or None (absent, forged, expired, malformed)."""
        if not cookie or len(cookie) > 512:
            return None
        try:
            data = self._serializer.loads(cookie, max_age=SESSION_DAYS * 86400)
        except BadSignature:
            return None
        if (not isinstance(data, dict) or type(data.get("a")) is not int
                or type(data.get("g")) is not int):
            return None
        return Session(data["a"], data["g"])

    def csrf(self, cookie: str) -> str:
        return hmac.new(self._secret, b"csrf:" + cookie.encode(), hashlib.sha256).hexdigest()

    def csrf_ok(self, cookie: str | None, token: str | None) -> bool:
        return bool(cookie and token) and hmac.compare_digest(
            self.csrf(str(cookie)), str(token)[:128])


class LoginLimits:
    """Log-in tries per name and per address (token buckets that forget idle ones), and the
    whole server's argon2 hashes a minute (many addresses together cannot queue more)."""

    def __init__(self, per_name: float = 5, per_address: float = 10,
                 server_per_minute: float = 240) -> None:
        self.names = AddressLimiter(per_name, int(per_name))
        self.addresses = AddressLimiter(per_address, int(per_address))
        self.server = TokenBucket(server_per_minute / 60, int(server_per_minute / 4))

    def take(self, key: str, address: str) -> bool:
        return self.addresses.take(address) and self.names.take(key) and self.server.take()

    def take_signup(self, address: str) -> bool:
        return self.addresses.take(address) and self.server.take()


def load_secret(path: Path) -> bytes:
    """The key that signs session cookies: read from ``path``, or made there (0600)."""
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            return data
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    data = secrets.token_hex(32).encode()
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
    return data
