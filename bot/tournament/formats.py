"""The formats a tournament can be played in, their options, and the field sizes they take."""

from __future__ import annotations

import math
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Format", "FORMATS", "FormatOptions", "FIELD_MIN", "FIELD_MAX", "RAMS_TABLE", "KNOCKOUT_SIZES"]


class Format(StrEnum):
    """A tournament format."""

    ROUND_ROBIN = "round-robin"
    GROUPS_KO = "groups-ko"
    SWISS = "swiss"


FORMATS = tuple(f.value for f in Format)
"""The formats' names as the command line and the chats take them."""

FIELD_MIN = {"team": 2, "rams": 3}
"""The fewest entrants: two teams; three Rams players (one table)."""

FIELD_MAX = 64
"""The most entrants of any tournament (teams, or players in Rams)."""

RAMS_TABLE = (3, 7)
"""The fewest and the most players at a Rams table."""

KNOCKOUT_SIZES = (2, 4, 8, 16, 32)
"""How many teams a knockout may take (the rest play placing games)."""


class FormatOptions(BaseModel):
    """The organizer's choices for the format; each applies where it says, the others are ignored.

    Attributes:
        legs: round robin and the groups: every pair meets once or twice (Rams: the table plays
            that many matches).
        groups: groups-ko: how many groups (default: groups of about four; Rams: tables of about
            ``table_size``).
        knockout: groups-ko, team games: how many teams go on to the knockout (default 4, fewer in a
            field of 2 or 3: semi-finals, final and small final); the others play placing games pair by pair.
        rounds: swiss: how many rounds (default: the rounds a knockout of the field would take,
            at least 3 in Rams).
        table_size: Rams: how many players a table should have (3 to 7, default 4).
    """

    model_config = ConfigDict(extra="forbid")

    legs: int = Field(default=1, ge=1, le=2)
    groups: int | None = Field(default=None, ge=1, le=16)
    knockout: int | None = Field(default=None, ge=2, le=32)
    rounds: int | None = Field(default=None, ge=1, le=63)
    table_size: int = Field(default=4, ge=RAMS_TABLE[0], le=RAMS_TABLE[1])

    def swiss_rounds(self, n: int, rams: bool) -> int:
        """The number of Swiss rounds for ``n`` entrants."""
        if self.rounds is not None:
            return self.rounds
        return max(3 if rams else 1, math.ceil(math.log2(n)))

    def knockout_size(self, n: int) -> int:
        """How many of ``n`` teams play the knockout: the option, else 4, at most the largest power of two in ``n``."""
        return max(k for k in KNOCKOUT_SIZES if k <= min(self.knockout or 4, n))

    def group_count(self, n: int, rams: bool) -> int:
        """The number of groups for ``n`` entrants."""
        if self.groups is not None:
            return self.groups
        return max(1, round(n / (self.table_size if rams else 4)))
