"""Round robin by the circle method: every entrant meets every other once per leg, a bye for an odd field."""

from __future__ import annotations

__all__ = ["circle"]


def circle(order: list[str], legs: int = 1) -> list[list[tuple[str, str | None]]]:
    """The rounds of a round robin of ``order`` (the drawn order): each a list of pairs, ``None`` a bye.

    The first entrant stays put and the others turn round him; the fixed entrant changes sides every
    round so that nobody sits on one side throughout. A second leg repeats the first with the sides
    swapped. An odd field adds a bye, which every entrant gets once per leg.
    """
    field: list[str | None] = list(order) + ([None] if len(order) % 2 else [])
    n = len(field)
    rounds: list[list[tuple[str, str | None]]] = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = field[i], field[n - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a
            pairs.append((a, b) if a is not None else (b, None))
        rounds.append(pairs)
        field = [field[0], field[-1], *field[1:-1]]
    if legs == 2:
        rounds += [[(b, a) if b is not None else (a, None) for a, b in pairs] for pairs in rounds]
    return rounds
