"""The knockout after the groups: a bracket that plays out every place, and placing games for the rest.

The best ``k`` of the seeding (a power of two) play a bracket in which every game decides a range
of places: the winners go on for the upper half of the range, the losers play for the lower half,
down to the games for two places (the final for 1 and 2, the small final for 3 and 4, ...). The
teams seeded below ``k`` meet pair by pair for the places behind (the 5th and 6th seeds play for
place 5, ...); an odd one out takes the last place without a game. Two teams of one group do not
meet in the bracket's first round where swapping the lower seeds of two games avoids it.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["bracket_order", "first_games", "next_games"]

Game = tuple[list[str], tuple[int, int]]
"""A game to make: the sides and the places it decides."""


def bracket_order(k: int) -> list[int]:
    """The seeds 1 to ``k`` (a power of two) in bracket order: neighbours meet, 1 and 2 only in the final."""
    order = [1]
    while len(order) < k:
        size = 2 * len(order)
        order = [s for seed in order for s in (seed, size + 1 - seed)]
    return order


def first_games(seeded: list[str], k: int, group_of: Mapping[str, str] | None = None) -> list[Game]:
    """The first knockout round of ``seeded`` (best first): the bracket of the best ``k``, then the placing games.

    ``group_of`` (each team's group) keeps teams of one group apart in the bracket where it can.
    """
    order = bracket_order(k)
    pairs = [[seeded[order[i] - 1], seeded[order[i + 1] - 1]] for i in range(0, k, 2)]
    group = (group_of or {}).get
    for pair in pairs:
        if group(pair[0]) is None or group(pair[0]) != group(pair[1]):
            continue
        for other in pairs:
            if group(pair[0]) != group(other[1]) and group(other[0]) != group(pair[1]):
                pair[1], other[1] = other[1], pair[1]
                break
    games: list[Game] = [(pair, (1, k)) for pair in pairs]
    rest = seeded[k:]
    for i in range(0, len(rest), 2):
        place = k + 1 + i
        pair = rest[i:i + 2]
        games.append((pair, (place, place + len(pair) - 1)))
    return games


def next_games(decided: list[tuple[tuple[int, int], str, str]]) -> list[Game]:
    """The next round's games from the last round's, in slot order: each as (places, winner, loser).

    Games of two places or fewer are final; the others send their winners on for the upper half of
    their places and their losers for the lower half, neighbours meeting.
    """
    ranges: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for places, winner, loser in decided:
        if places[1] - places[0] + 1 > 2:
            ranges.setdefault(places, []).append((winner, loser))
    games: list[Game] = []
    for (best, worst), pairs in sorted(ranges.items()):
        middle = (best + worst) // 2
        for half, who in (((best, middle), 0), ((middle + 1, worst), 1)):
            for i in range(0, len(pairs), 2):
                games.append(([pairs[i][who], pairs[i + 1][who]], half))
    return games
