"""Every kind of computer player plays whole matches of every game and option set legally."""

from __future__ import annotations

import random

import pytest

import engine
from bot.table.computer import KINDS, act, kind_of, offer
from engine.players import strong
from engine.players.playout import play_out

MATCHES = [
    ("bauernstoss", 4, {"target": 2}), ("bauernstoss", 4, {"partners": "jack_draw", "grand_solo_needs_jc": True,
                                                           "target": 2}),
    ("alter_schafkopf", 4, {"target": 2}),
    ("bauerchen", 4, {"target_steine": 1}), ("bauerchen", 4, {"trump_after_cards": 5, "die_letzte": False,
                                                              "weiterschreiben": True, "forty_at_ten": True,
                                                              "overtrump_on_trump_lead_only": True,
                                                              "ledig_in_decider": False}),
    ("bauer", 4, {"target_brote": 1}), ("bauer", 4, {"short_deck": True, "lead_trump_first": False,
                                                     "target_brote": 1}),
    ("rams", 3, {"target": 4}), ("rams", 5, {"target": 3}), ("rams", 6, {"sixes": True, "target": 3}),
    ("rams", 7, {"target": 3}),
]
MAX_DEALS = 60


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("game", "players", "options"), MATCHES,
                         ids=[f"{g}-{n}-{i}" for i, (g, n, _) in enumerate(MATCHES)])
def test_kind_plays_a_whole_match_legally(kind, game, players, options):
    rng = random.Random(f"{kind}{game}{players}")
    state = engine.new_match(game, rng, players, options)
    for _ in range(MAX_DEALS):
        assert play_out(state, lambda st, s: act(kind, st, s, rng, samples=1),
                        lambda st, s: offer(kind, st, s, rng, samples=1), check=True)
        if engine.match_over(state):
            return
        state = engine.next_deal(state, rng)
    if kind != "random":  # random players may take long; the others finish these short matches
        pytest.fail(f"no match end after {MAX_DEALS} deals")


def test_kind_names():
    assert kind_of("strong") == "stark" and kind_of("heuristic") == "normal" and kind_of("leicht") == "leicht"
    with pytest.raises(ValueError):
        kind_of("robot")


@pytest.mark.parametrize("game", ["bauer", "alter_schafkopf"])
def test_strong_player_samples_its_games_budget_unless_told(game, monkeypatch):
    """A strong decision samples up to the game's own number of deals by default, or the number given."""
    budgets: list[int] = []
    run = strong.Tally.run

    def recording(self, rng, samples, stop, settle=True):
        budgets.append(samples)
        return run(self, rng, samples, stop, settle)

    monkeypatch.setattr(strong.Tally, "run", recording)
    state = engine.new_match(game, random.Random(1))
    for samples, expected in ((None, strong.samples_for(game)), (5, 5)):
        budgets.clear()
        act("stark", state, state.to_act, random.Random(1), samples=samples)
        assert budgets[:1] == [expected]
