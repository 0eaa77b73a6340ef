"""A whole tournament of computer teams (players in Rams), played offline: ``stammtisch tournament``.

Every pairing is a match at its own table, played to its end by computer players of one kind,
from shuffles seeded by the tournament's seed and the pairing's key: the same seed gives the same
draw, the same matches and the same standings.
"""

from __future__ import annotations

import random
from typing import Any

import engine
from engine.rams import settlement
from bot.table.computer import kind_of
from bot.tools.simulate import kind_deal, random_deal
from bot.tournament import Entrant, MatchResult, Pairing, Tournament, draw, result_of
from bot.tournament.results import deal_points
from bot.tournament.tournament import check_field_size

__all__ = ["play_tournament", "play_match", "entrants"]


def entrants(game: str, count: int) -> list[Entrant]:
    """``count`` computer entrants: teams of two (``Team 1`` of ``1a`` and ``1b``), or Rams players (``Player 1``)."""
    if game == "rams":
        return [Entrant(id=f"p{i}", name=f"Player {i}", members=[f"{i}"]) for i in range(1, count + 1)]
    return [Entrant(id=f"t{i}", name=f"Team {i}", members=[f"{i}a", f"{i}b"]) for i in range(1, count + 1)]


def play_match(t: Tournament, pairing: Pairing, kind: str) -> MatchResult:
    """Play ``pairing``'s match to its end with computer players of ``kind``; its result.

    Team games: side 0 sits in seats 0 and 2, side 1 in seats 1 and 3. Rams: one seat per side.
    """
    rng = random.Random(f"{t.seed}:{pairing.key}")
    seats = len(pairing.sides) if t.rams else 4
    state = engine.new_match(t.game, rng, seats, t.table_options, dealer=rng.randrange(seats))
    points = [0, 0]
    while True:
        if kind == "random":
            random_deal(state, rng)
        else:
            kind_deal(state, rng, kind)
        points = [a + b for a, b in zip(points, deal_points(t.game, state.result))]
        if state.match_over():
            return result_of(t.game, pairing.key, pairing.sides, state.match, points)
        state = engine.next_deal(state, rng)


def _paid(t: Tournament) -> dict[str, float]:
    """Rams: what each player paid over all his tables by the settlement (his place and his Kartoffeln)."""
    options = engine.parse_options("rams", t.table_options)
    paid: dict[str, float] = {e.id: 0.0 for e in t.entrants}
    for result in t.results.values():
        ranking = sorted(range(len(result.sides)), key=lambda s: result.sides[s].place or 0)
        money = settlement(options, ranking, [side.kartoffeln for side in result.sides])
        for side, amount in zip(result.sides, money):
            paid[side.entrant] += amount
    return {e: round(amount, 2) for e, amount in paid.items()}


def _row(t: Tournament, row: Any, paid: dict[str, float]) -> dict[str, Any]:
    """One row of the final standings with its game's columns (Rams: places, tricks, Kartoffeln, money)."""
    if t.rams:
        figures = {"played": row.played, "won": row.won, "place_points": row.place_points, "tricks": row.points_for,
                   "kartoffeln": row.kartoffeln, "paid": paid[row.entrant]}
    else:
        figures = {f: getattr(row, f) for f in ("played", "won", "drawn", "lost", "points_for", "points_against")}
    return {"rank": row.rank, "team": row.name, **figures, "decided_by": row.decided_by}


def play_tournament(game: str, format: str, count: int, seed: int = 0, table_options: dict | None = None,
                    format_options: dict | None = None, kind: str = "normal") -> dict[str, Any]:
    """Draw and play a whole tournament of ``count`` computer entrants; its final standings as a JSON-ready dict.

    Each row of ``standings`` holds ``rank``, ``team``, the game's figures and ``decided_by``: in the team games
    ``played``, ``won``, ``drawn``, ``lost``, ``points_for``, ``points_against`` (Striche, points or Brote); in
    Rams ``played``, ``won`` (first places), ``place_points``, ``tricks``, ``kartoffeln`` and ``paid`` (by the
    settlement, in the table's unit).

    ``ValueError`` (a :class:`~bot.tournament.TournamentError` among them) for a bad argument.
    """
    kind = kind_of(kind)
    check_field_size(game, count)
    t = draw(game, format, entrants(game, count), seed, format_options, table_options)
    matches = 0
    while not t.is_over:
        for pairing in t.open_pairings():
            t.record(play_match(t, pairing, kind))
            matches += 1
        t.next_round()
    paid = _paid(t) if t.rams else {}
    return {
        "game": game,
        "format": format,
        "entrants": count,
        "seed": seed,
        "kind": kind,
        "options": engine.parse_options(game, t.table_options).model_dump(),
        "format_options": t.options.model_dump(),
        "rounds": t.round,
        "matches": matches,
        "standings": [_row(t, row, paid) for row in t.final_ranking()],
    }
