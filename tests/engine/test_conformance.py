"""Random legal play over every registered game and several option sets, with invariants at every step.

Checked at each step: cards conserved and hands disjoint, legal actions non-empty while the deal
runs, every card that is not legal refused (and the state unchanged), apply never mutates its
input, the state round-trips through JSON, no view shows a card hidden from its seat, a seat's
bids stay the same until he speaks and hold whatever he may bid then; at each deal's end eyes sum
to 120 or 130 where counted.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.cards import ALL_CARDS, card_str, cards_in
from engine.state import PLAY_PHASE

OPTION_SETS = {
    "bauernstoss": [{}, {"grand_solo_needs_jc": True, "target": 10}],
    "alter_schafkopf": [{}, {"target": 8}],
    "bauerchen": [{}, {"trump_after_cards": 5}, {"die_letzte": False, "weiterschreiben": True, "forty_at_ten": True,
                                                 "overtrump_on_trump_lead_only": True, "ledig_in_decider": False}],
    "bauer": [{}, {"short_deck": True}, {"lead_trump_first": False, "target_brote": 1}],
    "rams": [{}, {"sixes": True}],
}
PLAYER_COUNTS = {"rams": [3, 4, 5, 6, 7]}
STEPS_PER_CASE = 750


def cases():
    for game in engine.game_ids():
        for i, opts in enumerate(OPTION_SETS.get(game, [{}])):
            for n in PLAYER_COUNTS.get(game, [None]):
                yield pytest.param(game, n, opts, id=f"{game}-{n or 4}p-opts{i}")


_QUOTED = [(f'"{card_str(c)}"', card_str(c)) for c in ALL_CARDS]


def card_tokens(obj) -> set[str]:
    """Every card notation that appears as a JSON string anywhere in ``obj``."""
    text = json.dumps(obj)
    return {notation for quoted, notation in _QUOTED if quoted in text}


def refused(state, seat: int, action) -> bool:
    """Whether the engine refuses ``action`` of ``seat`` (``Rejected``; thousands a case: no ``pytest.raises``)."""
    try:
        engine.apply(state, seat, action)
    except engine.Rejected:
        return True
    return False


def check_invariants(state, deck: int) -> None:
    hands = state.hands
    union = 0
    for h in hands:
        assert union & h == 0, "hands overlap"
        union |= h
    out = state.played()
    aside = state.set_aside()
    assert union & out == 0 and union & aside == 0 and out & aside == 0, "a card is in two places"
    assert union | out | aside == deck, "cards not conserved"
    data = engine.to_json(state)
    again = engine.to_json(engine.from_json(json.loads(json.dumps(data))))
    assert again == data, "JSON round trip changed the state"
    known = {card_str(c) for c in cards_in(state.known_cards())}
    pub = card_tokens(engine.view(state, None))
    in_hands = {card_str(c) for c in cards_in(union)}
    assert not (pub & in_hands) - known, f"public view shows hand cards {(pub & in_hands) - known}"
    for seat in range(state.n):
        seen = card_tokens(engine.view(state, seat))
        own = {card_str(c) for c in cards_in(state.visible_hand(seat))}
        hidden = in_hands - own - known
        assert not seen & hidden, f"seat {seat} sees {seen & hidden}"


def check_bids(state, shown: dict[int, list]) -> None:
    """A seat's bids, once listed, stay the same until he has none (he spoke, or the round ended), and
    do not come back in the deal; the seat to act may bid only what they list. ``shown``: each seat's
    bids listed so far in the deal (an empty list once they are gone)."""
    for seat in range(state.n):
        bids = engine.view(state, seat)["bids"]
        if seat in shown:
            assert bids in (shown[seat], []), "bids changed (or came back) before the deal's end"
        if bids or seat in shown:
            shown[seat] = bids
    if shown.get(state.to_act):
        legal = [a.to_dict() for a in engine.legal_actions(state)]
        assert all(a in shown[state.to_act] for a in legal), "a bid he may make is not listed"


@pytest.mark.parametrize(("game", "players", "options"), list(cases()))
def test_random_play_keeps_invariants(game, players, options):
    rng = random.Random(f"{game}-{players}-{sorted(options.items())}")
    state = engine.new_match(game, rng, players, options)
    steps = deals = 0
    while steps < STEPS_PER_CASE:
        deck = state.deck(state.options, state.n, state.match)
        bids: dict[int, list] = {}
        while not engine.is_over(state):
            check_invariants(state, deck)
            legal = engine.legal_actions(state)
            assert legal, "no legal action while the deal runs"
            seat = engine.to_act(state)
            check_bids(state, bids)
            if state.phase == PLAY_PHASE:
                legal_cards = {a.card for a in legal if a.kind == "play"}
                for c in ALL_CARDS:
                    if c not in legal_cards:
                        assert refused(state, seat, engine.Action("play", c)), f"{card_str(c)} is not refused"
            before = engine.to_json(state)
            offers = engine.offers(state)
            if offers and rng.random() < 0.1:
                seat = rng.choice(sorted(offers))
                action = rng.choice(offers[seat])
            else:
                action = rng.choice(legal)
            new, _events = engine.apply(state, seat, action)
            assert engine.to_json(state) == before, "apply mutated its input"
            state = new
            steps += 1
        deals += 1
        result = state.result
        assert result is not None
        if "eyes" in result and all(state.active) and not any(state.hands):
            assert sum(result["eyes"]) in (120, 130), result
        if engine.match_over(state):
            state = engine.new_match(game, rng, players, options)
        else:
            state = engine.next_deal(state, rng)
    assert deals > 3
