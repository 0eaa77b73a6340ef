"""Card and suit labels for players (``J♣``, ``10♥``, German ``B♣``) and parsing what they type.

The engine writes cards as two letters (``JC``, ``TH``). Players see suit symbols and, in
German, the German rank letters (Bube ``B``, Dame ``D``); they may type either form, a
symbol or a suit name (``JC``, ``10♥``, ``b♣``, ``dame herz``).
"""

from __future__ import annotations

from functools import lru_cache

from bot.words.i18n import t
from engine.cards import SUITS

__all__ = ["SYMBOLS", "card_label", "cards_label", "suit_label", "suit_name", "parse_card_text",
           "parse_suit_text"]

SYMBOLS = "♣♠♥♦"
"""The symbol of each suit, in the engine's suit order C S H D."""

_RANK_LABELS = {
    "de": {"A": "A", "T": "10", "K": "K", "Q": "D", "J": "B"},
    "en": {"A": "A", "T": "10", "K": "K", "Q": "Q", "J": "J"},
}
_SUIT_WORDS = {
    "c": 0, "♣": 0, "♧": 0, "kreuz": 0, "eichel": 0, "clubs": 0, "club": 0,
    "s": 1, "♠": 1, "♤": 1, "pik": 1, "schippe": 1, "schibbe": 1, "schaufel": 1, "spades": 1, "spade": 1,
    "h": 2, "♥": 2, "♡": 2, "herz": 2, "hearts": 2, "heart": 2,
    "d": 3, "♦": 3, "♢": 3, "karo": 3, "ecken": 3, "schellen": 3, "diamonds": 3, "diamond": 3,
}
_RANK_WORDS = {
    "a": "A", "as": "A", "ass": "A", "ace": "A",
    "10": "T", "t": "T", "z": "T", "zehn": "T", "ten": "T",
    "k": "K", "könig": "K", "koenig": "K", "king": "K",
    "q": "Q", "d": "Q", "dame": "Q", "queen": "Q",
    "j": "J", "b": "J", "bube": "J", "bauer": "J", "jack": "J",
    "9": "9", "8": "8", "7": "7", "6": "6",
}


def suit_label(suit: str | int) -> str:
    """The symbol of a suit given as letter (``"H"``) or index."""
    return SYMBOLS[SUITS.index(suit) if isinstance(suit, str) else suit]


def suit_name(suit: str | int, lang: str) -> str:
    """The suit's name in ``lang`` (``Herz``, ``hearts``), from the language's catalog."""
    return t(lang, f"suit.{suit if isinstance(suit, str) else SUITS[suit]}")


@lru_cache(maxsize=None)
def card_label(card: str, lang: str = "de") -> str:
    """A player's label for engine notation ``card``: ``JC`` → ``B♣`` (de) or ``J♣`` (en)."""
    rank = _RANK_LABELS.get(lang, _RANK_LABELS["de"]).get(card[0], card[0])
    return rank + suit_label(card[1])


def cards_label(cards: list[str], lang: str = "de", sep: str = " ") -> str:
    """Several card labels joined by ``sep``."""
    return sep.join(card_label(c, lang) for c in cards)


def parse_card_text(text: str) -> str | None:
    """The engine notation of a typed card (``JC``, ``10♥``, ``b♣``, ``dame herz``), else ``None``."""
    word = "".join(text.lower().split())
    for cut in range(1, len(word)):
        rank, suit = _RANK_WORDS.get(word[:cut]), _SUIT_WORDS.get(word[cut:])
        if rank is not None and suit is not None:
            return rank + SUITS[suit]
    return None


def parse_suit_text(text: str) -> str | None:
    """The suit letter of a typed suit (``H``, ``♥``, ``herz``, ``hearts``), else ``None``."""
    suit = _SUIT_WORDS.get(text.strip().lower())
    return None if suit is None else SUITS[suit]
