"""One seat's review of a deal from the move log: the engine's judgement, kept as JSON, given back its views."""

from __future__ import annotations

import json

import engine
from bot.table.deal_log import finished_deal
from bot.table.review import review, reviewed
from engine import review as judge
from tests.bot.table.test_deal_log import _log_of_two_deals


def test_kept_as_json_and_given_back_the_views_his_decisions_were_made_from():
    entries, _ = _log_of_two_deals()
    deal = finished_deal(entries, 1)
    decisions = review(deal, 0, samples=2, seed=1)
    assert decisions and {d["seat"] for d in decisions} == {0} and json.loads(json.dumps(decisions)) == decisions
    assert [d["index"] for d in decisions] == [i for i, (s, _, _) in enumerate(deal.actions) if s == 0]
    assert review(deal, 0, samples=2, seed=1) == decisions, "the same seed, the same judgement"
    again = reviewed(deal, decisions)
    state, views = deal.start, {}
    for index, (seat, action, _) in enumerate(deal.actions):
        views[index] = engine.view(state, seat)
        state, _ = engine.apply(state, seat, action)
    assert [d.view for d in again.decisions] == [views[d["index"]] for d in decisions]
    assert judge.report(again)["decisions"] == decisions and engine.is_over(again.state)
