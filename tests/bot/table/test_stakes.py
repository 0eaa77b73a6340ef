"""A strong computer's stake against the heuristic's choice: the story says why in one short clause (issue 33, 4)."""

from __future__ import annotations

import random

import engine
from bot.protocol.outgoing import ChatRef
from bot.table.match import Match
from bot.table.record import Seat, Table
from bot.table.stakes import why
from bot.words.fit import TEXT_MAX
from bot.words.render import table_message
from bot.words.story import calls_line, event_line
from engine.actions import Action
from engine.players.heuristic import heuristic
from engine.players.opinion import ActionStats, Opinion


def _table(game: str = "bauer") -> Table:
    return Table(id="T", chat=ChatRef("test", "g"), game=game, n=4, opener="x", level="stark",
                 seats=[Seat(bot=True, level="stark") for _ in range(4)], declare_wait=None)


def _offered() -> tuple[engine.State, int, Action]:
    """A Bauer deal in which the heuristic would knock (Stoß) for a seat not to act."""
    brain = heuristic("bauer")
    for seed in range(200):
        state = engine.new_match("bauer", random.Random(seed))
        while not engine.is_over(state):
            for seat in range(4):
                taken = brain.offer(state, seat) if seat != state.to_act else None
                if taken is not None and taken.kind == "stoss":
                    return state, seat, taken
            state, _ = engine.apply(state, state.to_act, brain.choose(state, state.to_act))
    raise AssertionError("no Stoß offered")


def _seen(best: Action | None, offer: Action, won: float) -> Opinion:
    stats = (ActionStats(None, 0.0, 0.0, 0.3, 0.0, 24, ()), ActionStats(offer, 0.5, 0.0, won, 0.0, 24, ()))
    return Opinion(best, stats, 24)


def test_a_stake_let_pass_or_taken_against_the_heuristic_has_its_figures():
    state, seat, stoss = _offered()
    assert why(state, seat, None, _seen(None, stoss, 0.375)) == {"kind": "stoss", "k": 9, "n": 24}
    assert why(state, seat, stoss, _seen(stoss, stoss, 0.75)) is None  # as the heuristic would: nothing to tell
    assert why(state, seat, None, None) is None  # the search was not asked (or starved): nothing to tell


def test_the_story_says_why_once_per_stake_and_seat():
    table = _table()
    match = Match(table, random.Random(1), 0.0)
    match.start()
    match.declined(2, {"kind": "stoss", "k": 9, "n": 24})
    match.declined(2, {"kind": "stoss", "k": 8, "n": 24})  # asked again before the next card: told once
    assert [ev["type"] for ev in table.story] == ["declined"]
    assert event_line(table, table.story[0]) == "Computer 3 (stark) verzichtet auf »Stoßen« – gewinnt nur in 9 von 24 " \
                                                "Verteilungen"
    doubled = {"type": "spritz", "seat": 1, "calls": 1, "why": {"k": 17, "n": 24}}
    assert event_line(_table("bauerchen"), doubled) == "Computer 2 (stark) spritzt (×2) – gewinnt in 17 von 24 Verteilungen"
    english = _table("bauerchen").model_copy(update={"lang": "en"})
    assert event_line(english, doubled).endswith(" – wins in 17 of 24 deals")
    assert "verzichtet auf »Stoßen«" in calls_line(table, table.story)
    assert len(table_message(table, match.state, 2, 0.0).text) <= TEXT_MAX


def test_a_stake_taken_keeps_its_reason_in_the_story():
    table = _table("bauerchen")
    match = Match(table, random.Random(2), 0.0)
    match.start()
    brain = heuristic("bauerchen")
    while not (found := [(s, a) for s, acts in engine.offers(match.state).items() for a in acts if a.kind == "spritz"]):
        match.act(match.state.to_act, brain.choose(match.state, match.state.to_act), "cpu")
    seat, spritz = found[0]
    match.act(seat, spritz, "cpu", {"k": 17, "n": 24})
    (ev,) = [e for e in table.story if e["type"] == "spritz"]
    assert ev["why"] == {"k": 17, "n": 24} and ev in match.news
    assert event_line(table, ev).endswith("spritzt (×2) – gewinnt in 17 von 24 Verteilungen")
