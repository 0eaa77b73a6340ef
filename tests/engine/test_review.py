"""The review of a deal: every decision of a seat from its view then, beside the strong player's, with a cost and a
mark that two seeds agree on."""

from __future__ import annotations

import json
import random

import pytest

from bot.tools.simulate import played_replay
from engine.replay import ReplayError, load
from engine.review import MAX_ACTIONS, THRESHOLDS, review, review_replay

GAMES = ["bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams"]


def seeded(seed: int):
    return lambda index: random.Random(f"{seed}:{index}")


@pytest.mark.parametrize("game", GAMES)
def test_every_decision_from_the_seats_view_then(game):
    replay = played_replay(game, random.Random(game), "random")
    state, actions = load(json.dumps(replay))
    found = review(state, actions, seeded(1), samples=3)
    assert found.error is None and found.state.to_act is None and found.game == game
    assert [d.index for d in found.decisions] == list(range(len(actions)))
    walk = state.clone()
    for d, (seat, action) in zip(found.decisions, actions):
        assert (d.seat, d.choice) == (seat, action) and d.view == walk.view(seat)
        assert d.best in [s.action for s in d.opinion.options] and d.opinion.best == d.best
        assert d.cost >= 0 and (not d.mark or d.cost > THRESHOLDS[game])
        if d.best == d.choice or d.opinion.samples == 0:
            assert d.cost == 0 and not d.mark
        walk.do(seat, action)
    assert state.to_act is not None, "the given state is not changed"


def test_one_seats_figures_do_not_depend_on_the_others_reviewed():
    state, actions = load(json.dumps(played_replay("bauerchen", random.Random(5), "random")))
    every = review(state, actions, seeded(2), samples=4)
    one = review(state, actions, seeded(2), {1}, samples=4)
    assert one.decisions == tuple(d for d in every.decisions if d.seat == 1) and one.decisions


def test_a_replay_too_long_to_review_is_refused():
    replay = played_replay("bauer", random.Random(1))
    replay["actions"] += [{"seat": 0, "action": "pass"}] * (MAX_ACTIONS + 1 - len(replay["actions"]))
    with pytest.raises(ReplayError, match="at most"):
        review_replay(json.dumps(replay), seeded(1))
    replay["actions"].pop()
    assert review_replay(json.dumps(replay), seeded(1), {0}, samples=1).error["reason"]


def test_two_seeds_agree_on_the_marks():
    """Cheap, yet with marks to agree on: Rams (the cheapest search) with its own budget, ten deals of random players
    (many clear mistakes), one seat each. ``bench/review.py`` measures every game: 200 deals of slipping players."""
    first, second = [], []
    for k in range(10):
        state, actions = load(json.dumps(played_replay("rams", random.Random(f"rams:{k}"), "random")))
        seat = {k % state.n}
        first += [d.mark for d in review(state, actions, seeded(1), seat).decisions]
        second += [d.mark for d in review(state, actions, seeded(2), seat).decisions]
    alike = sum(a == b for a, b in zip(first, second)) / len(first)
    both, either = sum(a and b for a, b in zip(first, second)), sum(a or b for a, b in zip(first, second))
    assert sum(first) >= 5 and alike >= 0.9 and both >= 0.8 * either, (sum(first), alike, both, either)
