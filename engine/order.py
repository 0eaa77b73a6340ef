"""Card order of one deal: which cards are trumps, the suit each card follows, its strength."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import ALL_CARDS, RANKS, card

__all__ = ["TRUMP", "TrumpOrder"]

TRUMP = 4
"""The effective suit of every trump card (printed suits are 0..3)."""


class TrumpOrder:
    """The rank tables of one trump choice, precomputed for the trick core.

    ``eff[c]`` is the suit card ``c`` follows (``TRUMP`` for trumps), ``strength[c]`` orders
    cards (every trump above every plain card), ``suit_mask[s]`` holds the cards that follow
    effective suit ``s`` and ``above[c]`` the cards of ``c``'s effective suit that beat it.
    """

    __slots__ = ("trump", "trumps", "eff", "strength", "suit_mask", "above", "trump_list", "ranked")

    def __init__(self, trump: int, trump_list: Sequence[int], plain_ranks: str, deck: int) -> None:
        self.trump = trump
        self.trump_list = tuple(trump_list)
        trump_set = set(trump_list)
        eff = [0] * 36
        strength = [-1] * 36
        for c in ALL_CARDS:
            if c in trump_set:
                eff[c] = TRUMP
                strength[c] = 100 + len(trump_list) - self.trump_list.index(c)
            else:
                eff[c] = c // 9
                r = RANKS[c % 9]
                strength[c] = len(plain_ranks) - plain_ranks.index(r) if r in plain_ranks else 0
        self.eff = tuple(eff)
        self.strength = tuple(strength)
        masks = [0] * 5
        for c in ALL_CARDS:
            if deck >> c & 1:
                masks[eff[c]] |= 1 << c
        self.suit_mask = tuple(masks)
        self.trumps = masks[TRUMP]
        above = [0] * 36
        for c in ALL_CARDS:
            m = 0
            for d in ALL_CARDS:
                if deck >> d & 1 and eff[d] == eff[c] and strength[d] > strength[c]:
                    m |= 1 << d
            above[c] = m
        self.above = tuple(above)
        self.ranked = tuple(tuple(sorted((c for c in ALL_CARDS if eff[c] == s), key=lambda c: (-strength[c], c)))
                            for s in range(5))
        """Per effective suit, its cards strongest first."""

    def winner_index(self, cards: Sequence[int]) -> int:
        """The index in ``cards`` (a trick in play order) of the card that wins it."""
        eff, strength = self.eff, self.strength
        led = eff[cards[0]]
        best, best_i = -1, 0
        for i, c in enumerate(cards):
            e = eff[c]
            if e == TRUMP or e == led:
                s = strength[c]
                if s > best:
                    best, best_i = s, i
        return best_i

    def beats(self, c: int, best: int) -> bool:
        """Whether card ``c`` played now would take the trick from ``best``, the card winning it."""
        return bool(self.above[best] >> c & 1) or self.eff[c] == TRUMP and self.eff[best] != TRUMP

    def highest(self, mask: int) -> int:
        """The strongest card of ``mask`` (one effective suit) or -1 if empty."""
        if not mask:
            return -1
        for c in self.ranked[self.eff[(mask & -mask).bit_length() - 1]]:
            if mask >> c & 1:
                return c
        return -1


def ranks_trumps(ranks: str, suit: int) -> list[int]:
    """The cards of ``suit`` in the rank order ``ranks`` (high to low)."""
    return [card(r, "CSHD"[suit]) for r in ranks]
