"""The texts only Discord needs, German and English: slash command names and descriptions, DM notes.

Everything else the players read is rendered by the bot layer. Command names are the English
verbs the bot layer understands; German servers see the German names (:mod:`.commands`).
"""

from __future__ import annotations

__all__ = ["COMMANDS", "text", "german"]

COMMANDS: dict[str, tuple[str, str, str]] = {
    "new": ("neu", "Neuen Tisch eröffnen", "Open a table"),
    "join": ("mitspielen", "Am Tisch mitspielen", "Join the table"),
    "start": ("los", "Das Spiel beginnen", "Start the game"),
    "hand": ("hand", "Meine Karten zeigen", "Show my cards"),
    "table": ("tisch", "Den Tisch neu zeigen", "Show the table again"),
    "leave": ("aufstehen", "Vom Tisch aufstehen", "Leave the table"),
    "abort": ("abbrechen", "Den Tisch abbrechen", "Abort the table"),
    "rules": ("regeln", "Die Regeln des Spiels", "The rules of the game"),
    "help": ("hilfe", "Was ich kann", "What I can do"),
    "language": ("sprache", "Sprache dieses Kanals", "Language of this channel"),
    # --- the group's memory
    "stats": ("statistik", "Statistik: deine, oder die eines Mitspielers", "Statistics: yours or another player's"),
    "ranking": ("rangliste", "Rangliste der Saison", "The season's ranking"),
    "chart": ("bild", "Die Wertungen der Saison als Bild", "The season's ratings as a picture"),
    "history": ("verlauf", "Die letzten Partien mit ihren Zetteln", "The last matches and their sheets"),
    "tonight": ("abend", "Der heutige Abend, in Rams mit Abrechnung", "Tonight's matches, in Rams with the settlement"),
    "export": ("export", "Alle Partien als CSV und JSON", "Every match as CSV and JSON"),
    "season": ("saison", "Neue Saison beginnen (Admins)", "Start a new season (admins)"),
    "forget": ("vergessen", "Mich aus Statistik und Verlauf löschen", "Remove me from statistics and history"),
    "tournament": ("turnier", "Turnier: eröffnen, anmelden, auslosen, Tabelle", "Tournament: open, join, draw, standings"),
}
"""Each command's verb: its German name, German and English description."""

_WORDS = {
    "game": ("spiel", "Welches Spiel", "Which game"),
    "players": ("spieler", "Wie viele Spieler", "How many players"),
    "lang": ("sprache", "de oder en", "de or en"),
    "option": ("", "Tischregel (nur für Spiele, die sie haben)", "Table option (only for games that have it)"),
    "player": ("name", "Wessen Statistik (sonst deine)", "Whose statistics (else yours)"),
    "count": ("zählen", "Mich ab jetzt mitzählen oder nicht", "Count me from now on, or not"),
    "on": ("an", "", ""),
    "off": ("aus", "", ""),
    "new_season": ("neu", "", ""),
    # the tournament command's parameters and choices
    "action": ("aktion", "Was tun", "What to do"),
    "format": ("format", "Jeder gegen jeden, Gruppen und K.-o., Schweizer System",
               "Round robin, groups and knockout, Swiss"),
    "partner": ("partner", "Der Name deines Partners (er bestätigt)", "Your partner's name (who confirms)"),
    "round": ("runde", "Zeit für eine Runde, z. B. 2d oder 3h", "Time for a round, e.g. 2d or 3h"),
    "rule": ("regel", "Was nach der Frist offene Spiele entscheidet", "What decides matches open at the deadline"),
    "twice": ("doppelt", "Jeder gegen jeden mit Hin- und Rückspiel", "Round robin home and away"),
    "options": ("optionen", "Tischregeln wie target=20", "Table options such as target=20"),
    "tn.new": ("eröffnen", "", ""),
    "tn.join": ("anmelden", "", ""),
    "tn.leave": ("abmelden", "", ""),
    "tn.start": ("auslosen und los", "", ""),
    "tn.standings": ("tabelle", "", ""),
    "tn.abort": ("abbrechen", "", ""),
    "round-robin": ("jeder gegen jeden", "", ""),
    "groups-ko": ("Gruppen, dann K.-o.", "", ""),
    "swiss": ("Schweizer System", "", ""),
    "computer": ("Computer spielen zu Ende", "", ""),
    "forfeit": ("Wertung nach Stand", "", ""),
    "match": ("partie", "Der Zettel welcher Partie", "Which match's score sheet"),
}

_TEXTS = {
    "de": {
        "dms_closed": "{mention}, ich kann dir keine Direktnachricht schicken. Deine Karten bekommst du mit "
                      "»Meine Karten« am Tisch (nur du siehst sie).",
        "done": "✅",
    },
    "en": {
        "dms_closed": "{mention}, I cannot send you a direct message. Press “My hand” on the table to see your "
                      "cards (only you see them).",
        "done": "✅",
    },
}


def text(key: str, lang: str, **values: str) -> str:
    """The text ``key`` in ``lang`` (German for any language other than English), filled with ``values``."""
    return _TEXTS["en" if lang == "en" else "de"][key].format(**values)


def german(word: str) -> tuple[str, str, str] | None:
    """The German name, German and English description of a command verb or a parameter word."""
    return COMMANDS.get(word) or _WORDS.get(word)
