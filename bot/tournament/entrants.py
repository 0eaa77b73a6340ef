"""Who plays in a tournament: a team of two in the team games, one player in Rams."""

from __future__ import annotations

import random

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Entrant", "ID_MAX", "NAME_MAX", "teams_by_lot"]

ID_MAX = 64
"""The longest entrant id (the chat side's own key, e.g. ``t:123:456``)."""

NAME_MAX = 100
"""The longest entrant name (``Flieger+Kai``)."""


class Entrant(BaseModel):
    """One entrant: a team (two members) or, in Rams, one player.

    Attributes:
        id: unique within the tournament, chosen by the caller.
        name: what standings show.
        members: the players' ids (chat user ids, or names offline); one in Rams, two in team games.
        withdrawn: set by :meth:`Tournament.withdraw`; a withdrawn entrant is paired no more.
    """

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=ID_MAX)
    name: str = Field(min_length=1, max_length=NAME_MAX)
    members: list[str] = Field(default_factory=list, max_length=2)
    withdrawn: bool = False


def teams_by_lot(players: list[tuple[str, str]], seed: int) -> tuple[list[Entrant], str | None]:
    """Pair players who registered alone into teams of two by lot, reproducibly from ``seed``.

    Args:
        players: each player's id and name, in registration order.
        seed: the lot's seed (the tournament's, published after the draw).

    Returns:
        The teams (id ``"lot:<first id>+<second id>"``, name ``"First+Second"``) and the player left
        over when their number is odd (``None`` otherwise).
    """
    drawn = list(players)
    random.Random(f"{seed}:teams").shuffle(drawn)
    left = drawn.pop()[0] if len(drawn) % 2 else None
    teams = [Entrant(id=f"lot:{a[0]}+{b[0]}"[:ID_MAX], name=f"{a[1]}+{b[1]}"[:NAME_MAX], members=[a[0], b[0]])
             for a, b in zip(drawn[::2], drawn[1::2])]
    return teams, left
