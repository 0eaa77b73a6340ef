"""The heuristic player of each game by game id: ``choose(state, seat)`` and ``offer(state, seat)``.

The strong player plays its samples out with it, and its sampled deals fit the opponents' play to it.
"""

from __future__ import annotations

from types import ModuleType

from ..registry import game_class
from . import bauer, bauerchen, bauernstoss, rams

__all__ = ["heuristic"]

_PLAYERS = {module.__name__.rsplit(".", 1)[-1]: module for module in (bauernstoss, bauerchen, bauer, rams)}
"""The heuristic player modules by the name of the game module they play (Alter Schafkopf's is Bauernstoß's)."""


def heuristic(game: str) -> ModuleType:
    """The heuristic player module of ``game``."""
    return _PLAYERS[game_class(game).__module__.rsplit(".", 1)[-1]]
