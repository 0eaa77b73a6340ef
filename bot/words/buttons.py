"""Buttons: their rows, the tokens they carry and the labels of engine actions, in the reader's language.

Buttons carry tokens of :mod:`bot.protocol.tokens`; engine actions travel as :mod:`bot.protocol.actarg` args.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from bot.protocol import actarg, tokens
from bot.protocol.outgoing import Button
from bot.table.record import Table
from bot.words.cards import card_label, suit_label, suit_name
from bot.words.i18n import t
from engine.actions import Action
from engine.cards import SUITS, card_str

__all__ = ["Rows", "MEMORY_BUTTONS", "announce_count", "in_rows", "button_token", "action_label", "declare_label", "parsed_action",
           "act_button"]

_ROW = 4
Rows = tuple[tuple[Button, ...], ...]

MEMORY_BUTTONS = ("ranking", "tonight", "stats")
"""The verbs of the buttons a finished table shows under »Revanche«: what the chat remembers, of this game."""


def in_rows(buttons: list[Button], width: int = _ROW) -> Rows:
    """``buttons`` in rows of ``width``."""
    return tuple(tuple(buttons[i:i + width]) for i in range(0, len(buttons), width))


def button_token(table: Table, version: int, verb: str, arg: str = "") -> str:
    """The token of a button of ``table`` as shown at ``version``."""
    return tokens.make(table.id, version, verb, arg)


def announce_count(view: dict[str, Any], suit: int) -> int:
    """What announcing ``suit`` tells the table for the hand of ``view``: its jacks and cards of the suit."""
    letter = SUITS[suit]
    return sum(1 for c in view.get("hand", ()) if c[0] == "J" or c[1] == letter)


def action_label(lang: str, action: Action, game: str, view: dict[str, Any]) -> str:
    """The button label of an engine ``action`` for the reader of ``view``."""
    kind = action.kind
    public = view.get("public") or {}
    if kind == "play":
        label = card_label(card_str(action.card), lang)
        if action.meld:
            meld = 40 if view.get("trump") == SUITS[action.card // 9] else 20
            return t(lang, "act.meld", card=label, meld=meld)
        return label
    if kind in ("give", "exchange"):
        return t(lang, f"act.{kind}", card=card_label(card_str(action.card), lang))
    if kind == "name_trump":
        return f"{suit_label(action.suit)} {suit_name(action.suit, lang)}"
    if kind == "announce":  # shown on his turn only, when the best so far stays put: a tie with it is "mit"
        count = announce_count(view, action.suit)
        key = "act.mit" if count == public.get("best") else "act.announce"
        return t(lang, key, count=count, suit=suit_label(SUITS[action.suit]))
    if kind == "solo":
        if game == "alter_schafkopf":
            return t(lang, "act.lechdich")
        return t(lang, f"act.solo_{action.size}")
    if kind == "pass":
        return t(lang, "act.pass_rams" if game == "rams" else "act.pass")
    if kind == "spritz":
        calls = public.get("spritz") or 0
        return t(lang, "act.spritz_back", times=2 ** (calls + 1)) if calls else t(lang, "act.spritz")
    if kind == "stoss":
        return t(lang, "act.stoss_back" if public.get("stoss") else "act.stoss")
    return t(lang, f"act.{kind}")


def declare_label(lang: str, kinds) -> str:
    """The names of the ways to play alone in ``kinds`` (``Ledig``, ``Karten weg``), for a text."""
    return " / ".join(t(lang, f"act.{kind}") for kind in sorted(kinds))


@lru_cache(maxsize=4096)
def parsed_action(items: tuple[tuple[str, Any], ...]) -> Action:
    """An action of a view's ``legal`` list (its dict's items), parsed once per process."""
    return Action.from_dict(dict(items))


@lru_cache(maxsize=4096)
def _action_arg(action: Action) -> str:
    return actarg.encode(action)


def act_button(table: Table, version: int, action: Action, view: dict[str, Any]) -> Button:
    """The button of an engine ``action`` for the reader of ``view``."""
    return Button(action_label(table.lang, action, table.game, view), button_token(table, version, "act", _action_arg(action)))
