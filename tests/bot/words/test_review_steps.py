"""A review in words: the chat's compact text, the web's steps trick by trick."""

from __future__ import annotations

import random

import engine
from bot.protocol.outgoing import ChatRef
from bot.table import cpu
from bot.table.deal_log import Deal
from bot.table.match import Match
from bot.table.record import Seat, Table
from bot.words.review_steps import chat_text, review_steps


def _deal() -> tuple[Table, Deal]:
    """A table's first deal of Bauer's short deck, every seat played by the computer."""
    table = Table(id="T1", chat=ChatRef("test", "g"), game="bauer", n=4, options={"short_deck": True}, opener="test:a",
                  seats=[Seat(user="test:a", name="Anna", auto=True), *(Seat(bot=True) for _ in range(3))])
    match = Match(table, random.Random(2), 0.0)
    match.start()
    start = match.state
    cpu.play_computers(match)
    actions = tuple((m["s"], engine.Action.from_dict(m["a"]), m["by"]) for m in match.log if "s" in m)
    return table, Deal(1, start, actions)


def _judged(deal: Deal, seat: int) -> list[dict]:
    """Each of his decisions as a review gives it: the even ones marked, a better choice among his others."""
    out, state = [], deal.start
    for index, (actor, action, _) in enumerate(deal.actions):
        if actor == seat:
            others = [a for a in engine.legal_actions(state) if a != action] if state.to_act == seat else []
            mark = bool(others) and len(out) % 2 == 0
            out.append({"index": index, "trick": len(state.tricks) + 1 if state.phase == "play" else 0,
                        "choice": action.to_dict(), "best": (others[0] if mark else action).to_dict(),
                        "cost": 3.5 if mark else 0.0, "mark": mark, "seat": seat})
        state, _ = engine.apply(state, actor, action)
    return out


def test_the_steps_are_the_tricks_as_the_table_saw_them_with_his_decisions_in_them():
    table, deal = _deal()
    decisions = _judged(deal, 0)
    steps = review_steps(table, deal, 0, decisions)
    final = deal.start
    for seat, action, _ in deal.actions:
        final, _ = engine.apply(final, seat, action)
    tricks = [s for s in steps["steps"] if s["trick"] is not None]
    assert [[c["card"] for c in s["trick"]["cards"]] for s in tricks] == \
        [[c for c in t["cards"]] for t in engine.view(final, None)["tricks"]]
    assert sum(len(s["decisions"]) for s in steps["steps"]) == len(decisions) == len(
        [a for a in deal.actions if a[0] == 0])
    assert steps["marks"] == sum(d["mark"] for d in decisions) and steps["title"].endswith("Spiel 1 (deine Sicht)")
    marked = [d["text"] for s in steps["steps"] for d in s["decisions"] if d["mark"]]
    assert marked and all(line.startswith("✗ ") and "kostet im Schnitt 3,5 Punkte" in line for line in marked)
    assert [s["title"] for s in tricks] == [f"{n}. Stich" for n in range(1, len(tricks) + 1)]

def test_the_chat_text_puts_the_marked_decisions_first_under_the_deal_s_number():
    table, deal = _deal()
    decisions = _judged(deal, 0)
    lines = chat_text(table, deal, 0, decisions).split("\n")
    marks = sum(d["mark"] for d in decisions)
    assert lines[0] == "🔍 Spiel 1, deine Sicht" and lines[1].startswith("Nachbesprechung (Bauer): ")
    assert all(line.startswith("✗ ") for line in lines[2:2 + marks])
    assert not any(line.startswith("✗ ") for line in lines[2 + marks:])
