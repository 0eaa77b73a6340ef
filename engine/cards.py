"""Cards, suits and decks in the notation of the rules (``JC``, ``TH``, ``7D``).

A card is an ``int`` id ``suit * 9 + rank`` so that hands and decks are bit masks:
suits ``C S H D`` are 0..3, ranks ``A T K Q J 9 8 7 6`` are 0..8.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "SUITS", "RANKS", "CLUBS", "SPADES", "HEARTS", "DIAMONDS", "ALL_CARDS",
    "card", "parse_card", "card_str", "suit_of", "rank_of", "bit", "mask_of",
    "cards_in", "card_strs", "EYES", "SUIT_MASKS",
    "JACKS", "DECK20", "DECK32", "DECK36", "parse_suit",
]

SUITS = "CSHD"
RANKS = "ATKQJ9876"
CLUBS, SPADES, HEARTS, DIAMONDS = 0, 1, 2, 3
ALL_CARDS = range(36)


def card(rank: str, suit: str) -> int:
    """The id of the card with rank letter ``rank`` and suit letter ``suit``."""
    return SUITS.index(suit) * 9 + RANKS.index(rank)


def parse_card(text: object) -> int:
    """Parse ``"JC"`` into a card id; raise ``ValueError`` for anything else."""
    if not isinstance(text, str) or len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return card(text[0], text[1])


def parse_suit(text: object) -> int:
    """Parse a suit letter (``C S H D``) into 0..3; raise ``ValueError`` otherwise."""
    if not isinstance(text, str) or len(text) != 1 or text not in SUITS:
        raise ValueError(f"not a suit: {text!r}")
    return SUITS.index(text)


_NOTATION = tuple(RANKS[c % 9] + SUITS[c // 9] for c in ALL_CARDS)


def card_str(c: int) -> str:
    """The two-letter notation of card id ``c``."""
    return _NOTATION[c]


def suit_of(c: int) -> int:
    """The printed suit (0..3) of card ``c``."""
    return c // 9


def rank_of(c: int) -> int:
    """The rank index (0 = ace .. 8 = six) of card ``c``."""
    return c % 9


def bit(c: int) -> int:
    """The mask with only card ``c``."""
    return 1 << c


def mask_of(cards: Iterable[int]) -> int:
    """The mask of the given card ids."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_in(mask: int) -> list[int]:
    """The card ids in ``mask``, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_strs(mask_or_cards: int | Iterable[int]) -> list[str]:
    """Card notation for a mask or a sequence of ids (sequence order kept)."""
    seq = cards_in(mask_or_cards) if isinstance(mask_or_cards, int) else mask_or_cards
    return [_NOTATION[c] for c in seq]



_EYE_BY_RANK = (11, 10, 4, 3, 2, 0, 0, 0, 0)
EYES = tuple(_EYE_BY_RANK[c % 9] for c in ALL_CARDS)
"""Eyes (card points) per card id: A 11, T 10, K 4, Q 3, J 2, others 0."""



SUIT_MASKS = tuple(((1 << 9) - 1) << (9 * s) for s in range(4))
"""The mask of every card (6s included) of each printed suit."""
JACKS = mask_of(card("J", s) for s in SUITS)
DECK36 = (1 << 36) - 1
DECK32 = DECK36 & ~mask_of(card("6", s) for s in SUITS)
DECK20 = mask_of(card(r, s) for r in "ATKQJ" for s in SUITS)
