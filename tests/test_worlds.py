"""Sampled deals: consistent with the view they come from, and never ruling out the true deal."""

from __future__ import annotations

import random

import pytest

import engine
from engine.players.playout import play_out
from engine.players.strong import heuristic
from engine.players.worlds import Worlds

CASES = [("bauernstoss", 4, {}), ("alter_schafkopf", 4, {}), ("bauerchen", 4, {}),
         ("bauerchen", 4, {"trump_after_cards": 5}), ("bauer", 4, {}), ("bauer", 4, {"short_deck": True}),
         ("rams", 3, {}), ("rams", 4, {}), ("rams", 7, {})]


def check(state: engine.State, seat: int, rng: random.Random) -> None:
    """The facts ``Worlds`` derives hold in the true deal; a sample keeps everything the seat saw."""
    view = engine.view(state, seat)
    worlds = Worlds(view, state.options)
    for s in range(state.n):
        if s != seat:
            assert not worlds.excluded[s] & state.hands[s], f"seat {s} holds a card ruled out"
            assert worlds.known[s] & ~state.hands[s] == 0, f"a card known in seat {s}'s hand is not there"
    world = worlds.sample(rng)
    assert world.visible_hand(seat) == state.visible_hand(seat)
    assert engine.view(world, seat) == view, "the sample does not look the same from the seat"
    deck = state.deck(state.options, state.n, state.match)
    union = 0
    for h in world.hands:
        assert not union & h
        union |= h
    assert union | world.played() | world.set_aside() == deck
    assert not union & world.set_aside() and not union & world.played()
    assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=[f"{g}-{n}-{o}" for g, n, o in CASES])
def test_samples_fit_the_view_and_the_truth(game, players, options):
    rng = random.Random(game)
    state = engine.new_match(game, rng, players, options)
    brain = heuristic(game)

    def act(st, seat):
        check(st, seat, rng)
        return rng.choice(st.legal()) if rng.random() < 0.2 else brain.choose(st, seat)

    def offer(st, seat):
        check(st, seat, rng)
        return brain.offer(st, seat)

    for _ in range(3):
        assert play_out(state, act, offer)
        if engine.match_over(state):
            break
        state = engine.next_deal(state, rng)


def test_bauer_samples_give_the_caller_a_first_packet_that_names_his_trump():
    """Naming trump is public: the caller's sampled first packet is one the heuristic names that suit from."""
    from engine.players.bauer import naming_value

    rng = random.Random(3)
    brain = heuristic("bauer")
    for _ in range(10):
        state = engine.new_match("bauer", rng)
        caller = state.to_act
        state.do(caller, brain.choose(state, caller))
        seat = (caller + 1) % 4
        worlds = Worlds(engine.view(state, seat), state.options)
        for _ in range(5):
            world = worlds.sample(rng)
            packet = world.first[caller]
            assert packet.bit_count() == 4 and not packet & ~world.hands[caller]
            assert naming_value(packet, state.trump) == max(naming_value(packet, s) for s in range(4))
