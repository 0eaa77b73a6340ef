"""The strong player: it decides from views only, never plays an illegal action, and finds forced wins.

The forced-win positions are hand-made last-two-tricks positions of every game: the seat to lead
holds the top trump and the ace of a suit nobody else holds, and one trump is out against it.
Cashing the ace first lets an opponent void in that suit ruff it; drawing the trump first wins
both tricks in every deal the view allows.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.actions import Action
from engine.cards import card_strs, mask_of, parse_card
from engine.order import TRUMP
from engine.players import strong
from engine.players.playout import play_out

# the cards of the last two tricks: seat 0 leads, seat 1 holds the one trump out and is void in spades
FORCED = {
    "bauernstoss": ("H", "JC", {1: ["7H", "7C"], 2: ["8C", "7D"], 3: ["9C", "8D"]}),
    "alter_schafkopf": ("H", "JC", {1: ["7H", "7C"], 2: ["8C", "7D"], 3: ["9C", "8D"]}),
    "bauerchen": ("H", "JC", {1: ["QH", "AC"], 2: ["TC", "AD"], 3: ["KC", "TD"]}),
    "bauer": ("H", "JH", {1: ["9H", "7C"], 2: ["8C", "7D"], 3: ["9C", "8D"]}),
    "rams": ("H", "AH", {1: ["7H", "7C"], 2: ["8C", "8D"], 3: ["9C", "9D"]}),
}
GAME_FIELDS = {
    "bauernstoss": {"calls": [3, "pass", "pass", "pass"], "committed": [2, -1, -1, -1], "best": 3, "tied": [0],
                    "namer": 0, "deal_chalk": 1},
    "bauerchen": {"home": 0, "letzte": False, "fifth": None},
    "bauer": {"caller": 0, "stoss_team": -1, "may_karten_weg": False},
    "rams": {"choice": ["play"] * 4, "turned": ["TH"]},
}
GAME_FIELDS["alter_schafkopf"] = {**GAME_FIELDS["bauernstoss"], "deal_chalk": 0}
MATCH = {"bauernstoss": {"striche": [3, 3], "chalk": 1, "deal_no": 3, "winner": None},
         "alter_schafkopf": {"striche": [3, 3], "chalk": 0, "deal_no": 3, "winner": None}}


def forced_position(game: str, winners: list[int]) -> engine.State:
    """The hand-made position of ``game``: two tricks to go, seat 0 to lead; ``winners`` of the past tricks."""
    trump, top, others = FORCED[game]
    state = engine.new_match(game, random.Random(0))
    data = engine.to_json(state)
    hands = {0: [top, "AS"], **others}
    held = mask_of(parse_card(c) for h in hands.values() for c in h)
    deck = state.deck(state.options, 4, state.match)
    order = state.make_order("CSHD".index(trump))
    tricks_done = (20 if game in ("bauerchen", "rams") else 32) // 4 - 2
    rest = [c for c in range(36) if deck >> c & 1 and not held >> c & 1]
    if game == "rams":
        rest = [c for c in rest if c != parse_card("TH")][:tricks_done * 4 + 4]
        aside = deck & ~held & ~mask_of(rest[:tricks_done * 4 + 4])
        rest = rest[:tricks_done * 4 + 4]
    # seats 1-3 follow suit in every past trick (no void shows that would contradict the hands); seat 0 fills up
    by_suit: dict[int, list[int]] = {}
    for c in rest:
        by_suit.setdefault(order.eff[c], []).append(c)
    triplets, spare = [], []
    for suit in sorted(by_suit, key=lambda s: s != TRUMP):
        cards = by_suit[suit]
        while len(cards) >= 3 and len(triplets) < tricks_done:
            triplets.append(cards[:3])
            cards = cards[3:]
        spare += cards
    assert len(triplets) == tricks_done and len(spare) >= tricks_done
    winners = winners[:tricks_done]
    tricks = [[1, card_strs(t + [spare[i]]), winners[i]] for i, t in enumerate(triplets)]
    data.update(phase="play", to_act=0, leader=0, trump="CSHD".index(trump), trick=[], tricks=tricks,
                hands=[card_strs([parse_card(c) for c in hands[s]]) for s in range(4)],
                won=[winners.count(s) for s in range(4)], **GAME_FIELDS[game])
    data["eyes"] = [0] * 4
    if game == "rams":
        data["aside"] = card_strs(aside | mask_of(spare[tricks_done:]))
    if game in MATCH:
        data["match"] = MATCH[game]
    state = engine.from_json(json.loads(json.dumps(data)))
    for _, cards, win in state.tricks:
        state.eyes[win] += sum(engine.cards.EYES[c] for c in cards)
    return state


def outcome(state: engine.State, first: str) -> float:
    """Seat 0's worth of the true deal when it leads ``first`` and everyone plays the heuristic."""
    st = state.clone()
    st.do(0, Action("play", parse_card(first)))
    strong.rollout(st)
    return strong.worth(st)[0] - strong.worth(st)[1]


def meaningful(game: str) -> engine.State:
    """The first position (by the past tricks' winners, seats 0 and 1) where cashing the ace first costs."""
    top = FORCED[game][1]
    for k in range(64):
        state = forced_position(game, [k >> i & 1 for i in range(6)])
        if outcome(state, top) > outcome(state, "AS"):
            return state
    raise AssertionError("no position punishes cashing the ace first")


@pytest.mark.parametrize("game", list(FORCED))
def test_strong_draws_the_last_trump_before_cashing_the_ace(game):
    state = meaningful(game)
    top = FORCED[game][1]
    view = json.loads(json.dumps(engine.view(state, 0)))  # a plain dict: all the player ever gets
    for seed in range(3):
        assert strong.choose(view, state.options.model_dump(), random.Random(seed), samples=16) == \
            Action("play", parse_card(top))


OPTION_SETS = {
    "bauernstoss": [{}, {"grand_solo_needs_jc": True, "target": 6}],
    "alter_schafkopf": [{"target": 5}],
    "bauerchen": [{}, {"trump_after_cards": 5, "die_letzte": False, "weiterschreiben": True,
                       "overtrump_on_trump_lead_only": True}],
    "bauer": [{"target_brote": 1}, {"short_deck": True, "lead_trump_first": False, "target_brote": 1}],
    "rams": [{"target": 6}, {"sixes": True, "target": 4}],
}


def _cases():
    for game, option_sets in OPTION_SETS.items():
        for i, options in enumerate(option_sets):
            players = (3, 6) if game == "rams" else (4,)
            for n in players:
                yield pytest.param(game, n, options, id=f"{game}-{n}p-opts{i}")


@pytest.mark.parametrize(("game", "players", "options"), list(_cases()))
def test_strong_plays_legally_from_views_only(game, players, options):
    """Every seat is the strong player, given a JSON copy of its view and nothing else; two deals."""
    rng = random.Random(f"{game}{players}{options}")
    state = engine.new_match(game, rng, players, options)

    def decide(st, seat):
        view = json.loads(json.dumps(engine.view(st, seat)))
        return strong.choose(view, options, rng, samples=2)

    for _ in range(2):
        assert play_out(state, decide, decide, check=True)
        if engine.match_over(state):
            break
        state = engine.next_deal(state, rng)


def test_choose_answers_none_without_a_decision():
    state = engine.new_match("bauer", random.Random(1))
    seat = (state.to_act + 1) % 4
    assert strong.choose(engine.view(state, seat), {}, random.Random(1)) is None
