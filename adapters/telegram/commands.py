"""The bot's slash commands: German and English names, the menus for ``setMyCommands``, parsing.

Both languages' names work everywhere; each maps to one English verb that the bot layer
understands (``/neu bauerchen`` and ``/new bauerchen`` are both ``new`` with ``bauerchen``).
"""

from __future__ import annotations

from typing import NamedTuple

from bot.words import parse_typed, t

__all__ = ["Entry", "ENTRIES", "VERBS", "menu", "parse"]


class Entry(NamedTuple):
    """One command: its verb and its German and English names (its description is the catalog's ``tg.menu.<verb>``)."""

    verb: str
    de: str
    en: str


ENTRIES: tuple[Entry, ...] = (
    Entry("new", "neu", "new"), Entry("join", "mitspielen", "join"), Entry("hand", "hand", "hand"),
    Entry("table", "tisch", "table"), Entry("leave", "aufstehen", "leave"), Entry("bot", "computer", "bot"),
    Entry("rematch", "revanche", "rematch"), Entry("abort", "abbrechen", "abort"), Entry("sheet", "zettel", "sheet"),
    Entry("rules", "regeln", "rules"), Entry("tournament", "turnier", "tournament"),
    Entry("review", "nachbesprechung", "review"),
    Entry("language", "sprache", "language"), Entry("stats", "statistik", "stats"),
    Entry("ranking", "rangliste", "ranking"), Entry("chart", "bild", "chart"),
    Entry("history", "verlauf", "history"), Entry("tonight", "abend", "tonight"),
    Entry("export", "export", "export"), Entry("season", "saison", "season"), Entry("forget", "vergessen", "forget"),
    Entry("tables", "tische", "tables"), Entry("vacation", "urlaub", "vacation"),
    Entry("notify", "benachrichtigung", "notify"), Entry("help", "hilfe", "help"),
)

VERBS: dict[str, str] = {name: e.verb for e in ENTRIES for name in (e.de, e.en)} | {"start": "start"}
"""Every command name (German, English, ``start``) to its verb."""


def menu(lang: str) -> list[tuple[str, str]]:
    """The command menu in ``lang``: (name, description) pairs for ``setMyCommands``; the names are German
    for German, English for every other language (the words the bot layer understands)."""
    return [(e.de if lang == "de" else e.en, t(lang, f"tg.menu.{e.verb}")) for e in ENTRIES]


def parse(text: str, bot_username: str, private: bool) -> tuple[str, tuple[str, ...]] | None:
    """The verb and arguments of a slash command for this bot, ``None`` for anything else.

    A command addressed to another bot (``/neu@OtherBot``) is ``None``. A command not in the menu
    is passed on by its name when the bot layer knows the word (``/los``, ``/spiel B♣``: every
    command ``/hilfe`` lists works as typed) or when it is surely meant for this bot: in the
    private chat or addressed ``@`` to it; other words in a group may belong to another bot.
    """
    words = (text or "").split()
    if not words or not words[0].startswith("/") or len(words[0]) < 2:
        return None
    name, _, target = words[0][1:].partition("@")
    addressed = target.lower() == bot_username.lower()
    if target and not addressed:
        return None
    verb = VERBS.get(name.lower())
    if verb is None and (private or addressed or parse_typed(name, ()) is not None):
        verb = name.lower()
    return (verb, tuple(words[1:])) if verb else None
