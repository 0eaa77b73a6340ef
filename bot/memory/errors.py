"""What the memory refuses: a season, game or person it does not know (the service answers in the chat's words)."""

from __future__ import annotations

__all__ = ["Unknown", "UnknownSeason", "UnknownGame", "UnknownPerson"]


class Unknown(LookupError):
    """Something the chat's memory does not know; ``what`` is what was asked for (bounded, for the answer)."""

    def __init__(self, what: str) -> None:
        self.what = what[:64]
        super().__init__(self.what)


class UnknownSeason(Unknown):
    """No such season in this chat (seasons are numbered from 1)."""


class UnknownGame(Unknown):
    """No such game."""


class UnknownPerson(Unknown):
    """Nobody of that name (or key) is recorded in this chat."""
