"""The story of a deal in words: who announced, offered and doubled, who took each trick, and why a deal
ended as it did.

Computed from the engine's events and public views only (never a hand), in the games' own words,
platform-neutral: the table message, the console and the deal's result notice all use these lines.
:class:`~bot.table.match.Match` records the public events of the running deal in ``Table.story`` and a
record of every finished deal in ``Table.sheet`` (see :func:`deal_record`); this module turns them
into text.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.table.match import round_total
from bot.table.record import Table
from bot.words.cards import card_label, suit_label
from bot.words.fit import TEXT_MAX, fit_rows, shown_name
from bot.words.i18n import game_name, t, tn
from bot.words.tipp import stake_clause
from engine.bauerchen import TRICKS
from engine.cards import EYES, parse_card

__all__ = ["event_line", "calls_line", "trick_line", "cards_played",
           "result_lines", "news_lines", "sheet_text", "seat_name", "team_name", "both_teams"]

_EYE_GAMES = ("bauernstoss", "alter_schafkopf", "bauerchen")
_SCHNEIDER = {"bauernstoss": 91, "alter_schafkopf": 89}
_RUNNING = {"bauernstoss": "striche", "alter_schafkopf": "striche", "bauerchen": "score", "bauer": "score"}
"""The running total of a team game's score sheet in its match."""


# ----------------------------------------------------------------- names
def seat_name(table: Table, seat: int) -> str:
    """The name shown for ``seat``: the player's (cut to :data:`~bot.words.fit.NAME_SHOWN`), ``Computer N`` or ``–``."""
    s = table.seats[seat]
    if s.human:
        return shown_name(s.name)
    if s.bot and (s.level or table.level) != "normal":
        return t(table.lang, "computer_level", n=seat + 1, level=t(table.lang, f"level.{s.level or table.level}"))
    if s.bot:
        return t(table.lang, "computer", n=seat + 1)
    return t(table.lang, "empty_seat")


def team_name(table: Table, team: int) -> str:
    """A team as its two names: ``Anna+Cleo``."""
    return "+".join(seat_name(table, s) for s in range(team, table.n, 2))


def both_teams(table: Table, a: Any, b: Any) -> str:
    """Both teams with a figure each, always team 0 first: ``Anna+Cleo 96 : 24 Ben+Dora``."""
    return f"{team_name(table, 0)} {a} : {b} {team_name(table, 1)}"


# ----------------------------------------------------------------- events
def event_line(table: Table, ev: dict) -> str:
    """One public event in words: ``Computer 4 meldet 4``, ``Ben spritzt (×2)``, ``Dora passt``; a strong
    computer's stake with why (``Computer 2 spritzt (×2) – gewinnt in 17 von 24 Verteilungen``)."""
    line = _event_line(table, ev)
    return f"{line} – {stake_clause(table.lang, ev['why'])}" if line and "why" in ev else line


def _event_line(table: Table, ev: dict) -> str:
    lang, kind = table.lang, ev["type"]
    name = seat_name(table, ev["seat"]) if "seat" in ev else ""
    if kind == "announced":
        return t(lang, "st.mit" if ev.get("mit") else "st.announced", name=name, count=ev["count"])
    if kind == "passed":
        return t(lang, "st.passed", name=name)
    if kind == "trump_named":
        return t(lang, "st.named", name=name, suit=suit_label(ev["suit"]))
    if kind == "solo":
        return t(lang, "st.solo", name=name, solo=solo_name(table, ev["kind"]))
    if kind == "gave":
        if ev.get("card"):
            return t(lang, "st.gave_jack", name=name, card=card_label(ev["card"], lang))
        return t(lang, "st.gave", name=name)
    if kind == "spritz":
        key = "st.spritz" if ev["calls"] == 1 else "st.retour"
        return t(lang, key, name=name, times=2 ** ev["calls"])
    if kind == "stoss":
        return t(lang, "st.stoss" if ev["level"] == 1 else "st.stoss_back", name=name, times=2 ** ev["level"])
    if kind == "meld":
        return t(lang, "st.meld", name=name, meld=ev["meld"], cards=" ".join(card_label(c, lang) for c in ev["cards"]))
    if kind == "die_letzte":
        return t(lang, "st.letzte", name=name, card=card_label(ev["card"], lang))
    if kind == "decision":
        return t(lang, f"st.{ev['choice']}", name=name)
    if kind == "robbed":
        return t(lang, "st.robbed", name=name, card=card_label(ev["card"], lang))
    if kind in ("ledig", "karten_weg", "let_partner_name"):
        return t(lang, f"st.{kind}", name=name)
    if kind == "trick":
        return trick_line(table, ev)
    if kind == "declined":
        return t(lang, "st.declined", name=name, choice=t(lang, f"act.{ev['why']['kind']}"))
    return ""


def solo_name(table: Table, kind: str) -> str:
    """The name of a Bauernstoß solo: »Gib mir eine«, »Leg dich«, Lechdich."""
    if table.game == "alter_schafkopf":
        return t(table.lang, "act.lechdich")
    return t(table.lang, "st.solo_name", solo=t(table.lang, f"act.solo_{kind}"))


_CALLS_SHOWN = 4
"""Spritzen calls may go back and forth without end: beyond this many, the first and the last ones show."""


def calls_line(table: Table, story: list[dict]) -> str:
    """The announcements and offers of a deal in one line, every call in the order it was made (each
    Spritzen call with who made it and the stake it reached; of a long back and forth the first and the
    last two, ``…`` between)."""
    spritz = [i for i, ev in enumerate(story) if ev["type"] == "spritz"]
    hidden = set(spritz[1:-2]) if len(spritz) > _CALLS_SHOWN else set()
    lines = [event_line(table, ev) if i not in hidden else "…" for i, ev in enumerate(story)
             if ev["type"] != "trick" and (i not in hidden or i == spritz[1])]
    return " · ".join(filter(None, lines))


def cards_played(table: Table, trick: list[dict]) -> list[str]:
    """The cards of a running trick (the view's ``{"seat", "card"}`` entries), each with who played it."""
    return [f"{seat_name(table, e['seat'])} {card_label(e['card'], table.lang)}" for e in trick]


def trick_line(table: Table, trick: dict, key: str = "st.trick") -> str:
    """A completed trick: who played which card and who took it (with its eyes where they count)."""
    lang = table.lang
    cards = " · ".join(f"{seat_name(table, s)} {card_label(c, lang)}" for s, c in zip(trick["seats"], trick["cards"]))
    took = t(lang, "st.took", name=seat_name(table, trick["winner"]))
    if table.game in _EYE_GAMES:
        took += t(lang, "st.eyes", eyes=sum(EYES[parse_card(c)] for c in trick["cards"]))
    return t(lang, key, cards=cards, took=took)


def news_lines(table: Table, news: list[dict]) -> list[str]:
    """The lines of what happened in one command, in order: events, tricks and deal results."""
    lines = []
    for ev in news:
        if ev["type"] == "deal_over":
            lines += result_lines(table, ev["record"])
        elif ev["type"] == "trick":
            lines.append(trick_line(table, ev))
        else:
            lines.append(event_line(table, ev))
    return [line for line in lines if line]


# ----------------------------------------------------------------- results
def result_lines(table: Table, record: dict) -> list[str]:
    """Why a deal ended as it did, in the game's words: who won, by how much, and why."""
    result = record.get("result") or {}
    if result.get("thrown_in"):
        return [t(table.lang, "thrown_in")]
    game = table.game
    if game in ("bauernstoss", "alter_schafkopf"):
        return _bauernstoss(table, record)
    if game == "bauerchen":
        return _bauerchen(table, record)
    if game == "bauer":
        return _bauer(table, record)
    return _rams(table, record)


def _facts(record: dict) -> tuple[dict, dict, dict]:
    """A deal record's result, public facts and match before the deal."""
    return record["result"], record.get("public") or {}, record.get("before") or {}


def _bauernstoss(table: Table, record: dict) -> list[str]:
    lang, (result, public, before) = table.lang, _facts(record)
    eyes, tricks, gains = result["eyes"], result["tricks"], result["striche"]
    lines = [t(lang, "st.eyes_word", teams=both_teams(table, eyes[0], eyes[1]))]
    solo = public.get("solo")
    if solo:
        team = 0 if gains[0] else 1
        won = team == solo["seat"] % 2
        if table.game == "alter_schafkopf":
            lines.append(t(lang, "st.lechdich_won" if won else "st.lechdich_lost", name=seat_name(table, solo["seat"]),
                           team=team_name(table, team)))
        else:
            lines.append(t(lang, "st.solo_won" if won else "st.solo_lost", name=seat_name(table, solo["seat"]),
                           solo=solo_name(table, solo["kind"]), team=team_name(table, team),
                           gain=tn(lang, "st.striche", gains[team])))
        return lines
    scorer = result["chalk"]
    jack = _jack_team(table, record)
    base = gains[scorer] - (jack == scorer)
    why = []
    if tricks[1 - scorer] == 0:
        why.append(t(lang, "st.schwarz"))
    elif eyes[scorer] >= _SCHNEIDER[table.game]:
        why.append(t(lang, "st.schneider"))
    held = before.get("chalk")
    how = "st.keep_chalk" if held == scorer else "st.take_chalk"
    if held == scorer and eyes[scorer] < eyes[1 - scorer]:
        why.append(t(lang, "st.chalk_enough"))
    line = t(lang, how, team=team_name(table, scorer)) + ": " + tn(lang, "st.plus_striche", base)
    if why:
        line += f" ({', '.join(why)})"
    lines.append(line)
    if jack is not None:
        lines.append(t(lang, "st.jack_strich", team=team_name(table, jack)))
    return lines


def _jack_team(table: Table, record: dict) -> int | None:
    """The team that got Bauernstoß's extra Strich for the Kreuz-Bube in the first deal of a partie, if any."""
    result, public, before = _facts(record)
    if table.game != "bauernstoss" or public.get("solo") or before.get("deal_no") != 1 or "chalk" not in result:
        return None
    scorer, gains = result["chalk"], result["striche"]
    return scorer if gains[1 - scorer] == 0 else 1 - scorer


def _bauerchen(table: Table, record: dict) -> list[str]:
    lang, (result, public, before) = table.lang, _facts(record)
    eyes, points = result["eyes"], result["points"]
    lines = [t(lang, "st.eyes_word", teams=both_teams(table, eyes[0], eyes[1]))]
    last = record.get("trick")
    if last is not None and record.get("tricks_played") == TRICKS:
        lines[0] += t(lang, "st.last_ten", team=team_name(table, last["winner"] % 2))
    rw = result.get("round_winner")
    if public.get("ledig") is not None:
        seat = public["ledig"]
        won = rw == seat % 2
        lines.append(t(lang, "st.ledig_won" if won else "st.ledig_lost", name=seat_name(table, seat),
                       team=team_name(table, rw)))
    else:
        win = 0 if points[0] else 1
        loser_eyes = eyes[1 - win]
        base = 3 if loser_eyes == 0 else 2 if loser_eyes <= 32 else 1
        why = "st.nackig" if base == 3 else "st.bc_schneider" if base == 2 else "st.schneider_frei"
        away = win != public.get("home")
        if eyes[0] == eyes[1]:
            lines.append(t(lang, "st.tie_away", team=team_name(table, win)))
        spritz = public.get("spritz") or 0
        calc = t(lang, why, n=base) + " + " + t(lang, "st.away") if away else t(lang, why, n="").strip()
        if spritz:
            calc = (f"({calc})" if away else t(lang, why, n=base)) + " " + t(lang, "st.spritz_times", times=2 ** spritz)
        lines.append(t(lang, "st.bc_won", team=team_name(table, win), calc=calc,
                       points=tn(lang, "st.points", points[win])))
    melds = result.get("melds") or [0, 0]
    if any(melds):
        lines.append(t(lang, "st.melded", score=both_teams(table, melds[0], melds[1])))
    if rw is not None:
        score = round_total(engine.parse_options(table.game, table.options), before.get("score", [0, 0]), points, rw,
                            public.get("ledig") is not None)
        lines.append(t(lang, "st.round_won", team=team_name(table, rw), score=both_teams(table, *score),
                       loser=team_name(table, 1 - rw)))
    return lines


def _bauer(table: Table, record: dict) -> list[str]:
    lang, (result, public, before) = table.lang, _facts(record)
    tricks, change = result["tricks"], result["change"]
    lines = [t(lang, "st.tricks_word", teams=both_teams(table, tricks[0], tricks[1]))]
    stoss = len(public.get("stoss") or ())
    stake = f" ({t(lang, 'st.stossed', times=2 ** stoss)})" if stoss else ""
    alone = public.get("karten_weg")
    if alone is not None:
        win = result["brot"]
        n = 2 ** stoss
        lines.append(t(lang, "st.alone_won" if win == alone % 2 else "st.alone_lost", name=seat_name(table, alone),
                       team=team_name(table, win), brote=tn(lang, "st.brote_n", n)) + stake)
        return lines
    win = 0 if change[0] < 0 else 1
    caller = public.get("caller")
    key = "st.ba_won" if caller is not None and caller % 2 == win else "st.ba_against"
    score = before.get("score", [8, 8])
    moves = [t(lang, "st.brot_move", team=team_name(table, i), change=_delta(change[i]), to=_num(score[i] + change[i]))
             for i in (0, 1) if change[i]]
    why = []
    if tricks[1 - win] == 0:
        why.append(t(lang, "st.all_tricks"))
    if stoss:
        why.append(t(lang, "st.stossed", times=2 ** stoss))
    line = t(lang, key, team=team_name(table, win)) + ": " + t(lang, "st.brot_moves", moves=", ".join(moves))
    if why:
        line += f" ({', '.join(why)})"
    lines.append(line)
    if change[1 - win] > 0:  # the trump team lost: its Brot climbs back
        lines.append(t(lang, "st.ba_tie" if tricks[0] == tricks[1] else "st.ba_back", team=team_name(table, 1 - win),
                       n=change[1 - win]))
    if result.get("brot") is not None:
        lines.append(t(lang, "st.brot_won", team=team_name(table, result["brot"])))
    return lines


def _rams(table: Table, record: dict) -> list[str]:
    lang, result = table.lang, record["result"]
    choices = (record.get("public") or {}).get("choices") or []
    items = [f"{seat_name(table, s)}: {n}" for s, n in enumerate(result["tricks"])
             if s >= len(choices) or choices[s] in ("play", "blind")]
    lines = [t(lang, "rs.result", items=" · ".join(items) or "–")]
    passed = [seat_name(table, s) for s, c in enumerate(choices) if c == "pass"]
    if passed:
        lines.append(t(lang, "st.passed_list", names=", ".join(passed)))
    if result.get("kartoffeln"):
        lines.append(t(lang, "rs.kartoffel", names=", ".join(seat_name(table, s) for s in result["kartoffeln"])))
    before, after = record.get("before") or {}, record.get("after") or {}
    target = (record.get("public") or {}).get("target")
    ranking = after.get("ranking") or []
    for s in ranking:
        if s not in (before.get("ranking") or ()) and target and after["tricks"][s] >= target:
            lines.append(t(lang, "rs.out", name=seat_name(table, s), tricks=after["tricks"][s], target=target,
                           place=ranking.index(s) + 1))
    return lines


# ----------------------------------------------------------------- the score sheet
def sheet_text(table: Table, limit: int = TEXT_MAX) -> str:
    """The score sheet of the Partie so far, as the pub's chalk board would show it: one line per deal
    (for Rams the players' names once, then each deal's tricks in their order).

    Every row adds up: its changes (the deal's points, melds, the Kreuz-Bube's Strich, points over the
    round's end dropped) added to where the row starts give the running total after ``→``; a row that
    ends a round or a Brot says where the next one starts (``neu``). A long Partie shows its newest
    deals, as many as fit in a message (``…`` for the older ones).
    """
    lang = table.lang
    lines = [t(lang, "sheet.title", game=game_name(table.game, lang))]
    if not table.sheet:
        lines.append(t(lang, "sheet.empty"))
        return "\n".join(lines)
    if table.game != "rams":
        lines.append(t(lang, "sheet.teams", a=team_name(table, 0), b=team_name(table, 1)))
    else:  # the names once, as the columns of the rows
        lines.append(" · ".join(seat_name(table, s) for s in range(table.n)))
    first = table.sheet_dropped + 1
    rows = [f"{i}. {_sheet_row(table, record)}" for i, record in enumerate(table.sheet, first)]
    return fit_rows(lines, rows, cut=first > 1, limit=limit)


def _sheet_row(table: Table, record: dict) -> str:
    lang, game, result = table.lang, table.game, record.get("result") or {}
    if result.get("thrown_in"):
        return t(lang, "thrown_in")
    if game == "rams":
        return _rams_row(table, record)
    parts, total, marks = _team_row(table, record)
    match = record.get("after") or {}
    after = match.get(_RUNNING[game])
    if match.get("winner") is not None:  # the row that decided the match
        marks.append(t(lang, "sheet.match", team=team_name(table, match["winner"])))
    elif after is not None and list(after) != list(total):
        marks.append(t(lang, "sheet.new", a=_num(after[0]), b=_num(after[1])))
    row = " · ".join(f"{t(lang, key) + ' ' if key else ''}{_delta(a)} : {_delta(b)}" for key, a, b in parts)
    return " · ".join([f"{row} → {_num(total[0])} : {_num(total[1])}", *marks])


def _team_row(table: Table, record: dict) -> tuple[list[tuple[str, int, int]], list[int], list[str]]:
    """A team game's row: its changes (text key, team 0, team 1), the running total after them, its marks."""
    lang, game, (result, _, before) = table.lang, table.game, _facts(record)
    after = record.get("after") or {}
    alone = record.get("alone")  # Ledig, Karten weg: the row says who played alone
    marks = [] if alone is None else [t(lang, "sheet.alone", name=seat_name(table, alone),
                                        what=t(lang, "act.ledig" if game == "bauerchen" else "act.karten_weg"))]
    if game in ("bauernstoss", "alter_schafkopf"):
        gains = list(result["striche"])
        parts = [("", *gains)]
        jack = _jack_team(table, record)
        if jack is not None:
            gains[jack] -= 1
            extra = [0, 0]
            extra[jack] = 1
            parts = [("", *gains), ("sheet.jack", *extra)]
        start = before.get("striche") or [0, 0]
        chalk = after.get("chalk")
        return parts, _add(start, parts), [t(lang, "sheet.chalk", team=team_name(table, chalk) if chalk is not None
                                             else "–")]
    if game == "bauer":
        parts = [("", *result["change"])]
        if result.get("brot") is not None:
            won, brote = result["brot"], after.get("brote") or [0, 0]
            n = brote[won] - (before.get("brote") or [0, 0])[won]
            marks.append(t(lang, "sheet.brot", brote=tn(lang, "st.brote_n", n),
                           team=team_name(table, won), a=brote[0], b=brote[1]))
        return parts, _add(before.get("score") or [8, 8], parts), marks
    melds = result.get("melds") or [0, 0]
    start = [s - m for s, m in zip(before.get("score") or [0, 0], melds)]  # the melds were credited during the deal
    parts = [("", *result["points"])]
    if any(melds):
        parts.append(("sheet.melds", *melds))
    rw = result.get("round_winner")
    if rw is not None:
        total = _add(start, parts)
        kept = round_total(engine.parse_options(game, table.options), before.get("score") or [0, 0], result["points"],
                           rw, alone is not None)
        if alone is not None:  # Ledig won or lost the round: its winner's points to the round's end
            parts[0] = ("", *(k - x + p for k, x, p in zip(kept, total, result["points"])))
        elif kept != total:
            parts.append(("sheet.dropped", *(k - s for k, s in zip(kept, total))))
        marks.append(t(lang, "sheet.round", team=team_name(table, rw)))
        steine = (before.get("steine") or [0, 0])[rw], (after.get("steine") or [0, 0])[rw]
        if steine[1] > steine[0]:
            marks.append(t(lang, "sheet.stein", team=team_name(table, rw), a=after["steine"][0], b=after["steine"][1]))
    return parts, _add(start, parts), marks


def _add(start: list[int], parts: list[tuple[str, int, int]]) -> list[int]:
    """``start`` plus every change of ``parts``."""
    return [start[0] + sum(p[1] for p in parts), start[1] + sum(p[2] for p in parts)]


def _rams_row(table: Table, record: dict) -> str:
    """A Rams row: each seat's tricks this deal and his total, his Kartoffel, who reached the target."""
    result, before, after = record["result"], record.get("before") or {}, record.get("after") or {}
    marks = result.get("kartoffeln") or ()
    out = set(after.get("ranking") or ()) - set(before.get("ranking") or ())
    ranking = after.get("ranking") or []
    items = []
    for s in range(table.n):  # in the order of the names above the rows
        item = f"{_delta(result['tricks'][s])} → {after['tricks'][s]}"
        if s in marks:
            item += " 🥔"
        if s in out:
            item += " " + t(table.lang, "sheet.out", place=ranking.index(s) + 1)
        items.append(item)
    return " · ".join(items)


def _delta(n: int) -> str:
    """A change on the sheet: ``+2``, ``−1``, ``–`` for none."""
    return f"{n:+d}".replace("-", "−") if n else "–"


def _num(n: int) -> str:
    """A total on the sheet, with a true minus sign."""
    return str(n).replace("-", "−")
