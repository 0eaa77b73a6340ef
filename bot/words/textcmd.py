"""Typed commands in German and English: table commands, game options and engine actions.

``neu bauerchen 4 die_letzte=aus``, ``mitspielen``, ``platz 3``, ``computer weg 2``,
``spiel B♣``, ``trumpf herz``, ``melde K♥`` ... A verb is matched without case, ``ß`` and
umlauts kept; up to three words that belong together (``gib mir eine``) are joined first.
"""

from __future__ import annotations

from dataclasses import dataclass

import engine
from bot.table import options as typed_options
from bot.table.computer import LEVEL_OPTION
from bot.table.refused import Refused
from bot.words.buttons import announce_count
from bot.words.cards import parse_card_text, parse_suit_text
from engine.actions import Action
from engine.cards import parse_card, parse_suit
from engine.jsontext import JSONTextError, read_json

__all__ = ["TABLE_VERBS", "MEMORY_VERBS", "ACTION_WORDS", "GAME_WORDS", "Parsed", "parse", "game_id", "games_text", "new_args",
           "action_for", "seat_number"]

TABLE_VERBS = {
    "new": ("neu", "new", "neuertisch"),
    "join": ("mitspielen", "join", "dabei"),
    "leave": ("aufstehen", "leave"),
    "seat": ("platz", "seat"),
    "computer": ("computer", "bot", "cpu"),
    "start": ("los", "start", "losgehts"),
    "hand": ("hand", "karten", "cards", "meinekarten", "myhand"),
    "tipp": ("tipp", "tip", "hint"),
    "table": ("tisch", "table"),
    "tables": ("tische", "meinetische", "tables", "mytables"),
    "abort": ("abbrechen", "abort", "ende"),
    "rematch": ("revanche", "rematch"),
    "rules": ("regeln", "rules"),
    "sheet": ("zettel", "sheet", "tafel", "punkte", "score"),
    "help": ("hilfe", "help", "?"),
    "language": ("sprache", "language", "lang"),
    "option": ("option", "optionen", "options", "einstellung"),
    "notify": ("benachrichtigung", "benachrichtigungen", "notify", "notifications"),
    "pace": ("tempo", "pace"),
    "quiet": ("ruhezeit", "nachtruhe", "quiet", "quiethours"),
    "timezone": ("zeitzone", "timezone", "tz"),
    "vacation": ("urlaub", "vacation", "ferien", "holiday", "holidays"),
    "let_pass": ("weiter", "keinledig", "kartenbleiben", "goon", "letpass"),
    "tournament": ("turnier", "tournament", "cup"),
    "review": ("nachbesprechung", "besprechung", "review"),
}
"""Each table command and its words."""

# --- the group's memory (issue 21)
MEMORY_VERBS = {
    "stats": ("statistik", "stats", "statistics"),
    "ranking": ("rangliste", "ranking", "ranglist"),
    "history": ("verlauf", "history"),
    "tonight": ("abend", "heuteabend", "tonight"),
    "season": ("saison", "season"),
    "export": ("export", "exportieren"),
    "chart": ("bild", "kurve", "chart"),
    "forget": ("vergessen", "vergissmich", "forget", "forgetme"),
}
"""The commands that read (or clear) what the chat remembers of its matches, and their words; they need no table."""

ACTION_WORDS = {
    "play": ("spiel", "spiele", "spielen", "play", "lege", "leg"),
    "meld": ("melde", "melden", "meld"),
    "announce": ("ansagen", "announce", "sage"),
    "pass": ("weg", "gut", "pass", "passe", "passen"),
    "solo": ("solo",),
    "solo_small": ("gibmireine", "kleinessolo", "smallsolo"),
    "solo_grand": ("legdich", "lechdich", "großessolo", "grossessolo", "grandsolo"),
    "give": ("gib", "geben", "give"),
    "name_trump": ("trumpf", "trump", "taufen", "christen"),
    "let_partner_name": ("partner", "partnertauft", "letpartner"),
    "die_letzte": ("dieletzte", "letzte", "last"),
    "spritz": ("spritzen", "spritz", "retour", "re", "double", "zurückspritzen", "redouble"),
    "stoss": ("stoßen", "stossen", "stoß", "stoss", "knock", "zurückstoßen", "zurückstossen", "stoßzurück",
              "stosszurück", "knockback"),
    "back": ("zurück", "zurueck", "back"),
    "mit": ("mit", "metoo"),
    "alone": ("ledig", "kartab", "buckel", "kartenweg", "alone", "cardsaway"),
    "take_blind": ("blind", "blinden", "takeblind"),
    "exchange": ("rauben", "rob", "exchange", "tausch", "tauschen"),
}
"""Engine actions as players type them; "alone" is Ledig or Karten weg, whichever the game has, "back"
Retour or Zurückstoßen, "mit" a tie with the best announcement (Bauernstoß) or playing along (Rams)."""

GAME_WORDS = {
    "bauernstoss": ("bauernstoss", "bauernstoß", "stoss"),
    "alter_schafkopf": ("alter_schafkopf", "alterschafkopf", "schafkopf", "schofkopp"),
    "bauerchen": ("bauerchen",),
    "bauer": ("bauer", "saarbauer"),
    "rams": ("rams", "ramse", "rammsen"),
}
"""Each game id and the names players call it."""

_TABLE = {w: v for v, words in TABLE_VERBS.items() for w in words}
_MEMORY = {w: v for v, words in MEMORY_VERBS.items() for w in words}
_ACTION = {w: v for v, words in ACTION_WORDS.items() for w in words}
_GAME = {w: g for g, words in GAME_WORDS.items() for w in words}
_SIZES = {"klein": "small", "small": "small", "kleines": "small", "groß": "grand", "gross": "grand",
          "grand": "grand", "großes": "grand", "grosses": "grand"}


@dataclass(frozen=True)
class Parsed:
    """A typed command: ``kind`` "table" (a table command), "memory" (one of :data:`MEMORY_VERBS`) or
    "action" (an engine action word)."""

    kind: str
    name: str
    args: tuple[str, ...] = ()


def _word(text: str) -> str:
    return "".join(text.lower().strip().lstrip("/").replace("'", "").split())


def parse(verb: str, args: tuple[str, ...]) -> Parsed | None:
    """The command ``verb args`` names, or ``None`` if the verb is unknown.

    Words that belong together are tried first: ``gib mir eine``, ``karten weg``, ``meine karten``.
    """
    for k in (2, 1, 0):
        if k > len(args):
            continue
        w = _word(verb + "".join(args[:k]))
        if w in _TABLE:
            return Parsed("table", _TABLE[w], tuple(args[k:]))
        if w in _MEMORY:
            return Parsed("memory", _MEMORY[w], tuple(args[k:]))
        if w in _ACTION:
            return Parsed("action", _ACTION[w], tuple(args[k:]))
    return None


def games_text() -> str:
    """The game ids as a list for messages."""
    return ", ".join(engine.game_ids())


def game_id(word: str) -> str | None:
    """The game id a player's word names (``bauernstoß`` → ``bauernstoss``)."""
    return _GAME.get(_word(word))


def new_args(args: tuple[str, ...]) -> tuple[str, int | None, dict]:
    """Game, player count and options of ``neu GAME [N] [name=value ...|{json}]``; refuses bad input.

    A typed ``name=value`` is read as the option's type; JSON options keep their JSON types.
    ``level=stark`` (the computer players' level) is passed on as typed, for the table to check.
    """
    if not args:
        raise Refused("new_needs_game", games=games_text())
    game = game_id(args[0])
    if game is None:
        raise Refused("unknown_game", word=args[0], games=games_text())
    players = None
    options: dict = {}
    rest = list(args[1:])
    if rest and (rest[0].isascii() and rest[0].isdecimal()):
        players = int(rest.pop(0))
    text = " ".join(rest).strip()
    if text.startswith("{"):
        try:
            options = read_json(text)
        except JSONTextError:
            raise Refused("bad_options_json") from None
        if not isinstance(options, dict):
            raise Refused("bad_options_json")
    else:
        for item in rest:
            name, sep, value = item.partition("=")
            if not sep or not name:
                raise Refused("bad_option_syntax", item=item)
            if name == LEVEL_OPTION:
                options[name] = value
                continue
            try:
                options[name] = typed_options.parse_text(game, name, value)
            except engine.OptionError as exc:
                raise typed_options.refusal(exc) from None
    return game, players, options


def seat_number(args: tuple[str, ...], n: int) -> int:
    """The 0-based seat of a typed seat number 1..n; refuses anything else."""
    if not args or not (args[0].isascii() and args[0].isdecimal()) or not 1 <= int(args[0]) <= n:
        raise Refused("no_such_seat", seats=n)
    return int(args[0]) - 1


def action_for(name: str, args: tuple[str, ...], legal: list[Action], view: dict | None = None) -> Action:
    """The engine action a typed action word means, given the seat's ``legal`` actions and his ``view``."""
    arg = " ".join(args)
    kinds = {a.kind for a in legal}
    if name == "mit":
        return _mit(arg, legal, view or {})
    if name == "back":
        return Action("stoss" if "stoss" in kinds else "spritz")
    if name in ("play", "meld"):
        if not arg:
            if "play_hand" in kinds:
                return Action("play_hand")
            raise Refused("which_card")
        if name == "meld" and parse_suit_text(arg) is not None:
            return Action("announce", suit=parse_suit(parse_suit_text(arg)))
        return Action("play", _card(arg), meld=name == "meld")
    if name in ("give", "exchange"):
        if not arg:
            raise Refused("which_card")
        return Action(name, _card(arg))
    if name in ("announce", "name_trump"):
        suit = parse_suit_text(arg) if arg else None
        if suit is None:
            raise Refused("which_suit")
        return Action(name, suit=parse_suit(suit))
    if name == "solo":
        size = _SIZES.get(arg.lower())
        if size is None:
            raise Refused("which_solo")
        return Action("solo", size=size)
    if name in ("solo_small", "solo_grand"):
        return Action("solo", size=name[5:])
    if name == "alone":
        return Action("karten_weg" if "karten_weg" in kinds else "ledig")
    return Action(name)


def _mit(arg: str, legal: list[Action], view: dict) -> Action:
    """"mit": in Rams playing along; in Bauernstoß announcing as many as the best so far, in the suit
    named or the one suit that has them."""
    if Action("play_hand") in legal:
        return Action("play_hand")
    if arg:
        return action_for("announce", (arg,), legal)
    best = (view.get("public") or {}).get("best", 0)
    ties = [a for a in legal if a.kind == "announce" and best and announce_count(view, a.suit) == best]
    if len(ties) == 1:
        return ties[0]
    if ties:
        raise Refused("which_suit")
    if any(a.kind == "announce" for a in legal):
        raise Refused("mit_needs_count", count=best or 2)
    return Action("announce", suit=0)  # not his turn to announce: the engine says why


def _card(text: str) -> int:
    card = parse_card_text(text)
    if card is None:
        raise Refused("not_a_card", text=text)
    return parse_card(card)
