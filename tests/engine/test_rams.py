"""Scripted scenarios for Rams, one per rule of ``rules/rams.md``, plus the computer player.

Deals are built with ``RamsState.start`` on chosen cards and driven through ``engine.apply``.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import Action, Code, Rejected
from engine.cards import DECK32, DECK36, card_str, cards_in, mask_of, parse_card
from engine.players import rams as player
from engine.rams import BAELLI, DECIDE_PHASE, RamsOptions, RamsState, settlement, target_of
from engine.state import OVER, PLAY_PHASE


def cs(text: str) -> list[int]:
    """Card ids from notation separated by spaces."""
    return [parse_card(c) for c in text.split()]


def deal(hands: list[str], blind: str = "", turned: str = "KC", dealer: int | None = None,
         match: dict | None = None, **options) -> RamsState:
    """A deal from chosen cards (the dealer defaults to the last seat)."""
    n = len(hands)
    opts = RamsOptions(**options)
    m = RamsState.read_match(opts, n, match or {})
    return RamsState.start(opts, n, n - 1 if dealer is None else dealer, m, [cs(h) for h in hands],
                           cs(blind), cs(turned))


def act(state: RamsState, script: str) -> RamsState:
    """Apply ``seat:kind[:card]`` steps separated by spaces through ``engine.apply``."""
    for step in script.split():
        seat, kind, *card = step.split(":")
        state, _ = engine.apply(state, int(seat), Action(kind, parse_card(card[0]) if card else -1))
    return state


def kinds(state: RamsState) -> set[str]:
    """The kinds of the legal actions of the seat to act."""
    return {a.kind for a in engine.legal_actions(state)}


def legal_cards(state: RamsState) -> set[str]:
    """The cards the seat to act may play."""
    return {card_str(a.card) for a in engine.legal_actions(state) if a.kind == "play"}


def refused(state: RamsState, seat: int, action: Action) -> Rejected:
    """The refusal of ``action``, checking that the state did not change."""
    before = engine.to_json(state)
    with pytest.raises(Rejected) as exc:
        engine.apply(state, seat, action)
    assert engine.to_json(state) == before
    return exc.value


# A three-seat deal (dealer 2, trump clubs) whose tricks are forced: seat 0 takes tricks 1-2,
# seat 1 tricks 3-4, seat 2 trick 5.
THREE = ["AS KS 7H TH 9D", "7S 9S AH KH 8D", "8S TS 8H 9H AD"]
THREE_BLIND = "QC JC TC 9C 8C"
THREE_PLAY = "0:play:AS 1:play:7S 2:play:8S 0:play:KS 1:play:9S 2:play:TS 0:play:7H 1:play:AH 2:play:8H " \
             "1:play:KH 2:play:9H 0:play:TH 1:play:8D 2:play:AD 0:play:9D"
ALL_IN = "0:play_hand 1:play_hand 2:play_hand"

# The hand-worked four-seat deal of the shared vectors (trump hearts, dealer 3).
FOUR = ["AH 7D AS KS 9C", "QH JH AC KC 8S", "TH 9H QS JS AD", "8H KD QD TS 7C"]
FOUR_BLIND = "7H JD TD 9D 8D"


def four(**kw) -> RamsState:
    return deal(FOUR, FOUR_BLIND, "KH", dealer=3, **kw)


# ----------------------------------------------------------------------------- setup
@pytest.mark.parametrize(("players_in", "options", "deck", "blind"), [
    (2, {}, DECK32, 5), (3, {}, DECK32, 5), (4, {}, DECK32, 5), (5, {}, DECK32, 5),
    (6, {}, DECK32, 0), (6, {"sixes": True}, DECK36, 5), (7, {}, DECK36, 0), (7, {"sixes": True}, DECK36, 0),
])
def test_setup_table_deck_and_blind(players_in, options, deck, blind):
    """Setup table: 2 to 5 players 32 cards with blind; 6: 32 without, or 36 with ``sixes`` and a blind;
    7: 36 cards, no blind. (2 players still in: a 3-seat table whose winner is out.)"""
    opts = RamsOptions(**options)
    n = max(players_in, 3)
    match = RamsState.new_match(opts, n)
    if players_in < n:
        match = RamsState.read_match(opts, n, {"tricks": [21, 0, 0], "ranking": [0]})
    assert RamsState.deck(opts, n, match) == deck
    order = [c for c in cards_in(deck) if c != BAELLI] + [BAELLI]
    hands, bl, turned = RamsState.packets(opts, n, match, 1, order)
    assert len(bl) == blind
    assert sorted(len(h) for h in hands) == [0] * (n - players_in) + [5] * players_in
    assert len(turned) == 1


def test_five_cards_each_and_the_kehrer_sets_trump():
    """"5 cards to each player and to the blind ... Then the next card is turned: the Kehrer; its suit is trump."""
    st = deal(THREE, THREE_BLIND, "KC", dealer=2)
    assert st.trump == 0 and st.phase == DECIDE_PHASE and st.to_act == 0
    assert view_turned(st) == ["KC"]
    with pytest.raises(ValueError, match="hand of seat 1 has 4 cards"):
        deal(["AS KS 7H TH 9D", "7S 9S AH KH", "8S TS 8H 9H AD"], THREE_BLIND, "KC")
    with pytest.raises(ValueError, match="blind has 0 cards"):
        deal(THREE, "", "KC")


def view_turned(st: RamsState) -> list[str]:
    return engine.view(st, None)["public"]["turned"]


def test_baelli_kehrer_with_32_cards_turns_a_second_card():
    """"With 32 cards, if the Kehrer is the Bälli, a second card is turned and its suit is trump."""
    st = deal(THREE, THREE_BLIND, "7D QS", dealer=2)
    assert st.trump == 1 and view_turned(st) == ["7D", "QS"]
    with pytest.raises(ValueError, match="turned has 1 cards, expected 2"):
        deal(THREE, THREE_BLIND, "7D")
    order = [c for c in cards_in(DECK32) if c != BAELLI][:20] + [BAELLI] + [parse_card("QH")]
    order += [c for c in cards_in(DECK32) if c not in order]
    _, _, turned = RamsState.packets(RamsOptions(), 3, RamsState.new_match(RamsOptions(), 3), 2, order)
    assert turned == [BAELLI, parse_card("QH")]


def test_baelli_kehrer_with_36_cards_makes_diamonds_trump():
    """"With 36 cards only one card is turned; if it is the Bälli, diamonds are trump."""
    hands = ["AS KS 7H TH 9D", "7S 9S AH KH 8D", "8S TS 8H 9H AD", "QC JC TC 9C 8C",
             "AC KC QS JS 6S", "QH JH 6H TD KD", "QD JD 6D 6C 7C"]
    st = deal(hands, "", "7D", dealer=6)
    assert st.trump == 3 and st.turned == [BAELLI]
    with pytest.raises(ValueError, match="turned has 2 cards, expected 1"):
        deal(hands, "", "7D 7C", dealer=6)


def test_out_players_get_no_cards_and_the_deck_follows_the_players_still_in():
    """"A player who has already reached the target is out of the game and gets no cards; the deck
    and blind follow the table above for the players still in." (7 seats, 1 out: 32 cards, no blind.)"""
    opts = RamsOptions()
    match = RamsState.read_match(opts, 7, {"tricks": [15, 0, 0, 0, 0, 0, 0], "ranking": [0]})
    assert RamsState.deck(opts, 7, match) == DECK32
    order = cards_in(DECK32)
    hands, blind, turned = RamsState.packets(opts, 7, match, 6, order)
    assert hands[0] == [] and blind == [] and all(len(h) == 5 for h in hands[1:])
    st = RamsState.start(opts, 7, 6, match, hands, blind, turned)
    assert st.to_act == 1 and st.choice[0] == "out" and not st.active[0]
    with pytest.raises(ValueError, match="hand of seat 0 has 5 cards, expected 0"):
        RamsState.start(opts, 7, 6, match, [order[30:31] + order[:4]] + hands[1:], [], [order[31]])


def test_dealer_moves_to_the_next_player_still_in():
    """"The dealer moves on to the next player still in the game after every deal."""
    st = act(deal(THREE, THREE_BLIND, "KC", dealer=2, match={"tricks": [19, 3, 4]}), ALL_IN + " " + THREE_PLAY)
    assert st.match["ranking"] == [0]
    assert st.next_dealer() == 1
    nxt = engine.next_deal(st, random.Random(1))
    assert nxt.dealer == 1 and nxt.hands[0] == 0 and nxt.to_act == 2 and nxt.blind
    after = act(deal(THREE, THREE_BLIND, "KC", dealer=1, match={"tricks": [3, 3, 4]}),
                "2:play_hand 0:play_hand 1:play_hand")
    assert after.dealer == 1 and after.next_dealer() == 2


# ----------------------------------------------------------------------------- card order
def test_trump_order_ace_baelli_king():
    """"Trumps, high to low: trump A, the Bälli, then trump K Q J T 9 8 7 (6)."""
    order = four().make_order(2)
    assert [card_str(c) for c in order.trump_list] == ["AH", "7D", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H"]
    st = act(four(), "0:play_hand 1:pass 2:play_hand 3:exchange:7C 3:play_hand 0:play:AH 2:play:9H 3:play:8H")
    st = act(st, "0:play:7D 2:play:TH 3:play:KH")
    assert [t[2] for t in st.tricks] == [0, 0]


def test_baelli_is_never_a_diamond():
    """"The Bälli is a trump in every deal, never a diamond" — it does not follow a diamond lead,
    and a player without diamonds must trump with it. With diamonds trump it is second after AD."""
    st = deal(["AD 9S 8S 7S KH", "7D QS JS TS 9H", "KD QD JD TD 9D"], THREE_BLIND, "KC", dealer=2)
    st = act(st, ALL_IN + " 0:play:AD")
    assert legal_cards(st) == {"7D"}
    assert engine.view(st, 1)["restriction"] == "must_trump"
    order = st.make_order(3)
    assert [card_str(c) for c in order.trump_list[:3]] == ["AD", "7D", "KD"]


def test_plain_suits_rank_ace_king_queen_jack_ten():
    """"Plain suits: A K Q J T 9 8 7 (6) (the ten ranks below the jack)."""
    st = deal(["TS 9H 8H 7H 9D", "JS AH KH QH 8D", "7S JH TH 7C AD"], THREE_BLIND, "KC", dealer=2)
    st = act(st, ALL_IN + " 0:play:TS 1:play:JS 2:play:7S")
    assert st.tricks[0][2] == 1


# ----------------------------------------------------------------------------- before play
def test_decisions_go_round_from_the_forehand_to_the_dealer():
    """"One round of decisions, from the seat after the dealer to the dealer, each player in turn."""
    st = four()
    assert st.to_act == 0 and kinds(st) == {"take_blind", "play_hand", "pass"}
    assert refused(st, 2, Action("play_hand")).code == Code.NOT_YOUR_TURN
    assert refused(st, 0, Action("play", parse_card("AH"))).code == Code.WRONG_PHASE
    st = act(st, "0:play_hand 1:pass 2:play_hand")
    assert st.to_act == 3 and st.phase == DECIDE_PHASE
    st = act(st, "3:play_hand")
    assert st.phase == PLAY_PHASE and st.active == [True, False, True, True]


def test_take_blind_replaces_the_hand():
    """"take_blind: while the blind is still there. The player's dealt hand is out of the deal, he
    plays the blind's 5 cards, and he is in (he cannot pass)."""
    st = act(four(), "0:take_blind")
    assert st.hands[0] == mask_of(cs(FOUR_BLIND))
    assert st.set_aside() & mask_of(cs(FOUR[0])) == mask_of(cs(FOUR[0]))
    assert "take_blind" not in kinds(st)
    assert refused(st, 1, Action("take_blind")).code == Code.ILLEGAL
    st = act(st, "1:pass 2:play_hand 3:play_hand")
    assert st.active == [True, False, True, True]
    assert set(engine.view(st, 0)["hand"]) == set(FOUR_BLIND.split())


def test_pass_sits_out_without_kartoffel():
    """"A player who passes sits out this deal (no Kartoffel for him)."""
    st = act(four(), "0:play_hand 1:pass 2:play_hand 3:exchange:7C 3:play_hand")
    assert st.to_act == 0 and not st.active[1]
    st = act(st, "0:play:AH 2:play:9H 3:play:8H 0:play:7D 2:play:TH 3:play:KH 0:play:AS 2:play:JS 3:play:TS "
                 "0:play:KS 2:play:QS 3:play:QD 0:play:9C 2:play:AD 3:play:KD")
    assert st.result == {"tricks": [5, 0, 0, 0], "kartoffeln": [2, 3]}


def test_dealer_robs_the_kehrer_then_the_baelli():
    """"The dealer, before his own decision, may exchange(card): he discards any card of his hand face
    down and takes the Kehrer; if the Bälli was turned, he may do the same once more for the Bälli."""
    st = deal(THREE, THREE_BLIND, "7D QS", dealer=2)
    st = act(st, "0:play_hand 1:play_hand")
    assert kinds(st) == {"exchange", "take_blind", "play_hand", "pass"}
    st = act(st, "2:exchange:AD")
    assert st.hands[2] >> parse_card("QS") & 1 and st.set_aside() >> parse_card("AD") & 1
    assert kinds(st) == {"exchange", "play_hand"}
    st = act(st, "2:exchange:8H")
    assert st.hands[2] >> BAELLI & 1 and kinds(st) == {"play_hand"}
    assert st.known_cards() == mask_of(cs("7D QS"))
    assert "7D" in json.dumps(engine.view(st, None)) and "8H" not in json.dumps(engine.view(st, None))


def test_nobody_else_may_rob_and_exchanging_commits_the_dealer():
    """"Nobody else may take a turned card, nor the dealer if he took the blind; after exchanging he may
    not take the blind. Exchanging commits him to play."""
    st = four()
    assert refused(st, 0, Action("exchange", parse_card("9C"))).code == Code.ILLEGAL
    st = act(st, "0:play_hand 1:play_hand 2:play_hand")
    assert kinds(st) == {"exchange", "take_blind", "play_hand", "pass"}
    robbed = act(st, "3:exchange:7C")
    assert kinds(robbed) == {"play_hand"}
    assert refused(robbed, 3, Action("take_blind")).code == Code.ILLEGAL
    assert refused(robbed, 3, Action("pass")).code == Code.ILLEGAL
    blind = act(st, "3:take_blind")
    assert blind.phase == PLAY_PHASE and blind.robbed == 0


def test_at_least_two_players():
    """"A player may not pass if the players already in plus the players still to decide after him
    would be fewer than two."""
    st = act(four(), "0:pass 1:pass")
    assert kinds(st) == {"take_blind", "play_hand"}
    assert refused(st, 2, Action("pass")).code == Code.ILLEGAL
    st = act(st, "2:play_hand")
    assert kinds(st) == {"exchange", "take_blind", "play_hand"}
    st = act(deal(THREE, THREE_BLIND, "KC", dealer=2), "0:take_blind 1:pass")
    assert kinds(st) == {"exchange", "play_hand"}


# ----------------------------------------------------------------------------- play
def test_forehand_leads_and_must_lead_the_trump_ace():
    """"The first active seat after the dealer leads the first trick. If he holds the trump ace, he
    must lead it."""
    st = act(four(), "0:play_hand 1:pass 2:play_hand 3:play_hand")
    assert st.to_act == 0 and legal_cards(st) == {"AH"}
    assert engine.view(st, 0)["restriction"] == "trump_ace_first"
    assert refused(st, 0, Action("play", parse_card("AS"))).hint == "trump_ace_first"
    st = act(four(), "0:pass 1:play_hand 2:play_hand 3:play_hand")
    assert st.to_act == 1 and legal_cards(st) == {"QH", "JH", "AC", "KC", "8S"}


def test_second_trick_leader_must_lead_trump():
    """"In the second trick the leader must lead a trump if he has one (the Bälli counts). No lead rule
    after that."""
    st = act(four(), "0:play_hand 1:pass 2:play_hand 3:play_hand 0:play:AH 2:play:9H 3:play:8H")
    assert legal_cards(st) == {"7D"}
    assert refused(st, 0, Action("play", parse_card("AS"))).hint == "must_lead_trump"
    st = act(st, "0:play:7D 2:play:TH 3:play:TS")
    assert legal_cards(st) == {"AS", "KS", "9C"}


def test_follow_suit_and_no_trumping_while_following():
    """"Follow the led suit if you can; while you can follow, you may not trump."""
    st = act(four(), "0:play_hand 1:pass 2:play_hand 3:exchange:7C 3:play_hand 0:play:AH 2:play:9H 3:play:8H "
                     "0:play:7D 2:play:TH 3:play:KH 0:play:AS")
    assert legal_cards(st) == {"QS", "JS"}
    assert refused(st, 2, Action("play", parse_card("AD"))).hint == "must_follow"


def test_cannot_follow_must_trump():
    """"Cannot follow: you must trump if you can (the Bälli counts)."""
    st = deal(["AS KS 7H TH 9D", "KC 9S AH KH 8D", "QC 7D 8H 9H AD"], "7S 8S TS JS QS", "JC", dealer=2)
    st = act(st, ALL_IN + " 0:play:AS 1:play:9S")
    assert legal_cards(st) == {"QC", "7D"}
    assert engine.view(st, 2)["restriction"] == "must_trump"


def test_must_always_overtrump():
    """"You must always overtrump: whenever you play a trump while a trump lies in the trick, you must
    beat the highest trump in it if you can." Following a trump lead and trumping a plain lead alike;
    a player who cannot beat it still plays a trump."""
    st = deal(["AS KS 7H TH 9D", "KC 8C AH KH 8D", "QC 7D 8H 9H AD"], "7S 8S TS JS QS", "JC", dealer=2)
    led = act(st, ALL_IN + " 0:play:AS 1:play:KC")
    assert legal_cards(led) == {"7D"}
    assert engine.view(led, 2)["restriction"] == "must_overtrump"
    trump_led = deal(["QC KS 7H TH 9D", "KC 8C AH KH 8D", "9C 7D 8H 9H AD"], "7S 8S TS JS QS", "JC", dealer=2)
    trump_led = act(trump_led, ALL_IN + " 0:play:QC")
    assert legal_cards(trump_led) == {"KC"}
    trump_led = act(trump_led, "1:play:KC")
    assert legal_cards(trump_led) == {"7D"}
    low = act(deal(["7D KS 7H TH 9D", "KC 8C AH KH 8D", "9C AS 8H 9H AD"], "7S 8S TS JS QS", "JC", dealer=2),
              ALL_IN + " 0:play:7D")
    assert legal_cards(low) == {"KC", "8C"}


# ----------------------------------------------------------------------------- score
def test_tricks_score_and_kartoffel():
    """"Every trick is 1 point for the player who won it. A player who played the deal and won no trick
    gets a Kartoffel."""
    st = act(four(match={"tricks": [1, 2, 3, 4], "kartoffeln": [0, 1, 0, 0]}),
             "0:play_hand 1:pass 2:play_hand 3:exchange:7C 3:play_hand 0:play:AH 2:play:9H 3:play:8H "
             "0:play:7D 2:play:TH 3:play:KH 0:play:AS 2:play:JS 3:play:TS 0:play:KS 2:play:QS 3:play:QD "
             "0:play:9C 2:play:AD 3:play:KD")
    assert st.phase == OVER and engine.is_over(st)
    assert st.result == {"tricks": [5, 0, 0, 0], "kartoffeln": [2, 3]}
    assert st.match["tricks"] == [6, 2, 3, 4] and st.match["kartoffeln"] == [0, 1, 1, 1]
    assert st.match["ranking"] == [] and st.match["winner"] is None


@pytest.mark.parametrize(("n", "options", "target"), [
    (3, {}, 21), (4, {}, 21), (5, {}, 15), (6, {}, 15), (7, {}, 15), (4, {"target": 10}, 10),
])
def test_target(n, options, target):
    """"target: 21 tricks; 15 when the game started with 5 or more players." """
    assert target_of(RamsOptions(**options), n) == target


def test_first_to_reach_the_target_wins_and_play_goes_on():
    """"Reaching the target: the first player to reach it is first." "Play goes on without the finished
    players until the second place is decided."""
    st = act(deal(THREE, THREE_BLIND, "KC", dealer=2, match={"tricks": [19, 3, 4]}), ALL_IN + " " + THREE_PLAY)
    assert st.match["ranking"] == [0] and st.match["tricks"] == [21, 5, 5]
    assert not engine.match_over(st) and st.match["settlement"] is None
    nxt = engine.next_deal(st, random.Random(3))
    assert nxt.choice[0] == "out" and nxt.hands[0] == 0
    assert kinds(nxt) == {"take_blind", "play_hand"}


def test_same_deal_more_tricks_in_that_deal_ranks_higher():
    """"If several reach it in the same deal, more tricks in that deal ranks higher." Second place is
    then decided and the match is over."""
    st = act(deal(THREE, THREE_BLIND, "KC", dealer=2, match={"tricks": [19, 17, 20]}), ALL_IN + " " + THREE_PLAY)
    assert st.match["tricks"] == [21, 19, 21]
    assert st.match["ranking"] == [0, 2, 1] and st.match["winner"] == 0 and engine.match_over(st)


def test_same_deal_equal_tricks_drawn_card():
    """"if still equal, the program draws a card for each (higher card wins: rank A K Q J T 9 8 7 6,
    then suit C S H D)." The cards come from the bottom of the deck: the undealt rest, here in card
    order, so seat 0 draws 7D and seat 1 JD."""
    st = deal(THREE, THREE_BLIND, "KC", dealer=2, match={"tricks": [19, 19, 5]})
    assert [card_str(c) for c in st.draw[:2]] == ["7D", "JD"]
    st, events = engine.apply(act(st, ALL_IN + " " + THREE_PLAY[:-9]), 0, Action("play", parse_card("9D")))
    assert st.match["ranking"] == [1, 0, 2]
    assert {"type": "draw", "cards": {"0": "7D", "1": "JD"}} in events


def test_engine_deals_draw_from_the_bottom_of_the_shuffled_deck():
    """The drawn cards of an engine-dealt deal come from the bottom of its shuffled deck."""
    first = act(deal(THREE, THREE_BLIND, "KC", dealer=2), ALL_IN + " " + THREE_PLAY)
    order = cards_in(DECK32)[::-1]
    nxt = first.next_deal(order)
    assert nxt.draw == order[::-1]


def test_the_others_ranked_by_tricks_then_kartoffeln():
    """"The others are ranked by tricks, then fewer Kartoffeln, then a drawn card." Seat 3 is out;
    seat 0 reaches the target; seats 1 and 2 have 10 tricks each, seat 1 fewer Kartoffeln."""
    match = {"tricks": [19, 8, 9, 21], "kartoffeln": [0, 1, 3, 0], "ranking": [3]}
    st = act(deal(THREE + [""], THREE_BLIND, "KC", dealer=2, match=match), ALL_IN + " " + THREE_PLAY)
    assert st.match["tricks"] == [21, 10, 10, 21]
    assert st.match["ranking"] == [3, 0, 1, 2]


def test_the_others_ranked_by_drawn_card_last():
    """"... then a drawn card": equal tricks and Kartoffeln; seat 1 draws 7D, seat 2 JD."""
    match = {"tricks": [19, 8, 9, 21], "kartoffeln": [0, 2, 2, 0], "ranking": [3]}
    st = act(deal(THREE + [""], THREE_BLIND, "KC", dealer=2, match=match), ALL_IN + " " + THREE_PLAY)
    assert st.match["ranking"] == [3, 0, 2, 1]


@pytest.mark.parametrize(("place", "kartoffeln", "pays"), [
    (1, 0, 0.0), (2, 0, 1.0), (3, 0, 2.0), (4, 0, 3.0), (5, 0, 4.0), (6, 0, 5.0), (6, 2, 6.0), (1, 1, 0.5),
])
def test_settlement_six_players(place, kartoffeln, pays):
    """"the player ranked k-th (1 = winner) pays (k − 1) × unit, plus kartoffel_fee per Kartoffel ...
    with six players the last pays 5.00, then 4.00, 3.00, 2.00, 1.00, the winner nothing."""
    ranking = [5, 4, 3, 2, 1, 0]
    seat = ranking[place - 1]
    marks = [0] * 6
    marks[seat] = kartoffeln
    assert settlement(RamsOptions(), ranking, marks)[seat] == pays


def test_settlement_at_the_end_of_the_match():
    """The match shows the settlement once the ranking is complete; ``unit`` and ``kartoffel_fee`` count."""
    st = act(deal(THREE, THREE_BLIND, "KC", dealer=2, match={"tricks": [19, 17, 20], "kartoffeln": [1, 0, 2]},
                  unit=0.5, kartoffel_fee=0.25), ALL_IN + " " + THREE_PLAY)
    assert st.match["ranking"] == [0, 2, 1] and st.match["settlement"] == [0.25, 1.0, 1.0]


def test_read_match_refusals():
    """A replay's ``match`` must be consistent: known keys, per-seat totals, an unfinished ranking."""
    opts = RamsOptions()
    for bad, text in [({"score": [0, 0, 0]}, "unknown match keys"), ({"tricks": [1, 2]}, "3 whole numbers"),
                      ({"ranking": [0, 1, 2], "tricks": [21, 21, 21]}, "already decided"),
                      ({"tricks": [21, 0, 0]}, "ranked exactly when"), ({"ranking": [5]}, "distinct seats")]:
        with pytest.raises(ValueError, match=text):
            RamsState.read_match(opts, 3, bad)
    with pytest.raises(ValueError, match="dealer 0 has reached the target"):
        deal(["", "7S 9S AH KH 8D", "8S TS 8H 9H AD"], "AS KS 7H TH 9D", "KC", dealer=0,
             match={"tricks": [21, 0, 0], "ranking": [0]})


# ----------------------------------------------------------------------------- API properties
def test_apply_never_mutates_and_json_round_trips_mid_deal():
    st = act(four(), "0:take_blind 1:pass 2:play_hand 3:exchange:7C 3:play_hand")
    before = engine.to_json(st)
    new, _ = engine.apply(st, 0, engine.legal_actions(st)[0])
    assert engine.to_json(st) == before and engine.to_json(new) != before
    again = engine.from_json(json.loads(json.dumps(engine.to_json(new))))
    assert engine.to_json(again) == engine.to_json(new)
    assert engine.legal_actions(again) == engine.legal_actions(new)


def test_views_hide_every_other_hand():
    st = act(four(), "0:take_blind 1:pass 2:play_hand 3:exchange:7C")
    public = json.dumps(engine.view(st, None))
    for c in cards_in(st.hands[0] | st.hands[1] | st.hands[2] | st.hands[3] & ~st.known_cards()):
        assert f'"{card_str(c)}"' not in public
    mine = engine.view(st, 2)
    assert set(mine["hand"]) == set(FOUR[2].split())
    for c in cards_in(st.hands[0] | st.hands[1] | st.hands[3] & ~st.known_cards() | st.set_aside()):
        assert f'"{card_str(c)}"' not in json.dumps(mine)
    assert "hand" not in engine.view(st, None)


# ----------------------------------------------------------------------------- computer player
def _random_deals(n: int, deals: int, seed: int, bot_seats, options=None):
    """Play ``deals`` deals; seats in ``bot_seats(deal_no)`` use the computer player, the rest random."""
    rng = random.Random(seed)
    st = engine.new_match("rams", rng, n, options)
    for d in range(deals):
        bots = bot_seats(d)
        while not engine.is_over(st):
            seat = st.to_act
            if seat in bots:
                action = player.choose(st, seat)
                assert action in engine.legal_actions(st), (action, engine.legal_actions(st))
                assert player.offer(st, seat) is None
            else:
                action = rng.choice(engine.legal_actions(st))
            st.do(seat, action)
        yield st, bots
        st = engine.new_match("rams", rng, n, options) if engine.match_over(st) else engine.next_deal(st, rng)


@pytest.mark.parametrize(("n", "options"), [(3, {}), (4, {}), (5, {}), (6, {}), (6, {"sixes": True}), (7, {})])
def test_player_always_legal(n, options):
    """Over 200 random deals the computer player (in every seat) returns a legal action."""
    assert sum(1 for _ in _random_deals(n, 200, n, lambda d: range(n), options)) == 200


@pytest.mark.parametrize("n", [3, 4, 5])
def test_player_beats_random_play(n):
    """One computer player against random players takes clearly more tricks and fewer Kartoffeln."""
    bot = others = bot_k = others_k = 0.0
    deals = 400
    for st, bots in _random_deals(n, deals, 100 + n, lambda d: {d % n}):
        seat = next(iter(bots))
        bot += st.result["tricks"][seat]
        bot_k += seat in st.result["kartoffeln"]
        rest = [s for s in range(n) if s != seat]
        others += sum(st.result["tricks"][s] for s in rest) / len(rest)
        others_k += sum(s in st.result["kartoffeln"] for s in rest) / len(rest)
    assert bot > 1.3 * others
    assert bot_k < others_k
