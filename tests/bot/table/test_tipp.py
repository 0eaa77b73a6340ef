"""Where a hint (»Tipp«) is allowed, and its refusals with the reason; its search from a seat's view."""

from __future__ import annotations

import random

import pytest

import engine
from bot.protocol.outgoing import ChatRef
from bot.service.lobby import set_tipps
from bot.table.record import Seat, Table
from bot.table.refused import Refused
from bot.table.tipp import advise, allows, check
from engine.players.heuristic import heuristic


def _table(people: int, **fields) -> Table:
    seats = [Seat(user=f"t:{i}", name=f"P{i}") for i in range(people)] + [Seat(bot=True)] * (4 - people)
    return Table(id="T", chat=ChatRef("t", "g"), game="bauernstoss", n=4, opener="t:0", seats=seats, **fields)


def test_on_where_one_person_plays_with_computers_off_elsewhere_unless_set_never_in_a_tournament():
    assert allows(_table(1)) and not allows(_table(2))
    assert allows(_table(2, tipps=True)) and not allows(_table(1, tipps=False))
    assert not allows(_table(1, tourney="abc:1")) and not allows(_table(1, tipps=True, tourney="abc:1"))


def _refusal(table: Table, state, seat: int) -> str:
    with pytest.raises(Refused) as caught:
        check(table, state, seat)
    return caught.value.key


def test_refused_with_the_reason():
    state = engine.new_match("bauernstoss", random.Random(1))
    playing = {"status": "playing"}
    assert _refusal(_table(1, tourney="abc:1", **playing), state, state.to_act) == "tipp.tourney"
    assert _refusal(_table(2, **playing), state, state.to_act) == "tipp.off"
    assert _refusal(_table(1), None, 0) == "not_started"
    assert _refusal(_table(1, status="finished"), state, state.to_act) == "table_closed"
    idle = next(s for s in range(4) if s != state.to_act and not engine.view(state, s)["legal"])
    assert _refusal(_table(1, **playing), state, idle) == "tipp.not_your_turn"
    assert check(_table(1, **playing), state, state.to_act)["seat"] == state.to_act  # his view, nothing more


def test_the_option_is_set_in_the_lobby_only_and_never_at_a_tournaments_table():
    table = _table(2)
    set_tipps(table, True)
    assert table.tipps is True
    with pytest.raises(Refused, match="tipp.tourney"):
        set_tipps(_table(2, tourney="abc:1"), True)
    with pytest.raises(Refused, match="game_running"):
        set_tipps(_table(2, status="playing"), True)


def test_the_search_weighs_every_choice_from_his_view_within_its_budget():
    state = engine.new_match("bauernstoss", random.Random(2))
    brain = heuristic("bauernstoss")
    while len(engine.legal_actions(state)) < 2:
        state, _ = engine.apply(state, state.to_act, brain.choose(state, state.to_act))
    view = engine.view(state, state.to_act)
    seen = advise(view, state.options, random.Random(3), 4, None)
    assert seen.best in [engine.Action.from_dict(a) for a in view["legal"]]
    assert 4 <= seen.samples and {s.action for s in seen.options} == {engine.Action.from_dict(a) for a in view["legal"]}
