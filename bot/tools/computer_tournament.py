"""A whole tournament of computer teams (players in Rams), played offline: ``stammtisch tournament``.

Every pairing is a match at its own table, played to its end by computer players of one kind,
from shuffles seeded by the tournament's seed and the pairing's key: the same seed gives the same
draw, the same matches and the same standings.
"""

from __future__ import annotations

import random
from typing import Any

import engine
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


def play_tournament(game: str, format: str, count: int, seed: int = 0, table_options: dict | None = None,
                    format_options: dict | None = None, kind: str = "random") -> dict[str, Any]:
    """Draw and play a whole tournament of ``count`` computer entrants; its final standings as a JSON-ready dict.

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
    figures = ("played", "won", "lost", "place_points", "points_for", "kartoffeln") if t.rams else \
        ("played", "won", "drawn", "lost", "points_for", "points_against")
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
        "standings": [{"rank": row.rank, "team": row.name, **{f: getattr(row, f) for f in figures},
                       "decided_by": row.decided_by} for row in t.final_ranking()],
    }
