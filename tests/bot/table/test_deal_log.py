"""A finished deal read back from a table's move log."""

from __future__ import annotations

import json
import random

import engine
from bot.protocol.outgoing import ChatRef
from bot.table import cpu
from bot.table.deal_log import finished_deal
from bot.table.match import Match
from bot.table.record import Seat, Table


def _log_of_two_deals() -> tuple[list[str], Match]:
    """A table's move log (one entry per save) through its first deal and into its second."""
    table = Table(id="T1", chat=ChatRef("test", "g"), game="bauer", n=4, options={"short_deck": True}, opener="test:a",
                  seats=[Seat(user="test:a", name="Anna"), Seat(bot=True), Seat(user="test:b", name="Ben"), Seat(bot=True)])
    match = Match(table, random.Random(4), 0.0)
    match.start()
    for seat in table.seats:
        seat.auto = True  # the computer plays every seat: the people's moves by the timer
    entries = []
    while table.deals_over < 1:  # the computers play one deal at most a command, and deal the next
        cpu.play_computers(match)
        entries.append(json.dumps({"v": len(entries), "moves": match.log}))
        match.log = []
    return entries, match


def test_the_deal_as_dealt_with_every_action_and_who_took_it():
    entries, match = _log_of_two_deals()
    deal = finished_deal(entries, 1)
    assert deal is not None and deal.no == 1 and deal.actions
    state = deal.start
    for seat, action, _ in deal.actions:
        state, _ = engine.apply(state, seat, action)
    assert engine.is_over(state) and state.result == match.table.sheet[0]["result"]
    assert finished_deal(entries, 2) is None, "the second deal is still running"
    assert finished_deal(entries, 0) is None and finished_deal(entries, 3) is None


def test_his_seat_where_he_acted_else_where_he_sits():
    entries, _ = _log_of_two_deals()
    deal = finished_deal(entries, 1)
    assert deal.seat_of("test:a", 0) == 0 and deal.seat_of("test:nobody", None) is None
    mine = finished_deal([json.dumps({"moves": [
        {"deal": engine.to_json(deal.start)},
        *({"s": s, "a": a.to_dict(), "by": "test:z" if s == 1 else "cpu"} for s, a, _ in deal.actions)]})], 1)
    assert mine.seat_of("test:z", None) == 1, "the seat he played, though he sits nowhere now"
