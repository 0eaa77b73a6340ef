"""Game options typed in a chat: read by each option's declared type, refused in the chat's language.

``neu bauernstoss target=30``, ``option die_letzte nein``: the text is read as the option's type
(:func:`engine.option_specs`): a whole number is ASCII digits, a number may have a decimal point
or comma, a boolean is an on/off word, a choice one of its values, and an option whose default
depends on the table (Rams' ``target``) takes ``standard``. Anything else, or a value out of
bounds, is refused with a message that names the option and what it allows.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

import engine
from bot.table.refused import Refused, Text
from engine import OptionError, OptionSpec

__all__ = ["parse_text", "parse", "refusal", "allowed", "currency", "switch", "named", "DURATIONS", "CURRENCY",
           "CURRENCY_MAX"]

DURATIONS = {"reminder_after": "remind", "autoplay_after": "auto", "declare_wait": "declare_wait"}
"""The table's timer settings, set like options (``option reminder_after 2h``), and the table field each sets."""
CURRENCY = "currency"
"""The table setting Rams' settlement is counted in, set like an option (``option currency €``)."""
CURRENCY_MAX = 6
_ON = {"an", "ein", "ja", "on", "yes", "true", "1"}
_OFF = {"aus", "nein", "off", "no", "false", "0"}
_DEFAULT = {"standard", "default", "auto", "null"}
_WHOLE = re.compile(r"[0-9]{1,9}")
_NUMBER = re.compile(r"([0-9]{1,9})(?:[.,]([0-9]{1,9}))?")


def _read(spec: OptionSpec, text: str) -> Any:
    """``text`` read as ``spec``'s type, or ``text`` itself if it is not of that type."""
    word = text.strip().lower()
    if spec.nullable and word in _DEFAULT:
        return None
    if spec.kind == "bool":
        return True if word in _ON else False if word in _OFF else text
    if spec.kind == "whole":
        return int(word) if _WHOLE.fullmatch(word) else text
    if spec.kind == "number":
        m = _NUMBER.fullmatch(word)
        if m is None:
            return text
        return float(f"{m.group(1)}.{m.group(2)}") if m.group(2) else int(m.group(1))
    return next((c for c in spec.choices if str(c).lower() == word), text)


def parse_text(game: str, name: str, text: str) -> Any:
    """The value of option ``name`` of ``game`` typed as ``text``; :class:`OptionError` if not allowed."""
    spec = engine.option_specs(game).get(name)
    if spec is None:
        raise OptionError(game, name, None)
    value = _read(spec, text)
    if not spec.accepts(value):
        raise OptionError(game, name, spec, text)
    return value


def parse(game: str, options: dict[str, Any]) -> BaseModel:
    """``engine.parse_options`` with a refusal in the players' words instead of an :class:`OptionError`."""
    try:
        return engine.parse_options(game, options)
    except OptionError as exc:
        raise refusal(exc) from None


def allowed(spec: OptionSpec) -> Text:
    """What ``spec`` allows, as a text in the reader's language."""
    if spec.kind == "bool":
        text = Text("allowed.bool")
    elif spec.kind == "choice":
        text = Text("allowed.choice", choices=", ".join(str(c) for c in spec.choices))
    else:
        text = Text(f"allowed.{spec.kind}", lo=f"{spec.lo:g}", hi=f"{spec.hi:g}")
    return Text("allowed.or_default", allowed=text) if spec.nullable else text


def currency(text: str) -> str:
    """A currency for Rams' settlement (``Fr.``, ``€``, ``CHF``): a short word, or a refusal saying so."""
    word = text.strip()
    if not word or len(word) > CURRENCY_MAX or not word.isprintable() or any(c.isspace() for c in word):
        raise Refused("bad_option_value", name=named(CURRENCY), allowed=Text("allowed.currency", max=CURRENCY_MAX))
    return word


def switch(name: str, text: str) -> bool:
    """A table setting that is on or off (``option tipps an``), read as a boolean option is; else a refusal."""
    word = text.strip().lower()
    if word not in _ON | _OFF:
        raise Refused("bad_option_value", name=named(name), allowed=Text("allowed.bool"))
    return word in _ON


def named(name: str) -> Text:
    """An option as players read it: its label in their language and the key they type (``Ziel (target)``)."""
    return Text("opt.named", label=Text(f"opt.{name}"), name=name)


def refusal(exc: OptionError) -> Refused:
    """The refusal of a bad option: the option's name and what it allows, or the game's options."""
    if exc.spec is None:
        return Refused("unknown_option", name=exc.name, names=", ".join(engine.option_specs(exc.game)))
    return Refused("bad_option_value", name=named(exc.name), allowed=allowed(exc.spec))
