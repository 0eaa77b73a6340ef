"""Each game's standings: the figures of every entrant and the order of its tie-breakers, written as data.

The criteria, in order (the first that separates two entrants decides):

- Bauernstoß, Alter Schafkopf: Partien won, then Striche scored (the "Strichausbeute"),
  then head to head, then the lot.
- Bauerchen: matches won, then points scored, then head to head, then the lot.
- Bauer: Brote won, then matches won, then head to head, then the lot.
- Rams: place points (at every table, one point for each player finished behind), then tricks,
  then fewer Kartoffeln, then the lot.

Head to head counts the matches won among the tied entrants only. The lot is the order the draw
gave the entrants (from the tournament's published seed), so it is fixed before a card is played.
A draw (only a double forfeit can make one) counts half a win; a bye in a round robin counts
nothing (every team has as many), a bye in a Swiss round counts as a forfeit won.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from .results import MatchResult, Outcome

__all__ = ["CRITERIA", "RANKING", "Standing", "figures", "rank"]

CRITERIA = ("won", "points_for", "place_points", "fewer_kartoffeln", "head_to_head", "lot")
"""Every tie-breaker's name; the chats word each one."""

RANKING = {
    "bauernstoss": ("won", "points_for", "head_to_head", "lot"),
    "alter_schafkopf": ("won", "points_for", "head_to_head", "lot"),
    "bauerchen": ("won", "points_for", "head_to_head", "lot"),
    "bauer": ("points_for", "won", "head_to_head", "lot"),
    "rams": ("place_points", "points_for", "fewer_kartoffeln", "lot"),
}
"""Each game's tie-breakers in order (see the module's docstring)."""


class Standing(BaseModel):
    """One row of the standings.

    Attributes:
        rank: 1 for the first; no two rows share a rank (the lot ends every tie).
        entrant: the entrant's id.
        name: the entrant's name.
        played: matches played (forfeits included, byes in a round robin not).
        won: matches won (Partien in Bauernstoß); drawn and lost likewise.
        points_for: the game's points scored (``results.POINTS``: Striche, points, Brote, tricks).
        points_against: the points the opponents scored against this entrant (team games).
        place_points: Rams: players finished behind, over every table.
        kartoffeln: Rams' penalty marks.
        decided_by: the criterion that put this row below the row above (``None`` for the first
            row; ``"knockout"`` where a knockout game decided it, ``"knockout_lot"`` where that game ended
            level and the lot decided it; ``"group"`` where the group
            placing did).
        group: the group's letter during a group phase.
        withdrawn: the entrant withdrew.
    """

    model_config = ConfigDict(extra="forbid")

    rank: int
    entrant: str
    name: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0
    place_points: int = 0
    kartoffeln: int = 0
    decided_by: str | None = None
    group: str | None = None
    withdrawn: bool = False


def figures(ids: Iterable[str], results: Iterable[MatchResult]) -> dict[str, dict[str, int]]:
    """Every entrant's summed figures over ``results`` (the counting fields of :class:`Standing`)."""
    rows = {i: {"played": 0, "won": 0, "drawn": 0, "lost": 0, "points_for": 0, "points_against": 0,
                "place_points": 0, "kartoffeln": 0} for i in ids}
    for result in results:
        size = len(result.sides)
        for side in result.sides:
            row = rows.get(side.entrant)
            if row is None:
                continue
            row["played"] += 1
            if side.outcome is not None:
                row[{Outcome.WON: "won", Outcome.DRAWN: "drawn", Outcome.LOST: "lost"}[side.outcome]] += 1
            if side.place is not None:
                row["place_points"] += size - side.place
                row["won"] += side.place == 1
            row["points_for"] += side.points_for
            row["points_against"] += side.points_against
            row["kartoffeln"] += side.kartoffeln
    return rows


def _value(criterion: str, entrant: str, rows: dict[str, dict[str, int]], tied: set[str],
           results: list[MatchResult], lot: dict[str, int]) -> int:
    """``entrant``'s value for ``criterion``; higher ranks better."""
    row = rows[entrant]
    if criterion == "won":
        return 2 * row["won"] + row["drawn"]
    if criterion == "fewer_kartoffeln":
        return -row["kartoffeln"]
    if criterion == "head_to_head":
        return sum(2 * (s.outcome == Outcome.WON) + (s.outcome == Outcome.DRAWN)
                   for r in results if {x.entrant for x in r.sides} <= tied and len(r.sides) > 1
                   for s in r.sides if s.entrant == entrant)
    if criterion == "lot":
        return -lot[entrant]
    return row[criterion]


def rank(ids: list[str], criteria: tuple[str, ...], results: list[MatchResult],
         lot: dict[str, int]) -> list[tuple[str, str | None]]:
    """``ids`` best first, each with the criterion that put it below the one before (``None`` for the first).

    Args:
        ids: the entrants to rank.
        criteria: the tie-breakers in order (:data:`RANKING`); the last should be ``"lot"``.
        results: the results counted.
        lot: each entrant's position in the draw (the lot), lower first.
    """
    rows = figures(ids, results)
    tiers: list[tuple[str | None, list[str]]] = [(None, sorted(ids, key=lambda i: lot[i]))]
    for criterion in criteria:
        split: list[tuple[str | None, list[str]]] = []
        for why, tier in tiers:
            if len(tier) == 1:
                split.append((why, tier))
                continue
            values = {i: _value(criterion, i, rows, set(tier), results, lot) for i in tier}
            for value in sorted(set(values.values()), reverse=True):
                split.append((criterion if split and split[-1][1][0] in tier else why,
                              [i for i in tier if values[i] == value]))
        tiers = split
    return [(i, why if n == 0 else None) for why, tier in tiers for n, i in enumerate(tier)]
