"""Who looks at the web table: signed links (Discord, the browser at home) and Telegram's Mini App init data.

A **link token** binds a platform user to one table until it expires:
``<table>.<platform>.<user id>.<expiry>.<mac>``, the expiry in base 36 epoch seconds and the mac the
first 22 characters (132 bits) of the URL-safe base64 of HMAC-SHA256 over the rest, keyed with
the server's secret. It is URL-safe and about 70 characters long; anyone who changes a part of it
(another user, another table, a later expiry) needs the secret to mend the mac. A **watch token**
(``<table>.<platform>.<user id>.<expiry>.w.<mac>``) shows the table's public view only, never a hand,
even to a player of the table: a channel's link to watch, the second window at home. One with ``.a``
instead shows his seat if he holds one, else the public view (a page that follows the match to a new
table of its chat).

Telegram's **init data** is checked as Telegram documents it: the secret key is
HMAC-SHA256(key="WebAppData", msg=bot token), the hash is HMAC-SHA256 of the data-check string
(every field but ``hash``, sorted, as ``key=value`` lines) under that key, compared in constant
time, and ``auth_date`` may be at most ``max_age_s`` old. The user id in it picks the seat, its
``start_param`` names the table. Signed by Telegram, the ``start_param`` shows the table was opened from
a link to it (the group's table message): whoever holds no seat there watches. A table named by the
page's own URL instead (a private chat's ``web_app`` button, no start parameter) shows a seat only.

Each :class:`Viewer` carries its ``access``: :data:`SEAT` (his seat, else refused), :data:`ANY` (his
seat, else the public view) or :data:`WATCH` (the public view).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl

__all__ = ["Viewer", "SEAT", "ANY", "WATCH", "sign", "read", "init_data", "mini_app_link", "page_url", "link_url",
           "LINK_TTL_S",
           "INIT_DATA_MAX_AGE_S", "MAX_CREDENTIAL"]

LINK_TTL_S = 12 * 3600
"""How long a link token holds."""
INIT_DATA_MAX_AGE_S = 24 * 3600
"""How old Telegram's init data may be (its ``auth_date``)."""
MAX_CREDENTIAL = 4096
"""The longest token or init data looked at (Telegram's init data is well below 1 KB)."""
_MAC_CHARS = 22
_TOKEN = re.compile(r"([0-9A-Za-z]{1,16})\.([a-z]{1,16})\.([0-9A-Za-z_-]{1,64})\.([0-9a-z]{1,10})(?:\.([wa]))?"
                    r"\.([0-9A-Za-z_-]{22})")
_TABLE = re.compile(r"[0-9A-Za-z]{1,16}")
SEAT = "seat"
"""Access to the viewer's own seat only (a hand's link, a private chat's Mini App)."""
ANY = "any"
"""Access to the viewer's seat, else the table's public view (the group's Mini App link)."""
WATCH = "watch"
"""Access to the table's public view only (a watch token)."""
_SCOPES = {SEAT: "", ANY: ".a", WATCH: ".w"}
"""Each access's mark in a link token."""


@dataclass(frozen=True)
class Viewer:
    """A checked viewer: his platform and user id, the table he may look at, his name and his access there."""

    platform: str
    user_id: str
    table: str
    name: str = ""
    expires: float = 0.0
    access: str = SEAT


def _mac(secret: bytes, payload: str) -> str:
    digest = hmac.new(secret, b"stammtisch-web1|" + payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:_MAC_CHARS]


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def sign(secret: bytes, table: str, platform: str, user_id: str, now: float, ttl_s: float = LINK_TTL_S,
         access: str = "seat") -> str:
    """A link token for ``platform`` user ``user_id`` at ``table``, good for ``ttl_s`` from ``now``.

    ``access`` is what it shows: :data:`SEAT`, :data:`ANY` or :data:`WATCH`.

    Raises:
        ValueError: a part would not read back (ids outside ``[0-9A-Za-z_-]``, too long).
    """
    payload = f"{table}.{platform}.{user_id}.{_base36(int(now + ttl_s))}" + _SCOPES[access]
    token = f"{payload}.{_mac(secret, payload)}"
    if not _TOKEN.fullmatch(token):
        raise ValueError("a web link cannot name this table or user")
    return token


def read(secret: bytes, token: str, now: float) -> Viewer | None:
    """The viewer a link token names, or ``None`` if it is forged, tampered with or expired."""
    m = _TOKEN.fullmatch(token) if isinstance(token, str) and len(token) <= MAX_CREDENTIAL else None
    if m is None:
        return None
    payload = token.rsplit(".", 1)[0]
    if not hmac.compare_digest(_mac(secret, payload), m.group(6)):
        return None
    expires = int(m.group(4), 36)
    if expires < now:
        return None
    access = next(a for a, scope in _SCOPES.items() if scope == (f".{m.group(5)}" if m.group(5) else ""))
    return Viewer(m.group(2), m.group(3), m.group(1), expires=float(expires), access=access)


def init_data(bot_token: str, data: str, now: float, table: str = "",
              max_age_s: float = INIT_DATA_MAX_AGE_S) -> Viewer | None:
    """The Telegram user that signed ``data`` (a Mini App's ``initData``), or ``None`` if it does not check out.

    The table is the data's ``start_param`` (a direct link's ``startapp``), else ``table`` (the page's
    own URL names it where Telegram passes no start parameter, as for a ``web_app`` button).
    """
    if not isinstance(data, str) or not data or len(data) > MAX_CREDENTIAL:
        return None
    try:
        fields = dict(parse_qsl(data, keep_blank_values=True, strict_parsing=True))
    except ValueError:
        return None
    given = fields.pop("hash", "")
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    if not hmac.compare_digest(hmac.new(secret, check.encode(), hashlib.sha256).hexdigest(), given):
        return None
    auth_date = fields.get("auth_date", "")
    if not auth_date.isdecimal() or not now - max_age_s <= int(auth_date) <= now + 300:
        return None
    try:
        user = json.loads(fields.get("user", ""))
        user_id = user["id"]
    except (ValueError, TypeError, KeyError):
        return None
    if not isinstance(user_id, int) or isinstance(user_id, bool):
        return None
    linked = fields.get("start_param", "")
    table = linked or table
    if not _TABLE.fullmatch(table or ""):
        return None
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
    return Viewer("telegram", str(user_id), table, name=name[:64], expires=int(auth_date) + max_age_s,
                  access=ANY if linked else SEAT)


def mini_app_link(bot_username: str, app_name: str, table: str) -> str:
    """The direct link that opens the Mini App ``app_name`` of the bot at ``table`` (in groups too)."""
    return f"https://t.me/{bot_username}/{app_name}?startapp={table}"


def page_url(base_url: str, table: str) -> str:
    """The web table's page at ``table`` for Telegram's ``web_app`` button (the init data names the viewer)."""
    return f"{base_url.rstrip('/')}/?table={table}"


def link_url(base_url: str, secret: bytes, table: str, platform: str, user_id: str, now: float,
             access: str = SEAT) -> str:
    """The web table's page with a link token for one user at ``table``, from at least 11 hours of its 12.

    The token's time is ``now`` rounded down to the hour, so a hand re-rendered within the hour
    carries the same link (its message is not edited for a new token alone). ``access`` as for :func:`sign`.
    """
    token = sign(secret, table, platform, user_id, now // 3600 * 3600, access=access)
    return f"{base_url.rstrip('/')}/?t={token}"
