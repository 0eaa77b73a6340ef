"""A pairing: who meets whom at which table of which round, and what that game decides."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Stage", "Pairing"]


class Stage(BaseModel):
    """Where a pairing stands in its format.

    Attributes:
        group: the group's letter in a group phase (``"A"``), else ``None``.
        places: the places this game decides in a knockout, best and worst: a semi-final of four
            ``[1, 4]``, the final ``[1, 2]``, the small final ``[3, 4]``, the game for place 5
            ``[5, 6]``; ``None`` in a round robin, a group or a Swiss round.
    """

    model_config = ConfigDict(extra="forbid")

    group: str | None = None
    places: tuple[int, int] | None = None


class Pairing(BaseModel):
    """One match of a round: two teams, or in Rams a table of 3 to 7 players.

    Attributes:
        round: the round, from 1.
        slot: the table within the round, from 1.
        sides: the entrant ids in seat order (team games: side 0 sits in seats 0 and 2); one id
            alone is a bye.
        stage: the group or the places at stake.
    """

    model_config = ConfigDict(extra="forbid")

    round: int = Field(ge=1)
    slot: int = Field(ge=1)
    sides: list[str] = Field(min_length=1, max_length=7)
    stage: Stage = Field(default_factory=Stage)

    @property
    def key(self) -> str:
        """The pairing's key within its tournament: ``"round.slot"``."""
        return f"{self.round}.{self.slot}"

    @property
    def bye(self) -> bool:
        """Whether this is a bye (one entrant alone, who wins it)."""
        return len(self.sides) == 1
