"""Engine actions: what a seat may do, and their JSON form of the replay format."""

from __future__ import annotations

from typing import NamedTuple

from .cards import card_str, parse_card, parse_suit, SUITS

__all__ = ["Action", "KINDS", "PLAY"]

PLAY = "play"
KINDS = (
    "pass", "announce", "let_partner_name", "solo", "give", "name_trump", "die_letzte",
    "play", "spritz", "stoss", "ledig", "karten_weg", "take_blind", "play_hand", "exchange",
)
_CARD_KINDS = {"play", "give", "exchange"}
_SUIT_KINDS = {"announce", "name_trump"}


class Action(NamedTuple):
    """One action: ``kind`` plus the card, suit, solo size or meld flag it needs."""

    kind: str
    card: int = -1
    suit: int = -1
    size: str = ""
    meld: bool = False

    def to_dict(self) -> dict:
        """The replay-format dict (without ``seat``)."""
        out: dict = {"action": self.kind}
        if self.card >= 0:
            out["card"] = card_str(self.card)
        if self.suit >= 0:
            out["suit"] = SUITS[self.suit]
        if self.size:
            out["kind"] = self.size
        if self.meld:
            out["meld"] = True
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "Action":
        """Parse a replay-format action dict (``seat`` is ignored); ``ValueError`` if malformed."""
        kind = data.get("action")
        if kind not in KINDS:
            raise ValueError(f"unknown action: {kind!r}")
        allowed = {"seat", "action"}
        c = s = -1
        size = ""
        meld = False
        if kind in _CARD_KINDS:
            c = parse_card(data.get("card"))
            allowed.add("card")
        if kind in _SUIT_KINDS:
            s = parse_suit(data.get("suit"))
            allowed.add("suit")
        if kind == "solo":
            size = data.get("kind")
            if size not in ("small", "grand"):
                raise ValueError(f"solo kind must be small or grand, not {size!r}")
            allowed.add("kind")
        if kind == "play":
            meld = data.get("meld", False)
            if not isinstance(meld, bool):
                raise ValueError("meld must be true or false")
            allowed.add("meld")
        extra = set(data) - allowed
        if extra:
            raise ValueError(f"unexpected keys for {kind}: {', '.join(sorted(extra))}")
        return cls(kind, c, s, size, meld)

    def __str__(self) -> str:
        parts = [self.kind]
        if self.card >= 0:
            parts.append(card_str(self.card))
        if self.suit >= 0:
            parts.append(SUITS[self.suit])
        if self.size:
            parts.append(self.size)
        if self.meld:
            parts.append("meld")
        return " ".join(parts)
