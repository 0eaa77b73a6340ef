"""Who plays in a tournament: a team of two in the team games, one player in Rams."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Entrant", "ID_MAX", "NAME_MAX"]

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
