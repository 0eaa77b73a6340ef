"""The table message as text plus buttons: lobby, running deal, final summary, short enough for a phone.

It is built from ``engine.view(state, None)`` only, so it never sees a card hidden in a hand; the
hands are :mod:`bot.words.hand`, the buttons :mod:`bot.words.buttons`.
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import lru_cache
from typing import Any, get_args
from zoneinfo import ZoneInfo

import engine
from bot.protocol.outgoing import Button, TableMessage
from bot.table import tipp, vacation, window
from bot.table.match import trick_event
from bot.table.pace import DEFAULT_PACE
from bot.table.record import Table
from bot.words import figures, story
from bot.words.buttons import MEMORY_BUTTONS, Rows, button_token, declare_label, in_rows
from bot.words.cards import card_label, cards_label, suit_label
from bot.words.away import away_line
from bot.words.figures import ago, money, short
from bot.words.i18n import game_name, option_label, t, tn
from bot.words.story import seat_name, team_name
from engine.bauerchen import round_end
from engine.state import State

__all__ = ["table_message", "declaring", "seat_name", "team_name", "deal_line", "result_text", "last_deal_lines",
           "score_lines", "info_line",
           "summary", "ago", "option_fields", "options_text", "vacation_lines"]


# ----------------------------------------------------------------- names and small pieces
def _timer(seconds: int | None, lang: str) -> str:
    """A turn timer's length for the lobby (``nie`` when off)."""
    return ago(seconds, lang) if seconds else t(lang, "timer_off")


def option_fields(game: str) -> list[tuple[str, tuple]]:
    """The options of ``game`` that a button can switch: (name, the values it cycles through)."""
    out = []
    for name, field in engine.game_class(game).OPTIONS.model_fields.items():
        if field.annotation is bool:
            out.append((name, (False, True)))
        elif get_args(field.annotation) and all(isinstance(v, (int, str)) for v in get_args(field.annotation)):
            out.append((name, get_args(field.annotation)))
    return out


def _option_value(lang: str, name: str, value: Any) -> str:
    """An option's value in ``lang``: on or off, a number, a choice in words (``opt.partners.seats``)."""
    if isinstance(value, bool):
        return t(lang, "on" if value else "off")
    if isinstance(value, float):  # 2,5 in German
        return short(lang, value)
    if isinstance(value, str):
        return t(lang, f"opt.{name}.{value}")
    return str(value)


def options_text(lang: str, options: dict[str, Any]) -> str:
    """A table's options by their names in ``lang``, ``Ziel 30 · Sechser an``, in the order given."""
    return " · ".join(f"{option_label(lang, k)} {_option_value(lang, k, v)}" for k, v in options.items())


# ----------------------------------------------------------------- game lines
@lru_cache(maxsize=256)
def _options(game: str, options_json: str) -> Any:
    """A table's parsed options (tables share the few option sets there are)."""
    return engine.parse_options(game, json.loads(options_json))


def score_lines(table: Table, view: dict[str, Any]) -> list[str]:
    lang, game, match, public = table.lang, table.game, view["match"], view.get("public") or {}
    opts = _options(game, json.dumps(table.options, sort_keys=True))
    if game in ("bauernstoss", "alter_schafkopf"):
        chalk = match.get("chalk")
        holder = team_name(table, chalk) if chalk is not None else t(lang, "bs.nobody")
        return [t(lang, "bs.score", a=match["striche"][0], b=match["striche"][1], target=opts.target, chalk=holder)]
    if game == "bauerchen":
        end = round_end(opts)
        return [t(lang, "bc.score", a=match["score"][0], b=match["score"][1], end=end, ka=match["knoddel"][0],
                  kb=match["knoddel"][1], sa=match["steine"][0], sb=match["steine"][1])]
    if game == "bauer":
        return [t(lang, "ba.score", a=match["score"][0], b=match["score"][1], ba=match["brote"][0],
                  bb=match["brote"][1], target=opts.target_brote)]
    items = " · ".join(f"{seat_name(table, s)}: {n}" + (f" (+{won})" if won else "")
                       for s, (n, won) in enumerate(zip(match["tricks"], view["won"])))
    lines = [t(lang, "rs.score", items=items, target=public.get("target", ""))]
    if any(match["kartoffeln"]):
        lines.append(t(lang, "rs.potatoes", items=" · ".join(
            f"{seat_name(table, s)}: {n}" for s, n in enumerate(match["kartoffeln"]) if n)))
    return lines


def info_line(table: Table, view: dict[str, Any], turned: bool = True) -> str:
    """Trump and what was announced or doubled this deal, in one line (never a hand).

    Without ``turned``, Rams' turned cards are left out (the web page pictures them).
    """
    lang, game, public = table.lang, table.game, view.get("public") or {}
    parts = []
    trump = view.get("trump")
    namer = public.get("namer", public.get("caller"))
    if game == "bauerchen" and trump:
        namer = None if public.get("ledig") is not None else (view["dealer"] + 1) % table.n
    if trump:
        suit = suit_label(trump)
        parts.append(t(lang, "trump_by", suit=suit, name=seat_name(table, namer)) if namer is not None
                     else t(lang, "trump", suit=suit))
    elif view["phase"] != "over":
        parts.append(t(lang, "no_trump_yet"))
    if game in ("bauernstoss", "alter_schafkopf"):
        if public.get("returned_jack"):
            parts.append(card_label(public["returned_jack"], lang))
    elif game == "bauerchen":
        if trump:
            parts.append(t(lang, "bc.home", team=team_name(table, public["home"])))
        if public.get("letzte"):
            parts.append(t(lang, "bc.letzte", card=card_label(public["letzte"], lang)))
        if public.get("spritz"):
            parts.append(t(lang, "bc.spritz", times=2 ** public["spritz"]))
        if any(public.get("melds", ())):
            parts.append(t(lang, "bc.melds", a=public["melds"][0], b=public["melds"][1]))
    elif game == "bauer":
        if view["tricks"]:
            won = view["won"]
            parts.append(t(lang, "ba.tricks", a=won[0] + won[2], b=won[1] + won[3]))
        if public.get("stoss"):
            parts.append(t(lang, "st.stossed", times=2 ** len(public["stoss"])))
    elif game == "rams" and turned:
        shown = public.get("turned") or []
        if len(shown) == 2:  # the Bälli was turned first, the Kehrer beside it sets trump
            parts.append(t(lang, "rs.kehrer_baelli", kehrer=card_label(shown[1], lang),
                           baelli=card_label(shown[0], lang)))
        elif shown:
            parts.append(t(lang, "rs.kehrer", cards=cards_label(shown, lang)))
    return " · ".join(parts)


def _trick_line(table: Table, trick: list[dict], to_act: int | None, key: str = "trick", no: int = 0) -> str:
    cards = story.cards_played(table, trick)
    if to_act is not None:
        cards.append(f"{seat_name(table, to_act)} …")
    return t(table.lang, key, no=no, cards=" · ".join(cards))


def deal_line(table: Table, record: dict[str, Any]) -> str:
    """The result of a finished deal (a record of ``Table.sheet``) in one line."""
    return " · ".join(story.result_lines(table, record))


def result_text(table: Table, record: dict[str, Any], no: int) -> str:
    """A finished deal as a message of its own: its number, its last trick and its result explained."""
    lines = [t(table.lang, "st.deal_title", game=game_name(table.game, table.lang), no=no)]
    if record.get("trick"):
        lines.append(story.trick_line(table, record["trick"], "st.last"))
    return "\n".join(lines + story.result_lines(table, record))


def last_deal_lines(table: Table) -> list[str]:
    """The last finished deal: its last trick, who played which card, then its result explained."""
    if not table.sheet:
        return []
    record = table.sheet[-1]
    lines = [t(table.lang, "st.last_deal")]
    if record.get("trick"):
        lines.append(story.trick_line(table, record["trick"], "st.last"))
    return lines + story.result_lines(table, record)


def summary(table: Table, match: dict[str, Any]) -> list[str]:
    """The final summary: winners, scores, rounds, best trick, for Rams ranking and settlement."""
    lang, game = table.lang, table.game
    if game == "rams":
        ranking = match["ranking"]
        lines = [t(lang, "winner_one", name=seat_name(table, ranking[0]))]
        lines.append(t(lang, "ranking", items=" · ".join(
            f"{i + 1}. {seat_name(table, s)}: {match['tricks'][s]}" for i, s in enumerate(ranking))))
        return lines + _settlement(table, match)
    win = match["winner"]
    if game in ("bauernstoss", "alter_schafkopf"):
        what = t(lang, "what.bs", score=story.both_teams(table, *match["striche"]))
    elif game == "bauerchen":
        what = t(lang, "what.bc", score=story.both_teams(table, *match["steine"]))
    else:
        what = t(lang, "what.ba", score=story.both_teams(table, *match["brote"]))
    lines = [t(lang, "winner", team=team_name(table, win), what=what)]
    if table.marks:
        knoddel, items = [0, 0], []
        for a, b, winner in table.marks:
            item = f"{a}:{b}"
            if knoddel == [1, 1]:
                item += f" ({t(lang, 'decider')})"
            items.append(item)
            knoddel[1 - winner] += 1
            if knoddel[1 - winner] == 2:
                knoddel = [0, 0]
        lines.append(t(lang, "rounds", items=" · ".join(items)))
    if table.best:
        lines.append(t(lang, "best_trick", name=seat_name(table, table.best[0]), eyes=table.best[1]))
    lines.append(tn(lang, "deals_played", table.deals))
    return lines


def _settlement(table: Table, match: dict[str, Any]) -> list[str]:
    """Rams' settlement in words: everybody pays into the Kasse, by place and Kartoffeln, and the sum."""
    lang, opts = table.lang, _options(table.game, json.dumps(table.options, sort_keys=True))
    cash = lambda amount: money(lang, amount, table.currency)  # noqa: E731
    lines = [t(lang, "settlement")]
    for place, s in enumerate(match["ranking"]):
        potatoes = match["kartoffeln"][s]
        why = [t(lang, "pay.place", place=place + 1, amount=cash(place * opts.unit))] if place else []
        if potatoes:
            why.append(tn(lang, "pay.potatoes", potatoes,
                         amount=cash(potatoes * opts.kartoffel_fee)))
        pays = match["settlement"][s]
        if pays:
            lines.append(t(lang, "pays", name=seat_name(table, s), amount=cash(pays), why=" + ".join(why)))
        else:
            lines.append(t(lang, "pays_nothing", name=seat_name(table, s)))
    lines.append(t(lang, "pay.total", amount=cash(sum(match["settlement"]))))
    return lines


# ----------------------------------------------------------------- the table message
def declaring(table: Table, state: State) -> dict[str, str]:
    """Who may still declare playing alone before the first lead (``names``), and what (``what``)."""
    seats = window.waiting_for(table)
    names = [seat_name(table, s) for s in seats]
    return {"names": t(table.lang, "and").join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names),
            "what": declare_label(table.lang, {a.kind for s in seats for a in window.declarable(state, s)})}


def table_message(table: Table, state: State | None, version: int, now: float,
                  news: list[dict] | None = None) -> TableMessage:
    """The public table message: lobby, running deal, final summary or abort note, with buttons.

    ``news`` are the events of the command that led here: they become the message's story lines.
    """
    if table.status == "lobby":
        text, buttons = _lobby(table, version)
    elif table.status == "playing":
        text, buttons = _playing(table, state, version, now)
    elif table.status == "finished":
        last = last_deal_lines(table)
        text = "\n".join(last + [""] * bool(last) + summary(table, engine.view(state, None)["match"])
                         + ["", t(table.lang, "tn.match_over")] * bool(table.tourney))
        memory = (tuple(Button(t(table.lang, f"btn.{verb}"), button_token(table, version, verb))
                        for verb in MEMORY_BUTTONS),)
        buttons = memory if table.tourney else ((
            Button(t(table.lang, "btn.rematch"), button_token(table, version, "rematch")),
            Button(t(table.lang, "btn.new"), button_token(table, version, "new"))),) + memory
        review = _review(table, version)
        buttons += (review,) if review else ()
    else:  # a tournament's aborted match: the tournament goes on without a new table here
        text = t(table.lang, "aborted_title", game=game_name(table.game, table.lang))
        buttons = () if table.tourney else ((Button(t(table.lang, "btn.new"), button_token(table, version, "new")),),)
    return TableMessage(table.chat, table.id, text, buttons, story=tuple(story.news_lines(table, news or [])),
                        in_trick=table.status == "playing" and state is not None and bool(state.trick))


def _lobby(table: Table, version: int) -> tuple[str, Rows]:
    lang = table.lang
    opener = seat_name(table, table.seat_of(table.opener)) if table.seat_of(table.opener) is not None else ""
    lines = [t(lang, "lobby_title", game=game_name(table.game, lang), name=opener or "–")]
    rules = [options_text(lang, table.options)] if table.options else []
    if table.game == "rams":
        rules.append(f"{option_label(lang, 'currency')} {table.currency}")
    if table.tipps is not None:
        rules.append(f"{option_label(lang, tipp.OPTION)} {_option_value(lang, tipp.OPTION, table.tipps)}")
    lines.append(t(lang, "house_rules", rules=" · ".join(rules) if rules else t(lang, "standard")))
    lines.append(" · ".join(f"{i + 1} {seat_name(table, i)}" for i in range(table.n)))
    if table.game != "rams":
        lines.append(t(lang, "partners", a=team_name(table, 0), b=team_name(table, 1)))
    if any(s.empty for s in table.seats):
        lines.append(t(lang, "need_players"))
    pace = t(lang, f"pace.{table.pace or DEFAULT_PACE}")
    lines.append(t(lang, "pace_line", pace=pace, remind=_timer(table.remind, lang), auto=_timer(table.auto, lang)))
    if table.show_opts:
        lines.append(t(lang, "options_help"))
        opts = _options(table.game, json.dumps(table.options, sort_keys=True))
        buttons = [Button(f"{option_label(lang, name)}: {_option_value(lang, name, getattr(opts, name))}",
                          button_token(table, version, "opt", str(i)))
                   for i, (name, _) in enumerate(option_fields(table.game))]
        buttons.append(Button(t(lang, "btn.pace", pace=pace), button_token(table, version, "pace")))
        tipps = f"{option_label(lang, tipp.OPTION)}: {_option_value(lang, tipp.OPTION, tipp.allows(table))}"
        buttons.append(Button(tipps, button_token(table, version, tipp.OPTION)))
        rows = in_rows(buttons, 2) + ((Button(t(lang, "btn.done"), button_token(table, version, "opts", "0")),),)
        return "\n".join(lines), rows
    b = lambda key, verb: Button(t(lang, f"btn.{key}"), button_token(table, version, verb))  # noqa: E731
    rows = ((b("join", "join"), b("leave", "leave"), b("bot", "bot"), b("bot_remove", "botx")),
            tuple(Button(t(lang, "btn.bot_level", level=t(lang, f"level.{level}")), button_token(table, version, "bot", level))
                  for level in ("leicht", "stark")),
            (b("rules", "rules"), Button(t(lang, "btn.options"), button_token(table, version, "opts", "1")),
             b("start", "start")))
    return "\n".join(lines), rows


def vacation_lines(table: Table, now: float) -> list[str]:
    """A line for each seated person whose vacation this table waits for: ``🏖 Anna: im Urlaub bis Fr., 12.12.``."""
    lines = []
    for seat, s in enumerate(table.seats):
        away = vacation.running(table, s.user, now) if s.user else None
        if away is not None:
            when = datetime.fromtimestamp(away.until, ZoneInfo(away.zone or "UTC"))
            lines.append(t(table.lang, "vac.line", name=seat_name(table, seat), until=figures.weekday(table.lang, when)))
    return lines


def _playing(table: Table, state: State, version: int, now: float) -> tuple[str, Rows]:
    lang = table.lang
    view = engine.view(state, None)
    lines = [f"{t(lang, 'play_title', game=game_name(table.game, lang))} · {t(lang, 'deal_no', no=table.deals + 1)}"]
    lines += score_lines(table, view)
    if table.game != "rams":
        lines.append(f"{team_name(table, 0)} – {team_name(table, 1)}")
    calls = story.calls_line(table, table.story)
    if calls:
        lines.append(calls)
    info = info_line(table, view)
    if info:
        lines.append(info)
    to_act = view["to_act"]
    if view["trick"] or view["phase"] == "play":
        lines.append(_trick_line(table, view["trick"], to_act, no=len(view["tricks"]) + 1))
    if view["tricks"]:
        lines.append(story.trick_line(table, trick_event(state, view["tricks"][-1]), "st.last"))
    else:
        lines += last_deal_lines(table)
    turn = t(lang, "turn", name=seat_name(table, to_act))
    if now - table.since >= 60:
        turn += t(lang, "since", ago=ago(now - table.since, lang))
    lines.append(turn)
    lines += vacation_lines(table, now)
    if away := away_line(table, to_act, now):
        lines.append(away)
    if table.declare:
        lines.append(t(lang, "declare_open", **declaring(table, state)))
    hand = Button(t(lang, "btn.hand"), button_token(table, version, "hand"))
    return "\n".join(lines), ((hand, *_review(table, version)),)


def _review(table: Table, version: int) -> tuple[Button, ...]:
    """The »Nachbesprechung« button of the last finished deal (none before the first ends): each of its
    players gets his own review from it, privately."""
    no = table.deals_over
    return (Button(t(table.lang, "btn.review"), button_token(table, version, "review", str(no))),) if no else ()
