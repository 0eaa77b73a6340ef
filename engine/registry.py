"""The registry of games: each game module registers its state class under its id.

It imports no game: ``engine/__init__`` imports every game module once, and each registers itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import State

__all__ = ["register", "game_class", "game_ids"]

_GAMES: dict[str, type["State"]] = {}
ORDER = ("bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams")


def register(cls: type["State"]) -> type["State"]:
    """Class decorator: make ``cls`` the state class of game ``cls.GAME``."""
    _GAMES[cls.GAME] = cls
    return cls


def game_class(game_id: str) -> type["State"]:
    """The state class of ``game_id``; ``ValueError`` for an unknown game."""
    try:
        return _GAMES[game_id]
    except KeyError:
        raise ValueError(f"unknown game: {game_id!r} (games: {', '.join(game_ids())})") from None


def game_ids() -> list[str]:
    """The ids of all registered games, in the order the rules list them."""
    return sorted(_GAMES, key=lambda g: (ORDER.index(g) if g in ORDER else len(ORDER), g))

