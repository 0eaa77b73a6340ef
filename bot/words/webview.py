"""One seat's view of a table as plain JSON-able data, for the web table's page; or a watcher's.

Built from ``engine.view(state, seat)`` and the words only (the same labels, score lines, story and
hand buttons the chats show), so it holds the viewer's own cards and never another seat's. A
watcher's view (``seat`` ``None``) is built from the engine's public view: no hand, no choice, no card
anybody holds. His cards
and choices are exactly those of his hand message (:func:`bot.words.hand.hand_message`): each with
the ``verb`` and ``arg`` of its button token, which the page sends back with ``hand_version`` to act
as a button press would.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.protocol import actarg, tokens
from bot.protocol.outgoing import Button
from bot.table import window
from bot.table.match import trick_event
from bot.table.record import Table
from bot.words import render, story
from bot.words.away import away_line
from bot.words.cards import card_label
from bot.words.webdeal import deal_result, named_trick, sheet_lines, turned_cards
from bot.words.hand import CARD_CHOICES, hand_message
from bot.words.i18n import game_name, hint, t, tn
from engine.state import State

__all__ = ["web_view", "web_text", "watchers_text", "LABELS", "STORY_MAX", "END_VERBS"]

LABELS = ("hand", "trick", "last_trick", "score", "story", "you", "offline", "led", "sheet", "close", "play_on", "watching",
          "review")
"""The page's own headings and status words (``web.<name>`` texts), sent with every view."""
STORY_MAX = 40
"""The most story lines a view carries (the latest)."""
END_VERBS = ("rematch", "new")
"""The offers of an ended table's message a view carries where its viewer may press them (»Revanche«, »Neuer Tisch«)."""


def web_text(lang: str, key: str, **params: object) -> str:
    """One of the web table's own texts (``web.<key>``) in ``lang`` (German for any other)."""
    return t(lang, f"web.{key}", **params)


def watchers_text(lang: str, count: int) -> str:
    """The line that tells a table's pages how many watch it (nothing when nobody does)."""
    return tn(lang, "web.watchers", count) if count > 0 else ""


def _cards(table: Table, seats: list[int], cards: list[str]) -> list[dict[str, Any]]:
    return [{"seat": s, "name": render.seat_name(table, s), "card": c, "label": card_label(c, table.lang)}
            for s, c in zip(seats, cards)]


def _last_trick(table: Table, state: State, view: dict[str, Any]) -> dict[str, Any] | None:
    """The deal's last completed trick, else the last trick of the deal before (:func:`named_trick`)."""
    if view["tricks"]:
        return named_trick(table, trick_event(state, view["tricks"][-1]))
    if table.sheet and table.sheet[-1].get("trick"):
        return named_trick(table, table.sheet[-1]["trick"])
    return None


def _seats(table: Table, view: dict[str, Any] | None, me: int | None) -> list[dict[str, Any]]:
    lang = table.lang
    out = []
    for i in range(table.n):
        seat: dict[str, Any] = {"seat": i, "name": render.seat_name(table, i), "me": i == me,
                                "computer": table.seats[i].computer, "turn": False, "active": True, "cards": 0}
        if view is not None:
            seat.update(turn=view["to_act"] == i, active=view["active"][i], cards=view["hand_sizes"][i])
            seat["note"] = web_text(lang, "sits_out") if not seat["active"] else tn(lang, "web.cards_left",
                                                                                          seat["cards"])
        out.append(seat)
    return out


def _hand(table: Table, state: State, seat: int, version: int) -> tuple[list[dict], list[dict], int]:
    """His cards and his offers as the page shows them, and the version their buttons carry.

    A card may be played when the engine takes it from him now and nobody's window before the first
    lead is open (the lead waits for them: :mod:`bot.table.window`). A meld (Bauerchen's K+Q) is offered
    on the same terms: the chats' hands show it all the time, the page only when it may be played.
    """
    message = hand_message(table, state, seat, version)
    playable = set(message.playable) if not table.declare else set()
    cards, offers, hand_version = [], [], version
    for button in (b for row in message.buttons for b in row):
        tok = tokens.parse(button.token)
        if tok is None:
            continue
        hand_version = tok.version
        action = actarg.decode(tok.arg) if tok.verb == "act" else None
        if action is not None and (action.kind == "play" and not action.meld or action.kind in CARD_CHOICES):
            card = tok.arg.split(".")[1]
            cards.append({"card": card, "label": card_label(card, table.lang), "verb": tok.verb, "arg": tok.arg,
                          "legal": button.token in playable, "choice": button.label if action.kind != "play" else ""})
        elif action is None or not action.meld or button.token in playable:
            offers.append(_offer(button, tok, table.lang))
    return cards, offers, hand_version


def _unsigned(line: str) -> str:
    """A chat line without its leading sign (»⏳ Anna: …« → »Anna: …«): the page draws no emoji."""
    sign, _, rest = line.partition(" ")
    return rest if rest and not any(c.isalnum() for c in sign) else line


def _offer(button: Button, tok: tokens.Token, lang: str) -> dict[str, str]:
    """An offer as the page shows it: the chats' label, the hint's without its sign (the page draws no emoji)."""
    return {"verb": tok.verb, "arg": tok.arg, "label": web_text(lang, "tipp") if tok.verb == "tipp" else button.label}


def _playing(table: Table, state: State, seat: int | None, version: int, out: dict[str, Any]) -> None:
    lang = table.lang
    view = engine.view(state, seat)
    out["seats"] = _seats(table, view, seat)
    out["trick"] = _cards(table, [e["seat"] for e in view["trick"]], [e["card"] for e in view["trick"]])
    out["last_trick"] = _last_trick(table, state, view)
    out["trick_leader"] = view["trick"][0]["seat"] if view["trick"] else None
    out["score"] = render.score_lines(table, view)
    out["info"] = render.info_line(table, view, turned=False)
    out["turned"] = turned_cards(table, view.get("public") or {})
    out["story"] = story.news_lines(table, table.story)[-STORY_MAX:]
    out["result"] = deal_result(table, fresh=not view["tricks"])
    if seat is not None:
        out["hand"], out["offers"], out["hand_version"] = _hand(table, state, seat, version)
    to_act = view["to_act"]
    if seat is not None and to_act == seat:
        out["status"] = " ".join(filter(None, (t(lang, "your_turn"),
                                               hint(lang, view["restriction"]) if view.get("restriction") else "")))
    elif to_act is not None:
        out["status"] = t(lang, "turn", name=render.seat_name(table, to_act))
    if seat is not None and seat in window.waiting_for(table):
        out["status"] = t(lang, "declare_now", what=render.declaring(table, state)["what"])
    out["to_act"] = to_act


def _ended(table: Table, state: State | None, out: dict[str, Any]) -> None:
    """An ended match: its last deal's result with the summary, and the final score (»Stand«)."""
    if table.status != "finished" or state is None:
        return
    view = engine.view(state, None)
    out["score"] = render.score_lines(table, view)
    out["result"] = deal_result(table, fresh=True, final=render.summary(table, view["match"]))


def web_view(table: Table, state: State | None, version: int, seat: int | None, now: float,
             ends: bool = False) -> dict[str, Any]:
    """What seat ``seat`` sees of ``table`` at ``version``: JSON-able, his own cards only.

    ``seat`` ``None`` is a watcher: the public table only (``hand`` and ``offers`` stay empty, ``watching``
    is true).

    With ``ends``, an ended table's view offers what its message offers of :data:`END_VERBS` (for a
    viewer whose taps count as presses in the table's chat: his own private chat).

    Keys: ``table``, ``version``, ``lang``, ``game``, ``title``, ``status`` (a line for him: his turn,
    whose turn, the table's state), ``seat``, ``seats`` (``seat``, ``name``, ``me``, ``turn``,
    ``active``, ``cards``, ``note``), ``trick`` (cards as ``seat``, ``name``, ``card``, ``label``) and
    ``trick_leader`` (who led it), ``last_trick`` (:func:`~bot.words.webdeal.named_trick`), ``result`` (the
    last finished deal: :func:`~bot.words.webdeal.deal_result`), ``sheet`` (the ``zettel`` lines), ``turned``
    (Rams' Kehrer and Bälli), ``score`` and ``story`` (lines: the running deal's, or the ended table's message),
    ``info``, ``hand`` (``card``, ``label``, ``legal``, ``verb``, ``arg``), ``offers`` (``verb``, ``arg``,
    ``label``), ``hand_version``, ``to_act`` and ``labels`` (the page's headings).
    """
    lang = table.lang
    out: dict[str, Any] = {
        "table": table.id, "version": version, "lang": lang, "game": table.game, "state": table.status,
        "title": game_name(table.game, lang), "seat": seat, "seats": _seats(table, None, seat), "trick": [],
        "last_trick": None, "score": [], "info": "", "story": [], "hand": [], "offers": [],
        "hand_version": version, "to_act": None, "status": "", "away": "", "trick_leader": None, "turned": [], "watching": seat is None,
        "result": None, "sheet": sheet_lines(table) if table.sheet else [],
        "labels": {name: web_text(lang, name) for name in LABELS},
    }
    if table.status == "playing" and state is not None:
        _playing(table, state, seat, version, out)
        lines = [away_line(table, out["to_act"], now), *render.vacation_lines(table, now)]
        out["away"] = " · ".join(_unsigned(line) for line in lines if line)
        out["title"] += " · " + t(lang, "deal_no", no=table.deals + 1)
    elif table.status == "lobby":
        out["status"] = web_text(lang, "lobby")
    else:
        message = render.table_message(table, state, version, now)
        out["story"] = message.text.split("\n")[-STORY_MAX:]
        _ended(table, state, out)
        if ends:
            out["offers"] = [_offer(b, tok, lang) for row in message.buttons for b in row
                             if (tok := tokens.parse(b.token)) is not None and tok.verb in END_VERBS]
        out["status"] = t(lang, "match_over" if table.status == "finished" else "table_aborted")
    return out
