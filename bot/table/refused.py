"""What the table's rules hand the words to say: refusals and texts by key, not yet translated.

The table room decides *that* something is refused or worth saying; :mod:`bot.words.i18n` decides
how it reads in the reader's language. A :class:`Text` or :class:`Refused` names a text key and its
params, and a user's own words repeated in a text are cut to :data:`ECHO_MAX` characters.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Refused", "Text", "ECHO_MAX", "clip"]

ECHO_MAX = 48
"""The most characters of a user's own words or of a name that a text repeats."""


def clip(text: str, limit: int = ECHO_MAX) -> str:
    """``text`` cut to at most ``limit`` characters (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


class Text:
    """A text by key and params, translated when the text it is a param of is (``allowed.bool`` ...)."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params


class Refused(Exception):
    """A command that is not allowed now: ``key`` names the player's message in :mod:`bot.words.i18n`.

    ``fresh`` names what the presser of a stale button is shown anew with the message, if his copy
    is out of date: ``"hand"`` or ``"table"`` (``""``: nothing).
    """

    def __init__(self, key: str, fresh: str = "", **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.fresh = fresh
        self.params = params
