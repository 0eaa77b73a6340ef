"""Statistics and rankings as the chat reads them: ``statistik [name]``, ``rangliste [spiel]``, the chart's words.

Every figure in the game's own words (Partien, Spiele, Striche, Kreide, Spritzen, Ledig, Knoddel, Steine,
Stoß, Karten weg, Brote, Kartoffeln); numbers as the chat's language writes them (``27,4`` in German);
names cut to :data:`~bot.words.fit.NAME_SHOWN`; every text fits one message (:data:`~bot.words.fit.TEXT_MAX`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.memory import RANKED_AFTER, GameStats, Person, PersonStats, Ranking, SeatOutcome
from bot.memory.privacy import Own
from bot.table.refused import clip
from bot.words.fit import fit_head, shown_name
from bot.words.figures import decimal, money, percent, short
from bot.words.i18n import game_name, t, tn

__all__ = ["person_text", "own_text", "ranking_text", "chart_words", "season_label", "who_name",
           "seat_namer", "counted", "money_text", "tick_text", "DUOS_SHOWN", "RANKED_SHOWN", "TITLE_SHOWN"]

DUOS_SHOWN = 3
"""Partners and opponents named per game (the most played with first)."""
TITLE_SHOWN = 32
"""The most characters of a chat's title in what the memory shows."""
RANKED_SHOWN = 30
"""People a ranking lists at most (the best first; the message's length may cut it shorter)."""
_ALONE = {"bauernstoss": "solo", "alter_schafkopf": "solo", "bauerchen": "ledig", "bauer": "karten_weg"}
"""Each team game's figure of playing alone (or a solo), which has a count of those won beside it."""


def money_text(lang: str, cents: int, currency: str = "") -> str:
    """An amount of cents: ``3,50 Fr.`` in German, ``3.50 Fr.`` in English (no currency: the figure alone)."""
    return money(lang, cents / 100, currency)


def season_label(lang: str, season: int) -> str:
    """``Saison 2``, or ``alle Saisons`` for 0."""
    return t(lang, "mem.season", no=season) if season else t(lang, "mem.all_seasons")


def who_name(lang: str, person: Person) -> str:
    """How a person of the memory is named: his name (cut), ``Computer (stark)``, or ``jemand`` if forgotten."""
    if person.computer:
        return t(lang, "mem.computer_level", level=t(lang, f"level.{person.level}"))
    return shown_name(person.name) if person.name else t(lang, "mem.nobody")


def seat_namer(lang: str) -> Callable[[SeatOutcome, int], str]:
    """Names the seats of a recorded match as the table showed them: the person's name, ``Computer 2`` (with its
    level unless ``normal``), or ``jemand`` for a person not recorded (the export's names)."""
    def name_of(seat: SeatOutcome, no: int) -> str:
        if seat.level:
            if seat.level == "normal":
                return t(lang, "computer", n=no + 1)
            return t(lang, "computer_level", n=no + 1, level=t(lang, f"level.{seat.level}"))
        return seat.name or t(lang, "mem.nobody")
    return name_of


def counted(lang: str, n: int, what: str) -> str:
    """``1 Partie``, ``12 Partien``, ``1 Spiel``, ``5 Spiele`` (``what``: ``matches`` or ``deals``)."""
    return tn(lang, f"mem.{what}", n)


def _figures(lang: str, game: str, stats: GameStats) -> str:
    """The game's own figures: ``Spritzen 9 · Ledig 2 (davon 1 gewonnen) · Knoddel 11 · Steine 7``."""
    f = stats.figures
    items = []
    for name, n in f.items():
        if name.endswith("_won") or name in ("paid", "won_money", "place") or not n:
            continue
        if name == _ALONE.get(game):
            key = "mem.figure.solo_lechdich" if game == "alter_schafkopf" else f"mem.figure.{name}"
            text = t(lang, key, n=t(lang, "mem.figure.won_of", n=n, won=f.get(f"{name}_won", 0)))
        else:
            text = t(lang, f"mem.figure.{name}", n=n)
        items.append(text)
    if game == "rams" and stats.matches:
        if f.get("place"):
            items.append(t(lang, "mem.figure.place", place=decimal(lang, f["place"] / stats.matches)))
        if f.get("paid"):
            items.append(t(lang, "mem.figure.paid", amount=money_text(lang, f["paid"])))
        if f.get("won_money"):
            items.append(t(lang, "mem.figure.won_money", amount=money_text(lang, f["won_money"])))
    return " · ".join(items)


def _duos(lang: str, key: str, duos: list) -> str:
    items = [t(lang, "mem.duo", name=who_name(lang, d.other), won=d.won, matches=d.matches) for d in duos[:DUOS_SHOWN]]
    return t(lang, key, items=" · ".join(items)) if items else ""


def _game_lines(lang: str, stats: GameStats) -> list[str]:
    """One game's block: the counts of his finished matches, the game's own figures, the matches he is playing
    now, the rating, partners and opponents."""
    game = game_name(stats.game, lang)
    running = tn(lang, "mem.running", stats.running, deals=counted(lang, stats.running_deals, "deals"))
    if not stats.matches and stats.running:
        return [t(lang, "mem.running_only", game=game, running=running)]
    head = t(lang, "mem.games_line", game=game, matches=counted(lang, stats.matches, "matches"),
             won=stats.won, deals=counted(lang, stats.deals, "deals"), deals_won=stats.deals_won,
             share=percent(lang, stats.share))
    lines = [head]
    own = _figures(lang, stats.game, stats)
    if own:
        lines.append("  " + own)
    if stats.running:
        lines.append("  " + running)
    if stats.tourneys:
        lines.append("  " + t(lang, "mem.tourneys", n=stats.tourneys, won=stats.tourneys_won))
    if stats.rating is not None:
        rating = decimal(lang, stats.rating)
        lines.append("  " + (t(lang, "mem.rating_place", rating=rating, place=stats.place) if stats.place
                             else t(lang, "mem.rating", rating=rating)))
    lines += ["  " + text for text in (_duos(lang, "mem.partners", stats.partners),
                                       _duos(lang, "mem.opponents", stats.opponents)) if text]
    return lines


def person_text(lang: str, stats: PersonStats) -> str:
    """One person's statistics in this chat, game by game (the games he played in the season)."""
    name, season = who_name(lang, stats.person), season_label(lang, stats.season)
    played = [g for g in stats.games if g.matches or g.deals or g.tourneys or g.running]
    if not played:
        return t(lang, "mem.no_matches", name=name, season=season)
    lines = [t(lang, "mem.stats_title", name=name, season=season)]
    for game in played:
        lines += _game_lines(lang, game)
    return fit_head(lines)


def own_text(lang: str, name: str, owns: list[Own]) -> str:
    """A person's own figures at every table that counts him (his private chat only), chat by chat."""
    lines = [t(lang, "mem.own_title", name=shown_name(name))]
    for own in owns:
        played = [g for g in own.games if g.matches or g.deals or g.tourneys or g.running]
        if not played:
            continue
        lines.append(t(lang, "mem.own_chat", chat=clip(own.title, TITLE_SHOWN) if own.title
                       else own.chat.partition(":")[0]))
        lines += ["  " + line for game in played for line in _game_lines(lang, game)]
    if len(lines) == 1:
        return t(lang, "mem.no_own")
    return fit_head(lines)


def ranking_text(lang: str, ranking: Ranking) -> str:
    """A game's ranking in a season: the people ranked, how many are not yet, the computers apart."""
    game, season = game_name(ranking.game, lang), season_label(lang, ranking.season)
    lines = [t(lang, "mem.ranking_title", game=game, season=season)]
    rows = [t(lang, "mem.ranked", place=r.place, name=who_name(lang, r.person), rating=decimal(lang, r.rating),
              matches=counted(lang, r.matches, "matches")) for r in ranking.people[:RANKED_SHOWN]]
    if not rows:
        lines.append(t(lang, "mem.ranking_empty", least=RANKED_AFTER, game=game, season=season))
    tail = []
    if ranking.unranked and rows:
        tail.append(t(lang, "mem.unranked", least=RANKED_AFTER, n=ranking.unranked))
    if ranking.computers:
        tail.append(t(lang, "mem.computers", items=" · ".join(
            f"{t(lang, f'level.{c.person.level}')} {decimal(lang, c.rating)}" for c in ranking.computers)))
    tail.append(t(lang, "mem.ranking_hint", game=ranking.game))
    return fit_head(lines + rows, tail, cut=len(ranking.people) > RANKED_SHOWN)


def tick_text(lang: str) -> Callable[[float], str]:
    """How the chart writes an axis' tick value: as short as it is exact, ``2,5`` and ``−1`` in German."""
    def text(value: float) -> str:
        value = round(value, 6) + 0.0  # a tick at 0 may come as 1e-16, or as −0
        return short(lang, value)
    return text


def chart_words(lang: str, game: str, season: int) -> dict[str, Any]:
    """The chart's title, axis labels, the label of a line without a name and its ticks (``rating_png``'s words)."""
    label = season_label(lang, season)
    return {"title": t(lang, "mem.chart_title", game=game_name(game, lang), season=label),
            "xlabel": t(lang, "mem.chart_x"), "ylabel": t(lang, "mem.chart_y"), "nobody": t(lang, "mem.nobody"),
            "tick": tick_text(lang)}
