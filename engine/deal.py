"""Starting deals: deck shuffles and the checks every dealt hand must pass."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import card_str, cards_in

__all__ = ["check_cards", "check_hands", "deal_rounds", "shuffled"]


def check_cards(deck: int, groups: Sequence[tuple[str, Sequence[int], int]]) -> None:
    """Raise ``ValueError`` unless every card is in ``deck``, appears once, and each group has its size.

    ``groups`` holds (name, cards, expected size) triples, e.g. ("hand of seat 0", [...], 8).
    """
    seen: dict[int, str] = {}
    for name, cards, size in groups:
        if len(cards) != size:
            raise ValueError(f"{name} has {len(cards)} cards, expected {size}")
        for c in cards:
            if not deck >> c & 1:
                raise ValueError(f"{card_str(c)} is not in this game's deck ({name})")
            if c in seen:
                raise ValueError(f"{card_str(c)} appears twice ({seen[c]} and {name})")
            seen[c] = name


def check_hands(deck: int, hands: Sequence[Sequence[int]], size: int, blind: Sequence[int] = (),
                turned: Sequence[int] = ()) -> None:
    """:func:`check_cards` for a game without blind or turned cards: every hand of ``size`` cards."""
    check_cards(deck, [(f"hand of seat {i}", h, size) for i, h in enumerate(hands)]
                + [("blind", blind, 0), ("turned cards", turned, 0)])


def shuffled(deck: int, rng) -> list[int]:
    """The cards of ``deck`` in an order drawn by ``rng`` (anything with ``shuffle``)."""
    cards = cards_in(deck)
    rng.shuffle(cards)
    return cards


def deal_rounds(order: Sequence[int], n: int, dealer: int, sizes: Sequence[int]) -> list[list[int]]:
    """Deal ``order`` in rounds of packets (``sizes``, e.g. 2 then 3) from the forehand on.

    Returns each seat's hand in the order it was dealt, seat 0 first.
    """
    hands: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    for size in sizes:
        for i in range(n):
            hands[(dealer + 1 + i) % n].extend(order[pos:pos + size])
            pos += size
    return hands
