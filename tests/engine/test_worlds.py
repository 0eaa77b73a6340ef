"""Sampled deals: consistent with the view they come from, and never ruling out the true deal."""

from __future__ import annotations

import random

import pytest

import engine
from engine.players.heuristic import heuristic
from engine.players.playout import play_out
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


@pytest.mark.parametrize("game", ["bauerchen", "bauer"])
def test_samples_fit_how_the_others_played(game):
    """The opponents' plays were the heuristic's: in the true deal none counts as misplayed (the past
    positions are rebuilt faithfully), and the samples hold hands that play so far more often than
    deals placed only under the facts of the rules."""
    rng = random.Random(7)
    brain = heuristic(game)
    counts = {True: 0, False: 0}
    positions = 0

    def act(st, seat):
        nonlocal positions
        if seat == 0 and len(st.tricks) >= 2:
            worlds = Worlds(engine.view(st, 0), st.options)
            assert worlds.modelled
            assert worlds.misplays(st, [h | p for h, p in zip(st.hands, worlds.played_by)], 99) == 0
            positions += 1
            for modelled in (True, False):
                worlds.modelled = modelled
                for _ in range(4):
                    world = worlds.sample(rng)
                    counts[modelled] += worlds.misplays(world, [h | p for h, p in zip(world.hands, worlds.played_by)], 99)
        return brain.choose(st, seat)

    for _ in range(6):
        state = engine.new_match(game, rng)
        assert play_out(state, act, brain.offer)
    assert positions >= 6
    assert counts[True] * 2 < counts[False], counts


@pytest.mark.parametrize("options", [{}, {"trump_after_cards": 5}])
def test_bauerchen_samples_let_the_forehand_name_his_trump(options):
    """Naming trump is public: the forehand's sampled cards are nearly always ones the heuristic
    names that suit from (a few tries are made; the seat's own cards can make it rare)."""
    from engine.players.bauerchen import trump_for

    rng = random.Random(5)
    brain = heuristic("bauerchen")
    fits = named = 0
    while named < 10:
        state = engine.new_match("bauerchen", rng, 4, options)
        forehand = state.to_act
        action = brain.choose(state, forehand)
        if action.kind != "name_trump":
            continue
        state.do(forehand, action)
        named += 1
        worlds = Worlds(engine.view(state, (forehand + 1) % 4), state.options)
        for _ in range(5):
            world = worlds.sample(rng)
            seen = world.first[forehand] if not options else world.hands[forehand]
            assert seen.bit_count() == (2 if not options else 5) and not seen & ~world.hands[forehand]
            fits += trump_for(seen) == state.trump
    assert fits >= 45, fits


def test_bauerchen_samples_when_the_forehand_sits_out_a_ledig():
    """His partner's Ledig lays the forehand's cards face down: there is no packet of his to fit to his trump."""
    from engine.bauerchen import LEDIG

    rng = random.Random(11)
    brain = heuristic("bauerchen")
    state = engine.new_match("bauerchen", rng)
    forehand = state.to_act
    state.do(forehand, brain.choose(state, forehand))
    partner = (forehand + 2) % 4
    assert LEDIG in state.offers_for(partner)
    state.do(partner, LEDIG)
    assert not state.active[forehand]
    for seat in (forehand + 1) % 4, (forehand + 3) % 4:
        check(state, seat, rng)
        world = Worlds(engine.view(state, seat), state.options).sample(rng)
        assert not world.hands[forehand]
