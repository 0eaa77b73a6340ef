"""The second opinion: the strong player's choice and what its search saw for every choice, from a view only."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.actions import Action
from engine.cards import parse_card
from engine.players import strong
from engine.players.heuristic import heuristic
from engine.players.opinion import opinion, paired, sharpen
from tests.engine.test_strong import FORCED, meaningful

GAMES = ["bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams"]


def views(game: str, seed: int):
    """Every seat's view with a decision (its turn, or an offer out of turn) along one heuristic deal."""
    rng = random.Random(f"{game}{seed}")
    state = engine.new_match(game, rng, 5 if game == "rams" else None)
    brain = heuristic(game)
    while state.to_act is not None:
        for seat in range(state.n):
            if seat == state.to_act or state.offers_for(seat):
                yield state, json.loads(json.dumps(engine.view(state, seat)))
        state.do(state.to_act, brain.choose(state, state.to_act))


@pytest.mark.parametrize("game", GAMES)
def test_the_opinions_choice_is_the_strong_players(game):
    """Same view, same seed, same budget: the same action as ``strong.choose`` (the stake rule included)."""
    for k, (state, view) in enumerate(views(game, 1)):
        if k % 3:
            continue  # every third decision: the suit stays cheap
        samples = 2 + k % 4
        expected = strong.choose(view, state.options, random.Random(k), samples)
        found = opinion(view, state.options, random.Random(k), samples)
        assert found.best == expected
        choices = [Action.from_dict(a) for a in view["legal"]]
        if view["to_act"] != view["seat"]:
            choices = [None, *choices]
        assert [s.action for s in found.options] == choices
        assert found.best in choices
        assert all(s.samples in (found.samples, 0) and len(s.values) == s.samples for s in found.options)
        assert all(0 <= s.trick <= 1 and 0 <= s.won <= 1 for s in found.options)


def test_a_forced_decision_needs_no_search():
    state = next(s for s, v in views("bauer", 2) if s.phase == "play" and len(s.legal()) == 1 and s.to_act == v["seat"])
    found = opinion(engine.view(state, state.to_act), state.options, random.Random(1))
    assert found.samples == 0 and len(found.options) == 1 and found.best == found.options[0].action


@pytest.mark.parametrize("game", list(FORCED))
def test_the_figures_tell_why_the_last_trump_comes_first(game):
    """Drawing the last trump first wins both tricks in every sample; cashing the ace first costs in some."""
    state = meaningful(game)
    found = opinion(engine.view(state, 0), state.options, random.Random(3), samples=24, settle=False)
    top, ace = (found.stats(Action("play", parse_card(c))) for c in (FORCED[game][1], "AS"))
    assert found.best == top.action and found.samples == 24 == top.samples == ace.samples
    assert top.trick == 1.0 and top.worth >= ace.worth
    mean, error = paired(top, ace)
    assert mean == pytest.approx(top.worth - ace.worth) and mean >= 0 and error >= 0
    assert top.gained >= ace.gained


def test_an_offer_out_of_turn_may_be_let_pass():
    """A seat not on turn with an offer (Spritzen) chooses between letting it pass (``None``) and taking it."""
    state, view = next((s, v) for s, v in views("bauerchen", 3) if v["to_act"] != v["seat"])
    found = opinion(view, state.options, random.Random(2), samples=4, settle=False)
    assert found.options[0].action is None and found.samples >= 4
    assert {s.action.kind for s in found.options[1:]} <= {"spritz", "ledig"}


def test_a_close_call_is_sharpened_with_more_samples_of_two_choices():
    state = meaningful("rams")
    view = engine.view(state, 0)
    found = opinion(view, state.options, random.Random(4), samples=6, settle=False)
    top, ace = (Action("play", parse_card(c)) for c in (FORCED["rams"][1], "AS"))
    sharp = sharpen(view, state.options, random.Random(5), found, (top, ace), 10)
    assert [s.action for s in sharp] == [top, ace] and all(s.samples == 16 == len(s.values) for s in sharp)
    for before, after in zip((found.stats(top), found.stats(ace)), sharp):
        assert after.values[:6] == before.values and after.worth == pytest.approx(sum(after.values) / 16)
    assert sharp[0].trick == 1.0 and paired(*sharp)[0] >= 0
