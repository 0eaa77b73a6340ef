"""A watcher's view of the web table depends on nothing hidden: at random positions of every game, the
cards nobody has seen are dealt anew (to fit everything public, as the strong computer player samples
deals) and the watcher's view stays the same bytes, while a seat whose hand changed sees it."""

from __future__ import annotations

import json
import random

import pytest

import engine
from bot.protocol.outgoing import ChatRef, UserRef
from bot.table.match import Match
from bot.table.record import Seat, Table
from bot.words.webview import web_view
from engine.players.worlds import Worlds

CASES = [("bauernstoss", 4), ("alter_schafkopf", 4), ("bauerchen", 4), ("bauer", 4), ("rams", 3), ("rams", 6)]
MOVES = 60
"""Random moves played per case (a match that ends is followed by a new one)."""
EVERY = 6
"""A position is looked at after every sixth move."""


def _table(game: str, n: int) -> Table:
    table = Table(id="T1", chat=ChatRef("telegram", "-1001", title="Lautern"), game=game, n=n, status="lobby",
                  opener="telegram:0", seats=[Seat() for _ in range(n)])
    for i in range(n):
        table.join(UserRef("telegram", str(i), f"Spieler {i}"))
    return table


def _bytes(table: Table, state: engine.State, seat: int | None) -> bytes:
    """The view as the page is sent it, with the record's stored state the one given (nothing else to read)."""
    shown = Table.load(table.dump())
    shown.state = engine.to_json(state)
    return json.dumps(web_view(shown, state, 9, seat, 3600.0), ensure_ascii=False, sort_keys=True).encode()


def _move(state: engine.State, rng: random.Random) -> tuple[int, engine.Action]:
    offers = engine.offers(state)
    if offers and rng.random() < 0.2:
        seat = rng.choice(sorted(offers))
        return seat, rng.choice(offers[seat])
    return state.to_act, rng.choice(engine.legal_actions(state))


@pytest.mark.parametrize(("game", "n"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_a_watchers_view_is_the_same_bytes_whatever_the_hidden_cards(game, n):
    rng = random.Random(f"{game}{n}")
    dealt_anew = seen_by_a_seat = looked = 0
    for move in range(MOVES):
        if move == 0 or table.status != "playing":  # a match that ended is followed by a new one
            table = _table(game, n)
            match = Match(table, rng, 0.0)
            match.start()
        match.act(*_move(match.state, rng), "cpu")
        match.save()
        state = match.state
        if move % EVERY or state is None or state.to_act is None:
            continue
        looked += 1
        public = _bytes(table, state, None)
        for seat in range(n):
            world = Worlds(engine.view(state, seat), state.options).sample(rng)
            assert _bytes(table, world, None) == public, f"a watcher's view shows a hidden card (seat {seat}'s sample)"
            changed = [s for s in range(n) if world.hands[s] != state.hands[s]]
            dealt_anew += bool(changed)
            seen_by_a_seat += any(_bytes(table, world, s) != _bytes(table, state, s) for s in changed)
    assert looked >= MOVES // EVERY // 2 and dealt_anew and seen_by_a_seat, "no position had hidden cards to deal anew"
