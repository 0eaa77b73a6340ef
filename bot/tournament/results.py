"""A match's result as the tournament counts it, and how it is read from a finished table.

In the team games side 0 sat in seats 0 and 2 (the engine's team 0), side 1 in seats 1 and 3;
in Rams side ``i`` sat in seat ``i``. The points a side scores are the game's own (see
:data:`POINTS`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Outcome", "SideResult", "MatchResult", "POINTS", "result_of", "deal_points"]

POINTS = {
    "bauernstoss": "striche",
    "alter_schafkopf": "striche",
    "bauerchen": "points",
    "bauer": "brote",
    "rams": "tricks",
}
"""What a side's ``points_for`` counts in each game: the Striche of the Partie, Bauerchen's deal points
with melds over the whole match, the Brote won, the tricks taken in Rams."""


class Outcome(StrEnum):
    """How a side came out of a match of two sides."""

    WON = "won"
    LOST = "lost"
    DRAWN = "drawn"


class SideResult(BaseModel):
    """One side's part of a match result.

    Attributes:
        entrant: the entrant's id.
        outcome: won, lost or drawn (a match of two sides; ``None`` in Rams).
        place: the place at the table in Rams, 1 = winner (``None`` in the team games).
        points_for: the game's points this side scored (:data:`POINTS`).
        points_against: the points the other side scored (team games; 0 in Rams).
        kartoffeln: Rams' penalty marks (0 in the team games).
    """

    model_config = ConfigDict(extra="forbid")

    entrant: str
    outcome: Outcome | None = None
    place: int | None = Field(default=None, ge=1, le=7)
    points_for: int = Field(default=0, ge=0, le=1_000_000)
    points_against: int = Field(default=0, ge=0, le=1_000_000)
    kartoffeln: int = Field(default=0, ge=0, le=1_000_000)


class MatchResult(BaseModel):
    """The result of one pairing: one :class:`SideResult` per side, in the pairing's side order.

    Attributes:
        pairing: the pairing's key (``"3.2"``: round 3, table 2).
        sides: the sides' results.
        forfeit: decided without being played to its end (a forfeit, a withdrawal, a bye).
    """

    model_config = ConfigDict(extra="forbid")

    pairing: str
    sides: list[SideResult] = Field(min_length=1, max_length=7)
    forfeit: bool = False

    def winners(self) -> list[str]:
        """The ids of the sides that won (Rams: the first place); none for a draw or a double forfeit."""
        return [s.entrant for s in self.sides if s.outcome == Outcome.WON or s.place == 1]


def deal_points(game: str, result: dict[str, Any] | None) -> list[int]:
    """What each team scored in one deal of Bauerchen (points plus melds); zeros for another game or a thrown-in deal.

    The chat side and the offline tool add these up over a match for :func:`result_of`.
    """
    if game != "bauerchen" or not result or result.get("thrown_in"):
        return [0, 0]
    return [p + m for p, m in zip(result.get("points", [0, 0]), result.get("melds", [0, 0]))]


def result_of(game: str, pairing: str, entrants: list[str], match: dict[str, Any],
              points: list[int] | None = None) -> MatchResult:
    """The result of a finished match read from the engine's ``match`` (``rules/replay-format.md``).

    Args:
        game: the game's id.
        pairing: the pairing's key.
        entrants: the entrant ids in side order (team games: two; Rams: one per seat).
        match: the final match state (its ``winner`` set; in Rams its full ``ranking``).
        points: Bauerchen's summed :func:`deal_points` per team (other games read ``match``).

    Raises:
        ValueError: the match is not decided or does not fit the entrants.
    """
    if game == "rams":
        ranking = match.get("ranking") or []
        if sorted(ranking) != list(range(len(entrants))):
            raise ValueError("the Rams match has no full ranking")
        tricks, marks = match["tricks"], match["kartoffeln"]
        return MatchResult(pairing=pairing, sides=[
            SideResult(entrant=e, place=ranking.index(seat) + 1, points_for=tricks[seat], kartoffeln=marks[seat])
            for seat, e in enumerate(entrants)])
    winner = match.get("winner")
    if winner not in (0, 1) or len(entrants) != 2:
        raise ValueError("the match is not decided")
    if game == "bauerchen":
        scored = list(points or [0, 0])
    else:
        scored = list(match["brote"] if game == "bauer" else match["striche"])
    return MatchResult(pairing=pairing, sides=[
        SideResult(entrant=e, outcome=Outcome.WON if side == winner else Outcome.LOST,
                   points_for=scored[side], points_against=scored[1 - side])
        for side, e in enumerate(entrants)])
