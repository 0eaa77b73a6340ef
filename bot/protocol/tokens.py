"""Button tokens: ``st1:<table>:<version>:<verb>:<arg>``, one regex for every platform.

A token names the table, the version it was rendered for, and what the press does. It is
client-controlled data: the service re-validates everything it claims. Telegram allows 64
bytes of callback data, Discord 100 characters; every token fits in 64.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Token", "make", "parse", "MAX_BYTES"]

MAX_BYTES = 64
_TOKEN = re.compile(r"st1:([0-9A-Za-z]{1,16}):([0-9]{1,9}):([a-z_]{1,16}):([0-9A-Za-z_.-]{0,16})")
"""The whole token (``fullmatch``): ASCII digits only, nothing after it, not even a newline."""


@dataclass(frozen=True)
class Token:
    """A parsed button token."""

    table: str
    version: int
    verb: str
    arg: str = ""

    def __str__(self) -> str:
        return make(self.table, self.version, self.verb, self.arg)


def make(table: str, version: int, verb: str, arg: str = "") -> str:
    """The token text; ``ValueError`` if it would not parse back or exceeds 64 bytes."""
    text = f"st1:{table}:{version}:{verb}:{arg}"
    if len(text.encode()) > MAX_BYTES or not _TOKEN.fullmatch(text):
        raise ValueError(f"cannot make a token of {text!r}")
    return text


def parse(text: str) -> Token | None:
    """The token in ``text``, or ``None`` if it is not a well-formed token (forged or foreign data)."""
    m = _TOKEN.fullmatch(text) if isinstance(text, str) else None
    if not m:
        return None
    return Token(m.group(1), int(m.group(2)), m.group(3), m.group(4))
