"""Engine actions as the short argument of a button token (``pl.JC``, ``pl.QH.m``, ``nt.H``, ``sp``).

A token argument holds at most 16 characters of ``[0-9A-Za-z_.-]``; every engine action fits
in 7. Parsing is strict: anything that is not exactly an encoded action gives ``None``.
"""

from __future__ import annotations

from engine.actions import Action
from engine.cards import SUITS, card_str, parse_card, parse_suit

__all__ = ["encode", "decode", "is_play"]

_CODES = {
    "pass": "pa", "announce": "an", "let_partner_name": "lp", "solo": "so", "give": "gv",
    "name_trump": "nt", "die_letzte": "dl", "play": "pl", "spritz": "sp", "stoss": "st", "ledig": "le",
    "karten_weg": "kw", "take_blind": "tb", "play_hand": "ph", "exchange": "ex",
}
_KINDS = {code: kind for kind, code in _CODES.items()}
_SIZES = {"small": "s", "grand": "g"}
_SIZE_OF = {v: k for k, v in _SIZES.items()}


def encode(action: Action) -> str:
    """The token argument of ``action``."""
    parts = [_CODES[action.kind]]
    if action.card >= 0:
        parts.append(card_str(action.card))
    if action.suit >= 0:
        parts.append(SUITS[action.suit])
    if action.size:
        parts.append(_SIZES[action.size])
    if action.meld:
        parts.append("m")
    return ".".join(parts)


def decode(arg: str) -> Action | None:
    """The action a token argument encodes, or ``None`` if it is not one."""
    code, *rest = arg.split(".")
    kind = _KINDS.get(code)
    if kind is None:
        return None
    try:
        if kind in ("play", "give", "exchange") and rest:
            meld = rest[1:] == ["m"] and kind == "play"
            if rest[1:] and not meld:
                return None
            action = Action(kind, parse_card(rest[0]), meld=meld)
        elif kind in ("announce", "name_trump") and len(rest) == 1:
            action = Action(kind, suit=parse_suit(rest[0]))
        elif kind == "solo" and len(rest) == 1 and rest[0] in _SIZE_OF:
            action = Action(kind, size=_SIZE_OF[rest[0]])
        elif not rest and kind not in ("play", "give", "exchange", "announce", "name_trump", "solo"):
            action = Action(kind)
        else:
            return None
    except ValueError:
        return None
    return action if encode(action) == arg else None


def is_play(arg: str) -> bool:
    """Whether a token argument plays a card (a meld included)."""
    return arg.split(".", 1)[0] == _CODES["play"]
