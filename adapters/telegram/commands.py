"""The bot's slash commands: German and English names, the menus for ``setMyCommands``, parsing.

Both languages' names work everywhere; each maps to one English verb that the bot layer
understands (``/neu bauerchen`` and ``/new bauerchen`` are both ``new`` with ``bauerchen``).
"""

from __future__ import annotations

from typing import NamedTuple

from bot.words import parse_typed

__all__ = ["Entry", "ENTRIES", "VERBS", "menu", "parse"]


class Entry(NamedTuple):
    """One command: its verb, its German and English names and menu descriptions."""

    verb: str
    de: str
    en: str
    de_help: str
    en_help: str


ENTRIES: tuple[Entry, ...] = (
    Entry("new", "neu", "new", "Neuen Tisch eröffnen, z. B. /neu bauerchen", "Open a table, e.g. /new bauerchen"),
    Entry("join", "mitspielen", "join", "Am Tisch mitspielen", "Join the table"),
    Entry("hand", "hand", "hand", "Meine Karten noch einmal schicken", "Send me my cards again"),
    Entry("table", "tisch", "table", "Den Tisch neu zeigen", "Show the table again"),
    Entry("leave", "aufstehen", "leave", "Vom Tisch aufstehen", "Leave the table"),
    Entry("bot", "computer", "bot", "Einen Computerspieler dazusetzen", "Add a computer player"),
    Entry("rematch", "revanche", "rematch", "Revanche mit denselben Plätzen", "Rematch with the same seats"),
    Entry("abort", "abbrechen", "abort", "Den Tisch abbrechen", "Abort the table"),
    Entry("sheet", "zettel", "sheet", "Der Zettel: jedes Spiel der Partie", "The score sheet: every deal so far"),
    Entry("rules", "regeln", "rules", "Die Regeln des Spiels", "The rules of the game"),
    Entry("tournament", "turnier", "tournament", "Turnier: /turnier neu bauernstoss, /turnier anmelden PARTNER",
          "Tournament: /tournament new bauernstoss, /tournament join PARTNER"),
    Entry("language", "sprache", "language", "Sprache: /sprache de oder /sprache en", "Language: /language en or de"),
    # --- the group's memory
    Entry("stats", "statistik", "stats", "Statistik: /statistik [Name], /statistik aus|an",
          "Statistics: /stats [name], /stats off|on"),
    Entry("ranking", "rangliste", "ranking", "Rangliste der Saison: /rangliste [Spiel]",
          "The season's ranking: /ranking [game]"),
    Entry("chart", "bild", "chart", "Die Wertungen der Saison als Bild", "The season's ratings as a picture"),
    Entry("history", "verlauf", "history", "Die letzten Partien mit ihren Zetteln", "The last matches and their sheets"),
    Entry("tonight", "abend", "tonight", "Der heutige Abend, in Rams mit Abrechnung",
          "Tonight's matches, in Rams with the settlement"),
    Entry("export", "export", "export", "Alle Partien als CSV und JSON", "Every match as CSV and JSON"),
    Entry("season", "saison", "season", "Neue Saison: /saison neu (Admins)", "New season: /season new (admins)"),
    Entry("forget", "vergessen", "forget", "Mich aus Statistik und Verlauf löschen", "Remove me from the statistics"),
    Entry("help", "hilfe", "help", "Was ich kann", "What I can do"),
)

VERBS: dict[str, str] = {name: e.verb for e in ENTRIES for name in (e.de, e.en)} | {"start": "start"}
"""Every command name (German, English, ``start``) to its verb."""



def menu(lang: str) -> list[tuple[str, str]]:
    """The command menu in ``lang`` ("de" or "en"): (name, description) pairs for ``setMyCommands``."""
    if lang == "de":
        return [(e.de, e.de_help) for e in ENTRIES]
    return [(e.en, e.en_help) for e in ENTRIES]


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
