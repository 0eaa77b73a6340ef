"""The chat's past as it reads it: ``verlauf`` (the last matches, a match's score sheet), ``abend`` (today's
matches and Rams' settlement: who pays whom, in the table's currency) and the export's caption.

A recorded match is shown with the very words of the table that played it: it is set up again as a
finished :class:`~bot.table.record.Table` (its seats, game and score sheet), so its teams, computer
players and sheet read as they did at the table (:mod:`bot.words.story`).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot.memory import KASSE, Evening, MatchOutcome, Tournament
from bot.protocol.outgoing import ChatRef
from bot.table.record import Seat, Table
from bot.words import figures, story
from bot.table.refused import clip
from bot.words.fit import TEXT_MAX, fit_head, shown_name
from bot.words.stats import TITLE_SHOWN
from bot.words.i18n import game_name, t, tn
from bot.words.stats import counted, money_text, who_name

__all__ = ["history_text", "sheet_text", "tonight_text", "export_caption", "when"]

def when(lang: str, at: float, zone: str) -> str:
    """When something finished, in the chat's time zone: ``3.12. 21:14`` (``3 Dec 21:14``)."""
    return figures.moment(lang, datetime.fromtimestamp(at, ZoneInfo(zone)))


def _table(lang: str, match: MatchOutcome) -> Table:
    """The finished table as it was, for the words of :mod:`bot.words.story` (a forgotten person as ``jemand``)."""
    seats = [Seat(bot=True, level=s.level) if s.computer else Seat(user=s.who or "-", name=s.name or
                                                                    t(lang, "mem.nobody"))
             for s in match.seats]
    return Table(id="memory", chat=ChatRef("memory", match.chat), game=match.game, n=len(seats), lang=lang,
                 status="finished", opener="", seats=seats, sheet=match.sheet)


def _result(lang: str, match: MatchOutcome) -> str:
    """``Anna+Cleo gewinnen 2 : 1`` (the team games' match score), ``Anna gewinnt · Ben, Cleo, Dora`` (Rams)."""
    table = _table(lang, match)
    if match.game == "rams":
        order = match.places or sorted(range(table.n), key=lambda s: -match.score[s])
        return t(lang, "mem.won_one", name=story.seat_name(table, order[0]),
                 places=", ".join(story.seat_name(table, s) for s in order[1:]))
    if not match.winners:
        return t(lang, "mem.undecided", score=" : ".join(map(str, match.score)))
    won = match.winners[0]
    return t(lang, "mem.won_team", team=story.team_name(table, won), other=story.team_name(table, 1 - won),
             score=f"{match.score[won]} : {match.score[1 - won]}")


def _line(lang: str, match: MatchOutcome, zone: str) -> str:
    """``#12 3.12. 21:14 · Bauerchen · Anna+Cleo gewinnen 2 : 1``, and who took a hint (»Tipp«) in it."""
    line = t(lang, "mem.match_line", no=match.no, when=when(lang, match.at, zone), game=game_name(match.game, lang),
             result=_result(lang, match))
    hinted = [shown_name(seat.name) if seat.name else t(lang, "mem.nobody") for seat in match.seats if seat.hinted]
    return line + t(lang, "tipp.hinted", names=", ".join(hinted)) if hinted else line


def history_text(lang: str, matches: list[MatchOutcome], zone: str, tourneys: list[Tournament] = ()) -> str:
    """The last matches and the tournaments among them, newest first, one line each, and how to see a
    match's score sheet."""
    dated = sorted([(m.at, _line(lang, m, zone)) for m in matches]
                   + [(tn.at, _tourney_line(lang, tn, zone)) for tn in tourneys], key=lambda item: -item[0])
    return fit_head([t(lang, "mem.history_title")] + [line for _, line in dated], [t(lang, "mem.history_hint")])


def _tourney_line(lang: str, tourney: Tournament, zone: str) -> str:
    """``🏆 3.12. 21:14 · Turnier Bauernstoß · 12 Teams · 1. Flieger+Kai 2. Werner+Pitie 3. Äppel+Klaus``."""
    teams = "mem.tourney_players" if tourney.game == "rams" else "mem.tourney_teams"
    top = " ".join(f"{place}. " + "+".join("🤖" if p.computer else who_name(lang, p) for p in side)
                   for place, side in enumerate(tourney.top, start=1))
    return t(lang, "mem.tourney_line", when=when(lang, tourney.at, zone), game=game_name(tourney.game, lang),
             entrants=tn(lang, teams, tourney.entrants), top=top)


def sheet_text(lang: str, match: MatchOutcome, zone: str) -> str:
    """One recorded match: its line, then its score sheet as the table's ``zettel`` showed it."""
    head = _line(lang, match, zone)
    return head + "\n" + story.sheet_text(_table(lang, match), limit=TEXT_MAX - len(head) - 1)


def tonight_text(lang: str, evening: Evening) -> str:
    """Today's matches: who won how many, Rams' settlement (who pays whom), and the matches themselves."""
    day = figures.day(lang, datetime.fromisoformat(evening.day))
    lines = [t(lang, "mem.tonight_title", day=day, matches=counted(lang, evening.count, "matches"))]
    lines += [t(lang, "mem.tonight_line", name=who_name(lang, line.person), won=line.won, matches=line.matches)
              for line in evening.lines]
    settled: list[str] = []
    for s in evening.settlements:
        settled.append(t(lang, "mem.settlement", matches=counted(lang, s.matches, "matches")))
        for tr in s.transfers:
            name = who_name(lang, evening.people[tr.payer])
            amount = money_text(lang, tr.cents, s.currency)
            settled.append(t(lang, "mem.pays_kasse", name=name, amount=amount) if tr.payee == KASSE else
                           t(lang, "mem.pays_to", name=name, amount=amount,
                             payee=who_name(lang, evening.people[tr.payee])))
        if s.mode == "kasse" and s.balances.get(KASSE):
            settled.append(t(lang, "mem.kasse_total", amount=money_text(lang, s.balances[KASSE], s.currency)))
        elif not s.transfers:
            settled.append(t(lang, "mem.square"))
    matches = [_line(lang, m, evening.zone) for m in reversed(evening.matches)]
    return fit_head(lines + matches, settled)


def export_caption(lang: str, title: str, matches: int) -> str:
    """The caption of the export's files: whose history, how many matches."""
    chat = t(lang, "mem.own_chat", chat=clip(title, TITLE_SHOWN)) if title else t(lang, "mem.this_chat")
    return t(lang, "mem.export_caption", chat=chat, matches=counted(lang, matches, "matches"))
