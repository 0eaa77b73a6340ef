"""Typed tournament commands: ``turnier neu bauernstoss gruppen target=20 runde=2d``, ``turnier anmelden Pat``.

``turnier`` (``tournament``) takes a sub-command word; :func:`parse` returns its name and the rest, and
:func:`new_args` reads what the organizer typed after ``neu GAME``: the format, ``doppelt`` (a round robin
played twice), the round's time (``runde=2d``), the deadline rule (``regel=computer|wertung``) and the
table options, as ``neu`` for a table takes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

import engine
from bot.ops.settings import parse_duration
from bot.table import options as typed_options
from bot.table.refused import Refused
from bot.words.textcmd import game_id, games_text

__all__ = ["SUB_VERBS", "FORMAT_WORDS", "RULE_WORDS", "NewArgs", "parse", "new_args", "ROUND_LEAST", "ROUND_MOST"]

SUB_VERBS = {
    "new": ("neu", "new", "eröffnen", "open"),
    "join": ("anmelden", "join", "register", "dabei"),
    "confirm": ("bestätigen", "confirm", "ok"),
    "leave": ("abmelden", "leave", "zurückziehen", "withdraw"),
    "start": ("los", "start", "auslosen", "draw"),
    "standings": ("tabelle", "standings", "stand", "table"),
    "abort": ("abbrechen", "abort"),
}
"""Each sub-command of ``turnier`` and its words."""
FORMAT_WORDS = {
    "round-robin": ("jeder", "jedergegenjeden", "rundenturnier", "round-robin", "roundrobin", "rr", "liga"),
    "groups-ko": ("gruppen", "gruppenko", "groups", "groups-ko", "groupsko", "ko", "wm"),
    "swiss": ("schweizer", "schweizersystem", "swiss"),
}
"""Each format and the words for it."""
RULE_WORDS = {
    "computer": ("computer", "bot", "cpu"),
    "forfeit": ("wertung", "forfeit", "kampflos"),
}
"""Each deadline rule and the words for it."""
ROUND_LEAST = timedelta(minutes=10)
"""The shortest time a round may be given."""
ROUND_MOST = timedelta(days=30)
"""The longest time a round may be given."""
_TWICE = ("doppelt", "twice", "hinundrück", "double")
_SUB = {w: v for v, words in SUB_VERBS.items() for w in words}
_FORMAT = {w: v for v, words in FORMAT_WORDS.items() for w in words}
_RULE = {w: v for v, words in RULE_WORDS.items() for w in words}
_ROUND = ("runde", "round", "frist", "deadline")
_RULE_NAMES = ("regel", "rule")
_MAX_WORDS = 20


@dataclass
class NewArgs:
    """What the organizer chose with ``turnier neu``: anything not typed keeps its default."""

    game: str
    format: str = "round-robin"
    twice: bool = False
    round_s: int | None = None
    rule: str = "computer"
    options: dict = field(default_factory=dict)


def _word(text: str) -> str:
    return "".join(text.lower().strip().lstrip("/").split())


def parse(args: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The sub-command of ``turnier ARGS`` and its words; with no words, ``standings``."""
    if not args:
        return "standings", ()
    name = _SUB.get(_word(args[0]))
    if name is None:
        raise Refused("tn.usage")
    return name, tuple(args[1:_MAX_WORDS])


def new_args(args: tuple[str, ...]) -> NewArgs:
    """The game, format, round time, rule and table options of ``turnier neu GAME [...]``; refuses bad input."""
    if not args:
        raise Refused("new_needs_game", games=games_text())
    game = game_id(args[0])
    if game is None:
        raise Refused("unknown_game", word=args[0], games=games_text())
    chosen = NewArgs(game)
    for item in args[1:_MAX_WORDS]:
        word = _word(item)
        name, sep, value = item.partition("=")
        if word in _FORMAT:
            chosen.format = _FORMAT[word]
        elif word in _TWICE:
            chosen.twice = True
        elif not sep or not name:
            raise Refused("bad_option_syntax", item=item)
        elif _word(name) in _ROUND:
            chosen.round_s = _round(value)
        elif _word(name) in _RULE_NAMES:
            if _word(value) not in _RULE:
                raise Refused("tn.bad_rule")
            chosen.rule = _RULE[_word(value)]
        else:
            try:
                chosen.options[name] = typed_options.parse_text(game, name, value)
            except engine.OptionError as exc:
                raise typed_options.refusal(exc) from None
    typed_options.parse(game, chosen.options)  # the options together (a refusal names the first wrong one)
    return chosen


def _round(value: str) -> int:
    try:
        duration = parse_duration(value, ROUND_LEAST)
    except ValueError:
        duration = None
    if duration is None or duration > ROUND_MOST:
        raise Refused("tn.bad_round")
    return int(duration.total_seconds())
