"""Scripted scenarios for Bauer, one per rule of ``rules/bauer.md``, and its computer player."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import Action, Code, Rejected
from engine.bauer import ORDERS, BauerOptions, BauerState, left_bower
from engine.cards import DECK20, DECK32, HEARTS, card_str, card_strs, cards_in, mask_of, parse_card
from engine.players import bauer as bot
from engine.replay import run as replay_run
from engine.state import PLAY_PHASE

# The hands of the hand-worked vectors (dealer 3: seat 0 is forehand and names trump).
STD = "JH JD AH 7C KH 9S 8S AD | AS KS QS TS AC KC 9D 8D | QH TH 9H JS QC JC 7S TD | 8H 7H KD QD 7D TC 9C 8C"
STD_PLAY = ("0 JD; 1 8D; 2 9H; 3 7H; 0 AD; 1 9D; 2 TD; 3 7D; 0 7C; 1 AC; 2 JC; 3 8C; 1 AS; 2 7S; 3 8H; 0 8S; "
            "3 KD; 0 9S; 1 KC; 2 QC; 3 QD; 0 JH; 1 TS; 2 JS; 0 AH; 1 QS; 2 TH; 3 9C; 0 KH; 1 KS; 2 QH; 3 TC")
# Deals found by random play, seat 0 naming hearts: (hands, card plays), named by the trick split.
SPLIT_53 = ("QC 7C 9D JH JC TD 8C KH | QH 9C AC KS QS 8D TS JS | 8S KD TH 9H 7S AH AS TC | QD 7H KC 8H 9S JD 7D AD",
            "0 JH; 1 QH; 2 TH; 3 JD; 0 KH; 1 QS; 2 9H; 3 8H; 0 QC; 1 AC; 2 TC; 3 KC; 1 8D; 2 KD; 3 7D; 0 TD; "
            "2 AH; 3 7H; 0 JC; 1 9C; 2 AS; 3 9S; 0 9D; 1 TS; 2 8S; 3 AD; 0 8C; 1 JS; 1 KS; 2 7S; 3 QD; 0 7C")
SPLIT_35 = (SPLIT_53[0],
            "0 KH; 1 QH; 2 TH; 3 JD; 3 8H; 0 JH; 1 AC; 2 9H; 0 9D; 1 8D; 2 KD; 3 7D; 2 8S; 3 9S; 0 QC; 1 TS; "
            "1 KS; 2 7S; 3 QD; 0 8C; 1 QS; 2 AS; 3 7H; 0 TD; 3 AD; 0 7C; 1 9C; 2 AH; 2 TC; 3 KC; 0 JC; 1 JS")
SPLIT_80 = ("QD JH 9C AS 9S JD TH AC | KS QS 9D TS 7S 8H KH TC | AD AH 9H 8D QH KC 7H JC | KD 7C 7D 8S QC TD 8C JS",
            "0 JH; 1 8H; 2 7H; 3 7C; 0 JD; 1 KH; 2 AH; 3 7D; 0 9S; 1 7S; 2 QH; 3 JS; 2 9H; 3 8C; 0 TH; 1 9D; "
            "0 AS; 1 KS; 2 AD; 3 8S; 0 AC; 1 TC; 2 KC; 3 QC; 0 QD; 1 TS; 2 8D; 3 TD; 0 9C; 1 QS; 2 JC; 3 KD")
SPLIT_44 = ("TS 8H QC TC 7C TH 8C QD | 8D AD 9D KC 7H KS KD 7S | AS QH JD 8S AH 9S 9H JH | TD QS 9C AC JS KH JC 7D",
            "0 8H; 1 7H; 2 9H; 3 KH; 3 AC; 0 QC; 1 KC; 2 8S; 3 QS; 0 TS; 1 KS; 2 9S; 1 AD; 2 AS; 3 7D; 0 QD; "
            "1 KD; 2 JH; 3 TD; 0 TH; 2 QH; 3 JS; 0 7C; 1 9D; 2 AH; 3 JC; 0 8C; 1 8D; 2 JD; 3 9C; 0 TC; 1 7S")
SPLIT_08 = ("KS 8S TC AS 7C QH 7S 8C | QS 8D JD 8H AD KC AH 9C | 9H TS 7D TH KD JS JC TD | QD QC 9S 9D AC JH KH 7H",
            "0 QH; 1 AH; 2 TH; 3 JH; 3 QC; 0 7C; 1 9C; 2 JC; 3 9S; 0 7S; 1 QS; 2 JS; 1 KC; 2 7D; 3 AC; 0 8C; "
            "3 9D; 0 TC; 1 AD; 2 TD; 1 JD; 2 9H; 3 KH; 0 8S; 1 8H; 2 KD; 3 7H; 0 AS; 1 8D; 2 TS; 3 QD; 0 KS")
SHORT_32 = ("KS TC TS JH AC | AH QD JS QH QS | KC AS AD JC QC | JD KD KH TH TD",
            "0 JH; 1 QH; 2 AD; 3 TH; 0 AC; 1 JS; 2 KC; 3 TD; 0 KS; 1 QS; 2 AS; 3 KD; 2 QC; 3 KH; 0 TC; 1 QD; "
            "3 JD; 0 TS; 1 AH; 2 JC")
SHORT_50 = ("TH JD KH AH KS | TC KC QH AC AS | KD AD JC JH QC | QD JS TS QS TD",
            "0 JD; 1 QH; 2 JH; 3 QS; 2 AD; 3 TD; 0 AH; 1 KC; 0 TH; 1 AS; 2 KD; 3 QD; 0 KH; 1 TC; 2 QC; 3 JS; "
            "0 KS; 1 AC; 2 JC; 3 TS")
SHORT_23 = ("TC TS QH JH AS | KC TH AH QS JD | AC KS JC QD KD | KH TD AD JS QC",
            "0 QH; 1 JD; 2 KS; 3 KH; 1 KC; 2 JC; 3 QC; 0 TC; 1 QS; 2 AC; 3 JS; 0 AS; 0 JH; 1 AH; 2 KD; 3 AD; "
            "0 TS; 1 TH; 2 QD; 3 TD")
SHORT_05 = ("AD JC TC QD TD | TH QC TS KS JD | KD KH AH QS KC | AC JS QH JH AS",
            "0 TC; 1 QC; 2 KC; 3 AC; 3 JH; 0 TD; 1 TH; 2 KH; 3 QH; 0 JC; 1 JD; 2 AH; 1 KS; 2 QS; 3 JS; 0 QD; "
            "1 TS; 2 KD; 3 AS; 0 AD")
# Seat 0 cannot lose with hearts trump (six top trumps, the aces of clubs and spades); seat 1 is weak.
STRONG = "JH JD AH KH QH TH AC AS | 9H 8H 7C 8C 9C TC QC KC | 7H KS QS JS TS 9S 8S 7S | AD KD QD JC TD 9D 8D 7D"
# Seat 0 holds no trump for hearts; seat 1 has JD (hearts' left bower) and one diamond.
DIAMONDS = "AD KD QD TD AC KC QC TC | JD 7D 7C 8C 9C JC AS KS | AH KH QH JH TH 9H 8H 7H | 9D 8D QS JS TS 9S 8S 7S"


def parse_hands(text: str) -> list[list[int]]:
    """Four hands from ``"JH JD ... | ..."`` in dealt order."""
    return [[parse_card(c) for c in h.split()] for h in text.split("|")]


def deal(hands: str = STD, dealer: int = 3, match: dict | None = None, **options) -> BauerState:
    """A fresh deal of the given hands."""
    opts = BauerOptions(**options)
    return BauerState.start(opts, 4, dealer, BauerState.read_match(opts, 4, match or {}), parse_hands(hands), [], [])


def action(verb: str) -> Action:
    """An action from a script word: ``name_H``, ``stoss``, ``karten_weg`` or a card to play."""
    if verb.startswith("name_"):
        return Action("name_trump", suit="CSHD".index(verb[-1]))
    if verb in ("stoss", "karten_weg"):
        return Action(verb)
    return Action("play", parse_card(verb))


def run(state: BauerState, script: str) -> BauerState:
    """Apply ``"0 name_H; 1 stoss; 0 JD; ..."`` through :func:`engine.apply`."""
    for step in filter(None, (s.strip() for s in script.split(";"))):
        seat, verb = step.split()
        state, _ = engine.apply(state, int(seat), action(verb))
    return state


def legal_cards(state: BauerState) -> set[str]:
    """The cards of the ``play`` entries the seat to act has."""
    return {card_str(a.card) for a in engine.legal_actions(state) if a.kind == "play"}


def offers(state: BauerState) -> dict[int, set[str]]:
    """The out-of-turn offers by seat, as sets of action names."""
    return {s: {a.kind for a in acts} for s, acts in engine.offers(state).items()}


def refused(state: BauerState, seat: int, act: Action, code: Code) -> Rejected:
    """Assert that ``act`` is refused with ``code`` and the state did not change."""
    before = engine.to_json(state)
    with pytest.raises(Rejected) as info:
        engine.apply(state, seat, act)
    assert info.value.code == code
    assert engine.to_json(state) == before
    return info.value


def play_out(state: BauerState, pick) -> BauerState:
    """Play the deal to its end through :func:`engine.apply`, ``pick(state, cards)`` choosing each card."""
    while not engine.is_over(state):
        cards = sorted(cards_in(state.legal_cards()), key=state.order.strength.__getitem__)
        state, _ = engine.apply(state, state.to_act, Action("play", pick(state, cards)))
    return state


def high(state, cards):
    """The strongest legal card."""
    return cards[-1]


def low(state, cards):
    """The weakest legal card."""
    return cards[0]


def soloist_high(state, cards):
    """The Karten weg player plays his strongest card, everybody else his weakest."""
    return cards[-1] if state.to_act == state.alone else cards[0]


# ------------------------------------------------------------------ setup


def test_deal_four_then_four_from_the_forehand():
    """ "4 players, partners opposite. 32 cards, 8 each: 4 each are dealt, the forehand names trump ... then
    4 more each." (The six-player variant is not built.) """
    for players in (3, 6):
        with pytest.raises(ValueError):
            engine.new_match("bauer", random.Random(1), players)
    opts = BauerOptions()
    order = cards_in(DECK32)
    hands, blind, turned = BauerState.packets(opts, 4, BauerState.new_match(opts, 4), 1, order)
    assert blind == [] and turned == []
    assert hands[2] == order[0:4] + order[16:20]
    assert hands[3] == order[4:8] + order[20:24]
    assert hands[1] == order[12:16] + order[28:32]
    with pytest.raises(ValueError):
        BauerState.start(opts, 4, 3, BauerState.new_match(opts, 4), [h[:7] for h in hands], [], [])


def test_forehand_names_trump_from_his_first_four_cards():
    """ "4 each are dealt, the forehand names trump (`name_trump(s)`) from those 4 cards, then 4 more each." """
    st = deal()
    assert st.to_act == 0 and st.phase == "name"
    assert engine.legal_actions(st) == [Action("name_trump", suit=s) for s in range(4)]
    assert engine.offers(st) == {}
    for seat in range(4):
        view = engine.view(st, seat)
        assert view["hand"] == card_strs(mask_of(parse_hands(STD)[seat][:4]))
        assert view["hand_sizes"] == [4, 4, 4, 4]
    refused(st, 1, action("name_H"), Code.NOT_YOUR_TURN)
    refused(st, 0, action("JH"), Code.WRONG_PHASE)
    refused(st, 1, Action("stoss"), Code.WRONG_PHASE)
    refused(st, 0, Action("karten_weg"), Code.WRONG_PHASE)
    st, events = engine.apply(st, 0, action("name_H"))
    assert events == [{"type": "trump_named", "seat": 0, "suit": "H"}]
    assert st.trump == HEARTS and len(engine.view(st, 0)["hand"]) == 8
    assert engine.view(st, 2)["hand_sizes"] == [8, 8, 8, 8]
    assert st.to_act == 0 and st.leader == 0


def test_short_deck_twenty_cards_three_then_two():
    """ "`short_deck`: 20 cards (A K Q J T), 5 each dealt 3 then 2, trump named after the first 3 cards." """
    opts = BauerOptions(short_deck=True)
    order = cards_in(DECK20)
    hands, _, _ = BauerState.packets(opts, 4, BauerState.new_match(opts, 4), 3, order)
    assert hands[0] == order[0:3] + order[12:14] and hands[3] == order[9:12] + order[18:20]
    st = deal(SHORT_32[0], short_deck=True)
    assert [len(engine.view(st, s)["hand"]) for s in range(4)] == [3, 3, 3, 3]
    st = run(st, "0 name_H")
    assert [len(engine.view(st, s)["hand"]) for s in range(4)] == [5, 5, 5, 5]
    with pytest.raises(ValueError):
        deal(STD, short_deck=True)
    st = run(st, SHORT_32[1])
    assert len(st.tricks) == 5


# ------------------------------------------------------------------ card order


def test_trump_order_right_and_left_bower():
    """ "Trumps, high to low: the jack of the trump suit ("der Dicke"), the jack of the other suit of the
    same colour ("der Linke": hearts ↔ diamonds, spades ↔ clubs), then the trump suit's A K Q T 9 8 7." """
    assert [card_str(left_bower(t)) for t in range(4)] == ["JS", "JC", "JD", "JH"]
    order = ORDERS[False][HEARTS]
    ranking = sorted(cards_in(order.trumps), key=lambda c: -order.strength[c])
    assert card_strs(ranking) == ["JH", "JD", "AH", "KH", "QH", "TH", "9H", "8H", "7H"]
    short = ORDERS[True][0]
    assert card_strs(sorted(cards_in(short.trumps), key=lambda c: -short.strength[c])) == \
        ["JC", "JS", "AC", "KC", "QC", "TC"]
    # trick 1 of SPLIT_53: JH QH TH JD -> the right bower; trick 2: KH QS 9H 8H -> KH
    st = run(deal(SPLIT_53[0]), "0 name_H; 0 JH; 1 QH; 2 TH; 3 JD; 0 KH; 1 QS; 2 9H; 3 8H")
    assert [w for _, _, w in st.tricks] == [0, 0]
    assert order.winner_index([parse_card(c) for c in ("AH", "JD", "KH")]) == 1


def test_plain_suits_ten_below_the_jack():
    """ "Plain suits: A K Q J T 9 8 7 (note: the ten ranks below the jack)." """
    order = ORDERS[False][HEARTS]
    clubs = sorted(cards_in(order.suit_mask[0]), key=lambda c: -order.strength[c])
    assert card_strs(clubs) == ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"]
    assert order.winner_index([parse_card(c) for c in ("TC", "JC", "9C", "AS")]) == 1
    short = ORDERS[True][HEARTS]
    assert card_strs(sorted(cards_in(short.suit_mask[1]), key=lambda c: -short.strength[c])) == \
        ["AS", "KS", "QS", "JS", "TS"]


def test_left_bower_is_no_longer_of_its_printed_suit():
    """ "the left bower is no longer a card of its printed suit." Diamonds led with hearts trump: JD
    does not follow diamonds; led trump it must be played. """
    st = run(deal(DIAMONDS, lead_trump_first=False), "0 name_H; 0 AD")
    assert legal_cards(st) == {"7D"}
    refused(st, 1, action("JD"), Code.ILLEGAL)
    st = run(deal(DIAMONDS), "0 name_H; 0 AD; 1 7D; 2 AH; 3 9D")
    assert st.tricks[0][2] == 2  # a trump wins the diamond trick
    st = run(st, "2 JH")
    assert legal_cards(st) == {"QS", "JS", "TS", "9S", "8S", "7S", "8D"}  # no trump: any card
    st = run(st, "3 QS; 0 AC")
    assert legal_cards(st) == {"JD"}  # trump led: the left bower follows


def test_nothing_counts_eyes_tricks_decide():
    """ "Nothing counts eyes: tricks decide." """
    st = run(deal(SPLIT_53[0]), "0 name_H; " + SPLIT_53[1])
    assert st.result == {"tricks": [5, 3], "change": [-1, 0], "brot": None}
    assert "eyes" not in st.result


# ------------------------------------------------------------------ play


def test_trump_caller_leads_a_trump_first():
    """ "The trump caller leads the first trick and must lead a trump if he has one (`lead_trump_first`,
    default on; off is the seed's variant)." """
    st = run(deal(), "0 name_H")
    assert st.to_act == 0 and legal_cards(st) == {"JH", "JD", "AH", "KH"}
    assert refused(st, 0, action("7C"), Code.ILLEGAL).hint == "must_lead_trump"
    assert engine.view(st, 0)["restriction"] == "must_lead_trump"
    st = run(st, "0 JD; 1 8D; 2 9H; 3 7H")
    assert len(legal_cards(st)) == 7 and st.restriction() == ""  # later leads are free
    assert len(legal_cards(run(deal(lead_trump_first=False), "0 name_H"))) == 8
    assert len(legal_cards(run(deal(DIAMONDS), "0 name_H"))) == 8  # no trump in hand: any card
    st = run(deal(dealer=1), "2 name_S")
    assert st.to_act == 2 and legal_cards(st) == {"JS", "JC", "7S"}  # the left bower is a trump to lead


def test_follow_suit_no_duty_to_trump():
    """ "Follow the led suit if you can (the left bower belongs to the trump suit); otherwise any card.
    There is no duty to trump or to overtrump." """
    st = run(deal(DIAMONDS), "0 name_H; 0 AD; 1 7D")
    assert len(legal_cards(st)) == 8  # void in diamonds: trumps allowed, not required
    st = run(st, "2 7H")
    assert legal_cards(st) == {"9D", "8D"}
    assert refused(st, 3, action("QS"), Code.ILLEGAL).hint == "must_follow"
    refused(st, 3, action("AD"), Code.ILLEGAL)  # not in his hand
    refused(st, 1, action("JD"), Code.NOT_YOUR_TURN)
    st = run(deal(), "0 name_H; " + STD_PLAY[:STD_PLAY.index("3 8H")])
    assert legal_cards(st) == {"8H", "KD", "QD", "TC", "9C"}  # spade led, seat 3 void: may trump or not
    st = run(deal(), "0 name_H; 0 JD; 1 8D; 2 9H")
    assert legal_cards(st) == {"8H", "7H"}  # no overtrump duty: 7H is fine


# ------------------------------------------------------------------ Stoßen


def test_stoss_then_stoss_back_once_each():
    """ "A player of the team that did not name trump may `stoss` once; after that a player of the trump
    team may `stoss` back once ("zurückstoßen")." """
    st = run(deal(), "0 name_H")
    assert offers(st) == {1: {"stoss", "karten_weg"}, 2: {"karten_weg"}, 3: {"stoss", "karten_weg"}}
    assert {a.kind for a in engine.legal_actions(st)} == {"play", "karten_weg"}
    refused(st, 2, Action("stoss"), Code.ILLEGAL)
    refused(st, 0, Action("stoss"), Code.ILLEGAL)
    st, events = engine.apply(st, 3, Action("stoss"))
    assert events == [{"type": "stoss", "seat": 3, "level": 1}]
    assert engine.view(st, None)["public"]["stoss"] == [3]
    refused(st, 1, Action("stoss"), Code.ILLEGAL)
    assert offers(st)[2] == {"stoss", "karten_weg"} and "stoss" in {a.kind for a in engine.legal_actions(st)}
    st = run(st, "0 JD; 2 stoss")
    assert st.stossed == [3, 2] and offers(st) == {}
    refused(st, 0, Action("stoss"), Code.ILLEGAL)
    refused(st, 1, Action("stoss"), Code.ILLEGAL)


def test_stoss_until_the_trump_team_has_five_tricks():
    """ "from the naming of trump until the deal is decided, that is until the last card is played or one
    team already holds enough tricks to win (the trump team 5, ...). So nobody can double a deal that is
    already won." """
    hands, plays = SPLIT_80
    steps = plays.split("; ")
    st = run(deal(hands), "0 name_H; " + "; ".join(steps[:16]))
    assert set(offers(st)) == {1, 3}  # 4 tricks to 0: still open
    st = run(st, "; ".join(steps[16:20]))
    assert offers(st) == {} and st.won[0] + st.won[2] == 5
    refused(st, 3, Action("stoss"), Code.ILLEGAL)
    # a Stoß given before: the Stoß back closes at the same moment
    st = run(deal(hands), "0 name_H; 1 stoss; " + "; ".join(steps[:20]))
    assert offers(st) == {} and "stoss" not in {a.kind for a in engine.legal_actions(st)}


def test_stoss_until_the_other_team_has_four_tricks():
    """ "... one team already holds enough tricks to win (the trump team 5, the other team 4; with
    `short_deck` 3 for either)." """
    hands, plays = SPLIT_08
    steps = plays.split("; ")
    st = run(deal(hands), "0 name_H; " + "; ".join(steps[:12]))
    assert st.won[1] + st.won[3] == 3 and set(offers(st)) == {1, 3} - {st.to_act}
    st = run(st, "; ".join(steps[12:16]))
    assert st.won[1] + st.won[3] == 4 and offers(st) == {}
    hands, plays = SHORT_05
    steps = plays.split("; ")
    st = run(deal(hands, short_deck=True), "0 name_H; " + "; ".join(steps[:8]))
    assert st.won[1] + st.won[3] == 2 and offers(st)
    st = run(st, "; ".join(steps[8:12]))
    assert st.won[1] + st.won[3] == 3 and offers(st) == {}


# ------------------------------------------------------------------ deal score


@pytest.mark.parametrize(("deal_", "short", "stoss", "tricks", "change"), [
    (SPLIT_53, False, "", [5, 3], [-1, 0]),         # trump team wins: trump team -1
    (SPLIT_80, False, "", [8, 0], [-2, 0]),         # ... every trick: times 2
    (SPLIT_35, False, "", [3, 5], [1, -1]),         # other team wins: other -1, trump team +1
    (SPLIT_44, False, "", [4, 4], [1, -1]),         # 4 : 4, the trump team loses
    (SPLIT_08, False, "", [0, 8], [2, -2]),         # other team every trick: times 2
    (SPLIT_53, False, "1 stoss", [5, 3], [-2, 0]),  # a Stoß doubles
    (SPLIT_35, False, "3 stoss; 2 stoss", [3, 5], [4, -4]),  # a Stoß back quadruples
    (SPLIT_44, False, "1 stoss; 0 stoss", [4, 4], [4, -4]),
    (SPLIT_80, False, "3 stoss; 0 stoss", [8, 0], [-8, 0]),  # Stoß back and every trick
    (SPLIT_08, False, "3 stoss", [0, 8], [4, -4]),
    (SHORT_32, True, "", [3, 2], [-1, 0]),
    (SHORT_50, True, "", [5, 0], [-2, 0]),
    (SHORT_23, True, "1 stoss", [2, 3], [2, -2]),
    (SHORT_05, True, "1 stoss; 2 stoss", [0, 5], [8, -8]),
])
def test_deal_score_table(deal_, short, stoss, tricks, change):
    """ "The team with more tricks wins the deal; at 4 : 4 the trump team loses. Trump team wins: the trump
    team −1. The other team wins: the other team −1 and the trump team +1. Multiply each change by 2 for a
    Stoß, 4 for a Stoß back, and by 2 again if the winner took every trick." """
    hands, plays = deal_
    st = run(deal(hands, match={"score": [9, 9]}, short_deck=short), f"0 name_H; {stoss}; {plays}")
    assert st.result == {"tricks": tricks, "change": change, "brot": None}
    assert st.match == {"score": [9 + change[0], 9 + change[1]], "brote": [0, 0], "winner": None}
    assert engine.view(st, None)["result"] == st.result and st.to_act is None


def test_brot_counts_down_from_eight():
    """ "Each team starts a Brot at 8 points and counts down to 0. The first team at 0 or below wins the
    Brot ("Schròòm"); both teams start again at 8." """
    assert BauerState.new_match(BauerOptions(), 4) == {"score": [8, 8], "brote": [0, 0], "winner": None}
    st = run(deal(), "0 name_H; " + STD_PLAY)
    assert st.match == {"score": [7, 8], "brote": [0, 0], "winner": None}
    st = run(deal(SPLIT_35[0]), "0 name_H; " + SPLIT_35[1])
    assert st.match["score"] == [9, 7]  # the losing trump team counts up, past 8
    st = run(deal(match={"score": [1, 5], "brote": [0, 0]}), "0 name_H; 3 stoss; " + STD_PLAY)
    assert st.result == {"tricks": [5, 3], "change": [-2, 0], "brot": 0}
    assert st.match == {"score": [8, 8], "brote": [1, 0], "winner": None}
    st = run(deal(SPLIT_08[0], match={"score": [6, 2], "brote": [1, 1]}), "0 name_H; " + SPLIT_08[1])
    assert st.result["brot"] == 1 and st.match == {"score": [8, 8], "brote": [1, 2], "winner": None}


def test_target_brote_wins_the_match():
    """ "`target_brote` (default 3): the team to win that many Brote wins the table's match." """
    st = run(deal(match={"score": [1, 5], "brote": [2, 2]}), "0 name_H; " + STD_PLAY)
    assert st.match == {"score": [8, 8], "brote": [3, 2], "winner": 0}
    assert engine.match_over(st)
    with pytest.raises(Rejected) as info:
        engine.next_deal(st, random.Random(1))
    assert info.value.code == Code.DEAL_OVER
    st = run(deal(match={"score": [1, 5]}, target_brote=1), "0 name_H; " + STD_PLAY)
    assert st.match["winner"] == 0
    st = run(deal(match={"score": [1, 5], "brote": [0, 2]}, target_brote=5), "0 name_H; " + STD_PLAY)
    assert st.match == {"score": [8, 8], "brote": [1, 2], "winner": None} and not engine.match_over(st)


def test_trump_caller_deals_next():
    """ Seed: "In der nächsten Runde teilt der Trumpfansager die Karten aus." (common.md: he was forehand.) """
    st = run(deal(dealer=1), "2 name_C")
    st = play_out(st, low)
    nxt = engine.next_deal(st, random.Random(3))
    assert nxt.dealer == 2 and nxt.to_act == 3 and nxt.phase == "name" and nxt.match == st.match


# ------------------------------------------------------------------ Karten weg


def test_karten_weg_any_player_after_the_deal_before_the_first_lead():
    """ "After all cards are dealt and before the first lead, any player may declare `karten_weg`. His
    partner's cards are out of the deal; he leads the first trick (the trump lead rule applies to him)." """
    refused(deal(), 1, Action("karten_weg"), Code.WRONG_PHASE)  # not all cards dealt yet
    st = run(deal(STRONG), "0 name_H")
    assert all("karten_weg" in kinds for kinds in offers(st).values()) and len(offers(st)) == 3
    st, events = engine.apply(st, 1, Action("karten_weg"))
    assert events == [{"type": "karten_weg", "seat": 1}]
    assert st.to_act == 1 and st.leader == 1 and st.active == [True, True, True, False]
    assert st.set_aside() == mask_of(parse_hands(STRONG)[3]) and st.hands[3] == 0
    assert engine.view(st, None)["public"]["karten_weg"] == 1
    assert legal_cards(st) == {"9H", "8H"}
    assert refused(st, 1, action("7C"), Code.ILLEGAL).hint == "must_lead_trump"
    refused(st, 0, Action("karten_weg"), Code.ILLEGAL)  # once per deal
    refused(st, 1, Action("karten_weg"), Code.ILLEGAL)
    st = run(st, "1 9H; 2 7H")
    assert st.to_act == 0  # seat 3 is skipped
    st = run(run(deal(STRONG), "0 name_H"), "0 JH")
    refused(st, 1, Action("karten_weg"), Code.ILLEGAL)  # the first card is out
    refused(st, 2, Action("karten_weg"), Code.ILLEGAL)


def test_karten_weg_lost_at_the_first_lost_trick():
    """ "He must win every trick; the deal ends as soon as he loses one. ... Lost: the opponents win a
    Brot. The points of the running Brot do not change either way." """
    st = run(deal(STRONG, match={"score": [3, 6]}), "0 name_H; 1 karten_weg; 1 9H; 2 7H; 0 JH")
    assert st.to_act is None and len(st.tricks) == 1
    assert st.result == {"tricks": [1, 0], "change": [0, 0], "brot": 0}
    assert st.match == {"score": [3, 6], "brote": [1, 0], "winner": None}


def test_karten_weg_won_gives_an_extra_brot():
    """ "Won: his team wins an extra Brot." """
    st = play_out(run(deal(STRONG, match={"score": [3, 6], "brote": [0, 1]}), "0 name_H; 0 karten_weg"),
                  soloist_high)
    assert len(st.tricks) == 8 and all(w == 0 for _, _, w in st.tricks)
    assert st.result == {"tricks": [8, 0], "change": [0, 0], "brot": 0}
    assert st.match == {"score": [3, 6], "brote": [1, 1], "winner": None}


@pytest.mark.parametrize(("script", "brote", "winner"), [
    ("1 stoss; 0 karten_weg", [2, 0], None),
    ("0 karten_weg; 3 stoss", [2, 0], None),
    ("0 karten_weg; 1 stoss; 0 stoss", [4, 0], 0),
])
def test_karten_weg_with_stoss(script, brote, winner):
    """ "Stoßen applies to it as above: a Stoß makes it 2 Brote, a Stoß back 4." (Roles as above: the team
    that did not name trump stößt; the partner who laid his cards away takes no part.) """
    st = run(deal(STRONG), "0 name_H; " + script)
    st = play_out(st, soloist_high)
    assert st.result == {"tricks": [8, 0], "change": [0, 0], "brot": 0}
    assert st.match == {"score": [8, 8], "brote": brote, "winner": winner}


def test_karten_weg_stoss_roles():
    """ Karten weg keeps the Stoß roles of the trump naming; the sitting-out partner cannot stoßen. """
    st = run(deal(STRONG), "0 name_H; 1 karten_weg")  # the team that did not name trump plays alone
    assert offers(st) == {}  # seat 3 laid his cards away, the trump team waits for a Stoß
    assert {a.kind for a in engine.legal_actions(st)} == {"play", "stoss"}
    refused(st, 3, Action("stoss"), Code.ILLEGAL)
    refused(st, 2, Action("stoss"), Code.ILLEGAL)
    st = run(st, "1 stoss")
    assert offers(st) == {0: {"stoss"}, 2: {"stoss"}}


# ------------------------------------------------------------------ engine contract


def test_options_and_match_validation():
    """Options are typed with the rules' defaults; a replay's ``match`` is checked."""
    assert BauerOptions().model_dump() == {"lead_trump_first": True, "short_deck": False, "target_brote": 3}
    with pytest.raises(ValueError):
        engine.parse_options("bauer", {"six_players": True})
    with pytest.raises(ValueError):
        engine.parse_options("bauer", {"target_brote": 0})
    opts = BauerOptions()
    assert BauerState.read_match(opts, 4, {"score": [3, 12]}) == {"score": [3, 12], "brote": [0, 0], "winner": None}
    for bad in ({"points": [1, 1]}, {"score": [0, 8]}, {"score": [8]}, {"brote": [True, 0]}, {"brote": [3, 0]},
                {"winner": 1}, {"score": "8 8"}):
        with pytest.raises(ValueError):
            BauerState.read_match(opts, 4, bad)


def test_replay_output_shapes():
    """ replay-format.md: bauer's ``result`` has tricks, change, brot; ``match`` has score, brote, winner. """
    text = json.dumps({"game": "bauer", "dealer": 3, "deal": {"hands": [h.split() for h in STD.split(" | ")]},
                       "actions": [{"seat": 0, "action": "name_trump", "suit": "H"}]
                       + [{"seat": int(s.split()[0]), "action": "play", "card": s.split()[1]}
                          for s in STD_PLAY.split("; ")]})
    out = replay_run(text)
    assert out["ok"] and out["to_act"] is None and out["trump"] == "H"
    assert set(out["result"]) == {"tricks", "change", "brot"} and set(out["match"]) == {"score", "brote", "winner"}
    assert out["match"] == {"score": [7, 8], "brote": [0, 0], "winner": None}


def test_apply_never_mutates_and_json_round_trips():
    """ ``apply`` leaves its input alone; a mid-deal state (Stoß, Karten weg, a trick half played)
    survives JSON. """
    st = run(deal(STRONG), "0 name_H; 1 stoss; 0 karten_weg; 0 JH; 1 9H")
    data = engine.to_json(st)
    again = engine.from_json(json.loads(json.dumps(data)))
    assert engine.to_json(again) == data
    assert engine.legal_actions(again) == engine.legal_actions(st) and engine.offers(again) == engine.offers(st)
    before = json.dumps(data)
    new, _ = engine.apply(st, 3, Action("play", parse_card("7D")))
    assert json.dumps(engine.to_json(st)) == before and new.trick != st.trick
    run(again, "3 7D")
    assert json.dumps(engine.to_json(st)) == before


def test_views_show_only_the_own_hand():
    """ ``view(seat)`` shows that seat's hand only; ``view(None)`` no hand card; the laid-away cards stay hidden. """
    st = run(deal(STRONG), "0 name_H; 0 karten_weg; 0 JH")
    hands = parse_hands(STRONG)
    public = json.dumps(engine.view(st, None))
    assert all(f'"{card_str(c)}"' not in public for h in hands for c in h if c != parse_card("JH"))
    for seat in range(4):
        view = engine.view(st, seat)
        assert set(view["hand"]) == set(card_strs(st.hands[seat]))
        text = json.dumps(view)
        others = [c for s in range(4) if s != seat for c in hands[s] if c != parse_card("JH")]
        assert all(f'"{card_str(c)}"' not in text for c in others)


# ------------------------------------------------------------------ computer player


def _bot_deals(n: int, options: dict, seed: int, bots: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Play ``n`` deals, the bot at ``bots``, random play elsewhere: trick and Brot totals."""
    rng = random.Random(seed)
    tricks, brote = [0, 0], [0, 0]
    state = engine.new_match("bauer", rng, None, options)
    for _ in range(n):
        while not engine.is_over(state):
            seat, act = state.to_act, None
            for other in bots:
                if other != seat and (act := bot.offer(state, other)) is not None:
                    assert act in engine.offers(state)[other]
                    seat = other
                    break
            if act is None and seat in bots:
                act = bot.choose(state, seat)
                assert act in engine.legal_actions(state)
            if act is None:
                offered = engine.offers(state)
                if offered and rng.random() < 0.05:
                    seat = rng.choice(sorted(offered))
                    act = rng.choice(offered[seat])
                else:
                    act = rng.choice(engine.legal_actions(state))
            state, _ = engine.apply(state, seat, act)
        for team in (0, 1):
            tricks[team] += state.result["tricks"][team]
        if state.result["brot"] is not None:
            brote[state.result["brot"]] += 1
        state = engine.new_match("bauer", rng, None, options) if engine.match_over(state) else \
            engine.next_deal(state, rng)
    return tricks, brote


@pytest.mark.parametrize("options", [{}, {"short_deck": True}, {"lead_trump_first": False}])
def test_bot_always_legal(options):
    """The computer player returns a legal action in every seat over 200 random deals (its speed: bench/ai.py)."""
    _bot_deals(200, options, 11, (0, 1, 2, 3))


@pytest.mark.parametrize("bots", [(0, 2), (1, 3)])
def test_bot_beats_random_play(bots):
    """Bots as one team against random play take clearly more tricks and Brote."""
    tricks, brote = _bot_deals(300, {}, 5, bots)
    team = bots[0]
    assert tricks[team] > 1.6 * tricks[team ^ 1]
    assert brote[team] > 3 * brote[team ^ 1] + 10


def test_bot_names_the_strongest_suit_from_the_first_packet():
    """Trump naming uses only the first four cards: JH JD AH 7C names hearts."""
    st = deal()
    assert bot.choose(st, 0) == Action("name_trump", suit=HEARTS)
    assert bot.naming_value(st.visible_hand(0), HEARTS) > bot.naming_value(st.visible_hand(0), 3)


def test_bot_karten_weg_only_with_a_hand_that_cannot_lose():
    """The bot declares Karten weg with six top trumps and side aces, not with an ordinary hand; it then wins."""
    st = run(deal(STRONG), "0 name_H")
    assert bot.choose(st, 0) == Action("karten_weg")
    assert bot.offer(st, 2) is None and bot.offer(st, 1) is None
    st = run(st, "0 karten_weg")
    while not engine.is_over(st):
        st, _ = engine.apply(st, st.to_act, bot.choose(st, st.to_act))
    assert st.result["brot"] == 0 and st.result["tricks"] == [8, 0]
    assert bot.offer(run(deal(), "0 name_H"), 0) is None


def test_bot_stoss_with_a_strong_hand():
    """Seat 3 holds seven diamonds after seat 0 names diamonds: it stößt; weak seat 1 does not against hearts."""
    assert bot.offer(run(deal(STRONG), "0 name_H"), 1) is None
    st = run(deal(STRONG), "0 name_D")  # seat 3: AD KD QD TD 9D 8D 7D JC -- no bower but seven diamonds
    assert bot.offer(st, 3) == Action("stoss")
    assert bot.offer(st, 2) is None  # the trump team waits for a Stoß


def test_bot_does_not_overtake_its_partner():
    """When the partner's card wins the trick the bot throws its cheapest card rather than overtake."""
    st = run(deal(), "0 name_H; 0 JH; 1 8D")  # JH is the top trump: seat 2 must follow with a trump
    assert bot.choose(st, 2) == Action("play", parse_card("9H"))
    st = run(deal(), "0 name_H; 0 JD; 1 8D")  # JD may still fall to JH: the bot still keeps QH
    assert bot.choose(st, 2) == Action("play", parse_card("9H"))


def test_bot_is_deterministic():
    """Same state, same decision."""
    st = run(deal(SPLIT_44[0]), "0 name_H; 0 8H; 1 7H")
    assert len({bot.choose(st, st.to_act) for _ in range(5)}) == 1
    assert st.phase == PLAY_PHASE
