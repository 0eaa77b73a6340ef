"""Scripted scenarios for Bauerchen, one per rule of ``rules/bauerchen.md``, and its computer player."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import Action, Code, Rejected
from engine.bauerchen import BauerchenOptions, BauerchenState, deal_points, meld_value
from engine.cards import DECK20, EYES, card_str, card_strs, cards_in, mask_of, parse_card
from engine.players import bauerchen as bot
from engine.replay import report
from engine.state import PLAY_PHASE

# The hands of the hand-worked vectors (dealer 3, so seat 0 is forehand and team 0 is home).
STD = "JC AH KH QH TS | JS AS KS QS TC | JH TH AD KD QC | JD AC KC TD QD"
STD_PLAY = ("0 meld KH; 1 play JS; 2 play TH; 3 play JD; 1 play AS; 2 play JH; 3 play QD; 0 play TS; "
            "2 play AD; 3 play TD; 0 play QH; 1 play QS; 0 play AH; 1 play KS; 2 play QC; 3 play KC; "
            "0 play JC; 1 play TC; 2 play KD; 3 play AC")
# Found by random play; each with the deal's eyes in the comment (team 0 is home).
NACKIG_HOME = ("QH QD AD JH AS | KH TD KD QS KC | JC KS JS AC JD | TS TH TC AH QC",
               "0 name H; 0 play QD; 1 play KD; 2 play JS; 3 play AH; 2 play AC; 3 play QC; 0 play JH; "
               "1 play KC; 0 play QH; 1 play KH; 2 play JC; 3 play TH; 2 play KS; 3 play TS; 0 play AS; "
               "1 play QS; 0 play AD; 1 play TD; 2 play JD; 3 play TC")  # 130 : 0
NACKIG_AWAY = ("QD TH AC JH TS | TC QS AD JS AH | KD JD KC TD KS | AS QH JC KH QC",
               "0 name H; 0 play TH; 1 play AH; 2 play JD; 3 play JC; 3 play QH; 0 play JH; 1 play JS; "
               "2 play KC; 1 play QS; 2 play KS; 3 play AS; 0 play TS; 3 play KH; 0 play AC; 1 play AD; "
               "2 play TD; 3 play QC; 0 play QD; 1 play TC; 2 play KD")  # 0 : 130
SCHNEIDER_HOME = ("AD JD AS TS QS | AC JH AH KS QD | TD QH JS TC KC | JC KH KD QC TH",
                  "0 name S; 0 play AS; 1 play JH; 2 play JS; 3 play JC; 3 play KD; 0 play AD; 1 play QD; "
                  "2 play TD; 0 play JD; 1 play KS; 2 play TC; 3 play TH; 0 play TS; 1 play AH; 2 play QH; "
                  "3 play QC; 0 play QS; 1 play AC; 2 play KC; 3 play KH")  # 113 : 17
SCHNEIDER_AWAY = ("QS KH KD AC TC | JS TS AH TH KS | QC AS JC TD KC | QD QH JH AD JD",
                  "0 name H; 0 play TC; 1 play TH; 2 play KC; 3 play JD; 3 play QH; 0 play KH; 1 play AH; "
                  "2 play JC; 2 play TD; 3 play AD; 0 play KD; 1 play JS; 1 play KS; 2 play AS; 3 play JH; "
                  "0 play QS; 3 play QD; 0 play AC; 1 play TS; 2 play QC")  # 20 : 110
FREI_HOME = ("KC JC TC AS KD | KH TD KS AC JH | TH QH JS JD QD | QC QS AH TS AD",
             "0 name H; 0 play TC; 1 play AC; 2 play JD; 3 play QC; 2 play JS; 3 play AH; 0 play JC; "
             "1 play KH; 0 play KC; 1 play JH; 2 play QH; 3 play AD; 1 play KS; 2 play TH; 3 play QS; "
             "0 play AS; 2 play QD; 3 play TS; 0 play KD; 1 play TD")  # 73 : 57
FREI_AWAY = ("KD AD JH AC JS | TH QD AS TD QS | KS TS QH KC TC | JD QC KH JC AH",
             "0 name C; 0 play KD; 1 play QD; 2 play TC; 3 play JC; 3 play AH; 0 play JH; 1 play TH; "
             "2 play QH; 0 play AC; 1 play AS; 2 play KC; 3 play JD; 3 play KH; 0 play JS; 1 play QS; "
             "2 play TS; 0 play AD; 1 play TD; 2 play KS; 3 play QC")  # 45 : 85
TIE = ("JC AC QS AS JH | JS KC TD TC AD | QH TH TS QD KH | KS JD KD AH QC",
       "0 name D; 0 play AC; 1 play KC; 2 play QD; 3 play QC; 2 play TH; 3 play AH; 0 play JC; 1 play JS; "
       "0 play AS; 1 play TD; 2 play TS; 3 play KS; 1 play AD; 2 play KH; 3 play JD; 0 play JH; 0 play QS; "
       "1 play TC; 2 play QH; 3 play KD")  # 65 : 65
AWAY_65 = ("JH QD AC KC AD | TS TC QS KD AS | TD QC AH KH JD | JC TH KS JS QH",
           "0 name S; 0 play AD; 1 play KD; 2 play TD; 3 play JC; 3 play JS; 0 play JH; 1 play TS; 2 play JD; "
           "3 play KS; 0 play KC; 1 play AS")
# ... "2 play QC" ends the third trick with away (team 1) holding 65
LEDIG_HANDS = "JC JS JH AH TH | JD KH AS KS QS | QH TS AC KC QC | TC AD TD KD QD"


def parse_hands(text: str) -> list[list[int]]:
    """Four hands from ``"JC AH ... | ..."`` in dealt order."""
    return [[parse_card(c) for c in h.split()] for h in text.split("|")]


def deal(hands: str = STD, dealer: int = 3, match: dict | None = None, **options) -> BauerchenState:
    """A fresh deal of the given hands."""
    opts = BauerchenOptions(**options)
    full = BauerchenState.read_match(opts, 4, match or {})
    return BauerchenState.start(opts, 4, dealer, full, parse_hands(hands), [], [])


def action(verb: str, arg: str = "") -> Action:
    """An action from the short script words: name S, letzte, play C, meld C, spritz, ledig."""
    if verb == "name":
        return Action("name_trump", suit="CSHD".index(arg))
    if verb == "letzte":
        return Action("die_letzte")
    if verb in ("play", "meld"):
        return Action("play", parse_card(arg), meld=verb == "meld")
    return Action(verb)


def run(state: BauerchenState, script: str) -> BauerchenState:
    """Apply ``"0 name H; 1 spritz; 0 meld KH; ..."`` through :func:`engine.apply`."""
    for step in filter(None, (s.strip() for s in script.split(";"))):
        seat, verb, *arg = step.split()
        state, _ = engine.apply(state, int(seat), action(verb, *arg))
    return state


def legal_cards(state: BauerchenState) -> set[str]:
    """The cards of the ``play`` entries the seat to act has."""
    return {card_str(a.card) for a in engine.legal_actions(state) if a.kind == "play"}


def refused(state: BauerchenState, seat: int, act: Action, code: Code) -> Rejected:
    """Assert that ``act`` is refused with ``code`` and the state did not change."""
    before = engine.to_json(state)
    with pytest.raises(Rejected) as info:
        engine.apply(state, seat, act)
    assert info.value.code == code
    assert engine.to_json(state) == before
    return info.value


def play_out(hands_script: tuple[str, str], **kw) -> BauerchenState:
    """Play a recorded deal to its end."""
    hands, script = hands_script
    return run(deal(hands, **kw), script)


# ------------------------------------------------------------------ setup


def test_deal_two_then_three_from_the_forehand():
    """ "20 cards (A T K Q J), 5 each, dealt 2 then 3 from the forehand on." """
    opts = BauerchenOptions()
    order = cards_in(DECK20)
    hands, blind, turned = BauerchenState.packets(opts, 4, BauerchenState.new_match(opts, 4), 1, order)
    assert blind == [] and turned == []
    assert hands[2] == order[0:2] + order[8:11]
    assert hands[3] == order[2:4] + order[11:14]
    assert hands[1] == order[6:8] + order[17:20]
    with pytest.raises(ValueError):
        BauerchenState.start(opts, 4, 3, BauerchenState.new_match(opts, 4), [h[:4] for h in hands], [], [])


def test_eyes_130_with_the_last_trick():
    """ "Eyes: A 11, T 10, K 4, Q 3, J 2 = 120, plus 10 for the last trick: 130 per deal." """
    assert sum(EYES[c] for c in cards_in(DECK20)) == 120
    st = run(deal(), "0 name H; " + STD_PLAY)
    assert st.result["eyes"] == [112, 18]
    assert sum(st.result["eyes"]) == 130


# ------------------------------------------------------------------ card order


def test_card_order_jacks_then_trump_suit():
    """ "Trumps, high to low: JC JS JH JD, then the trump suit A T K Q. 8 trumps.  Plain suits: A T K Q." """
    st = run(deal(), "0 name H")
    order = st.order
    ranking = sorted((c for c in cards_in(DECK20) if order.trumps >> c & 1), key=lambda c: -order.strength[c])
    assert card_strs(ranking) == ["JC", "JS", "JH", "JD", "AH", "TH", "KH", "QH"]
    plain = sorted(cards_in(order.suit_mask[1]), key=lambda c: -order.strength[c])
    assert card_strs(plain) == ["AS", "TS", "KS", "QS"]
    # trick 1 of the standard deal: KH JS TH JD goes to JS (seat 1)
    st = run(st, "0 play KH; 1 play JS; 2 play TH; 3 play JD")
    assert st.tricks[0][2] == 1


# ------------------------------------------------------------------ naming trump


def test_forehand_names_after_two_cards():
    """ "The forehand names trump (name_trump(s)) after seeing his first two cards; then the other
    three cards are dealt." """
    st = deal()
    assert st.to_act == 0 and st.phase == "name"
    assert [a.kind for a in engine.legal_actions(st)] == ["name_trump"] * 4
    for seat in range(4):
        view = engine.view(st, seat)
        assert view["hand"] == card_strs(mask_of(parse_hands(STD)[seat][:2]))
        assert view["hand_sizes"] == [2, 2, 2, 2]
    refused(st, 1, action("name", "H"), Code.NOT_YOUR_TURN)
    refused(st, 0, action("play", "JC"), Code.WRONG_PHASE)
    st = run(st, "0 name H")
    assert st.trump == 2 and engine.view(st, 0)["hand"] == ["JC", "AH", "KH", "QH", "TS"]
    assert engine.view(st, 2)["hand_sizes"] == [5, 5, 5, 5]


def test_trump_after_five_cards():
    """ "`trump_after_cards`: 2 (default) or 5." With 5 the forehand sees his whole hand first. """
    st = deal(trump_after_cards=5)
    assert len(engine.view(st, 0)["hand"]) == 5
    assert len(engine.view(st, 3)["hand"]) == 5


def test_die_letzte():
    """ "if those first two cards are both jacks, the forehand may say die_letzte instead: his fifth
    card is shown to the table and its printed suit is trump." """
    hands = "JC JS AH KH QD | JH AS KS QS TC | JD TH AD KD QC | TS AC KC TD QH"
    st = deal(hands)
    assert [a.kind for a in engine.legal_actions(st)][-1] == "die_letzte"
    st = run(st, "0 letzte")
    assert st.trump == 3 and engine.view(st, None)["trump"] == "D"
    assert card_strs(st.known_cards()) == ["QD"]
    assert engine.view(st, None)["public"]["letzte"] == "QD"
    assert "QD" in json.dumps(engine.view(st, 1))  # shown to the table
    st = run(st, "0 play QD")
    assert st.known_cards() == 0
    # not offered: option off, five cards seen first, or not two jacks
    for st in (deal(hands, die_letzte=False), deal(hands, trump_after_cards=5), deal()):
        assert "die_letzte" not in {a.kind for a in engine.legal_actions(st)}
        refused(st, 0, Action("die_letzte"), Code.ILLEGAL)


def test_home_team_and_first_lead():
    """ "The forehand's team is the home team ... The forehand leads the first trick." """
    st = run(deal(dealer=0), "1 name C")
    assert st.home == 1 and st.to_act == 1 and st.leader == 1
    assert engine.view(st, None)["public"]["home"] == 1


# ------------------------------------------------------------------ play


def test_rule1_follow_suit_and_trump_lead():
    """ "1. Follow the led suit if you can (a trump lead must be followed with a trump)." """
    st = run(deal(), "0 name H; 0 play TS")
    assert legal_cards(st) == {"AS", "KS", "QS"}
    st = run(deal(), "0 name H; 0 play QH; 1 play JS")
    assert legal_cards(st) == {"JH", "TH"}  # trumps; JS lies, nothing beats it
    info = refused(st, 2, action("play", "AD"), Code.ILLEGAL)
    assert info.hint == "must_follow"


def test_rule2_must_trump_when_void():
    """ "2. Cannot follow: you must play a trump if you have one." """
    st = run(deal(), "0 name H; 0 play KH; 1 play JS; 2 play TH; 3 play JD; 1 play AS")
    assert legal_cards(st) == {"JH"}
    assert refused(st, 2, action("play", "QC"), Code.ILLEGAL).hint == "must_trump"


def test_rule3_any_card_with_neither():
    """ "3. With neither: any card." """
    hands = "AS KS QS TC QC | JD QH AC KC AD | JC KH TD KD QD | JS JH AH TH TS"
    st = run(deal(hands), "0 name H; 0 play AS; 1 play JD; 2 play JC; 3 play TS; 2 play QD; 3 play JS")
    assert st.to_act == 0
    assert legal_cards(st) == {"KS", "QS", "TC", "QC"}  # no diamond, no trump
    assert st.restriction() == ""


def test_rule4_overtrump_duty():
    """ "4. Whenever you play a trump while a trump lies in the trick, you must beat the highest trump
    in the trick if you can" -- also when a plain suit was led. """
    hands = "AS KS QS TC QC | JD QH AC KC AD | JC KH TD KD QD | JS JH AH TH TS"
    st = run(deal(hands), "0 name H; 0 play AS")
    assert legal_cards(st) == {"JD", "QH"}  # void in spades: trump, any
    st = run(st, "1 play JD")
    assert legal_cards(st) == {"JC"}  # KH cannot beat JD
    assert refused(st, 2, action("play", "KH"), Code.ILLEGAL).hint == "must_overtrump"
    st2 = run(deal(hands), "0 name H; 0 play AS; 1 play QH")
    assert legal_cards(st2) == {"JC", "KH"}


def test_rule4_trump_even_if_cannot_beat():
    """ "if you cannot, you must still play a trump (rules 1 and 2)." """
    st = run(deal(), "0 name H; 0 meld KH; 1 play JS")
    assert legal_cards(st) == {"JH", "TH"}


def test_overtrump_on_trump_lead_only():
    """ "`overtrump_on_trump_lead_only` (default off): rule 4 applies only when trump was led." """
    hands = "AS KS QS TC QC | JD QH AC KC AD | JC KH TD KD QD | JS JH AH TH TS"
    st = run(deal(hands, overtrump_on_trump_lead_only=True), "0 name H; 0 play AS; 1 play JD")
    assert legal_cards(st) == {"JC", "KH"}
    st = run(deal(overtrump_on_trump_lead_only=True), "0 name H; 0 play QH; 1 play JS; 2 play TH")
    assert legal_cards(st) == {"JD"}
    hands2 = "QH AS KS QS TC | JD JH AC KC AD | JC KH TD KD QD | JS AH TH TS QC"
    st = run(deal(hands2, overtrump_on_trump_lead_only=True), "0 name H; 0 play QH; 1 play JH")
    assert legal_cards(st) == {"JC"}  # trump led: rule 4 as usual


def test_plain_suits_never_oblige_heading():
    """ "Plain suits never oblige you to head the trick (only rule 4 obliges you to beat, and only trumps)." """
    hands = "QD AS KS QS TC | AD KD JD AC KC | JC KH TD QH JH | JS AH TH TS QC"
    st = run(deal(hands), "0 name H; 0 play QD")
    assert legal_cards(st) == {"AD", "KD"}


# ------------------------------------------------------------------ melds


def test_meld_forty_and_twenty():
    """ "When you lead a K or Q and hold the other card of the same suit, you may meld
    (play(card, meld=true)): "20" in a plain suit (+1 point), "40" in trumps (+2 points) for your team." """
    st = run(deal(), "0 name H")
    acts = engine.legal_actions(st)
    assert Action("play", parse_card("KH"), meld=True) in acts
    assert Action("play", parse_card("QH"), meld=True) in acts
    assert sum(a.meld for a in acts) == 2
    st = run(st, "0 meld KH")
    assert st.match["score"] == [2, 0]  # credited at once
    assert card_strs(st.known_cards()) == ["QH"]
    st = run(st, "1 play JS; 2 play TH; 3 play JD")
    assert st.to_act == 1
    assert {card_str(a.card) for a in engine.legal_actions(st) if a.meld} == {"KS", "QS"}
    st = run(st, "1 meld QS")
    assert st.match["score"] == [2, 1] and st.melds == [2, 1]
    # following is no lead, and a lone K is no pair
    refused(st, 2, action("meld", "KD"), Code.ILLEGAL)
    st = run(deal("JC AH KH QD TS | JS AS KS QS TC | JH TH AD KD QC | JD AC KC TD QH"), "0 name H")
    refused(st, 0, action("meld", "KH"), Code.ILLEGAL)


def test_melds_not_doubled_by_spritzen():
    """ "Melds are credited at once and are not doubled by Spritzen." """
    st = run(deal(), "0 name H; 1 spritz; " + STD_PLAY)
    assert st.result["melds"] == [2, 0]
    assert st.result["points"] == [4, 0]
    assert st.match["score"] == [6, 0]


@pytest.mark.parametrize(("score", "trump_meld", "forty_at_ten", "weiter", "value"), [
    (0, False, False, False, 1), (10, False, False, False, 1), (11, False, False, False, 0),
    (9, True, False, False, 2), (10, True, False, False, 0), (10, True, True, False, 1),
    (11, True, True, False, 0), (29, True, False, True, 0), (29, True, True, True, 1), (28, True, False, True, 2),
])
def test_no_melding_out_table(score, trump_meld, forty_at_ten, weiter, value):
    """ "a meld that would bring the team to the round's end (12 points, 31 with weiterschreiben) or more
    scores nothing. forty_at_ten ...: a 40 two points below the round's end (at 10) scores 1." """
    opts = BauerchenOptions(forty_at_ten=forty_at_ten, weiterschreiben=weiter)
    assert meld_value(opts, score, trump_meld) == value


def test_no_melding_out_in_play():
    """ "A game cannot be won by melding" -- the meld is still allowed, it just scores nothing. """
    st = run(deal(match={"score": [10, 3]}), "0 name H; 0 meld KH")
    assert st.match["score"] == [10, 3] and st.melds == [0, 0]
    st = run(deal(match={"score": [10, 3]}, forty_at_ten=True), "0 name H; 0 meld KH")
    assert st.match["score"] == [11, 3] and st.melds == [1, 0]


# ------------------------------------------------------------------ Spritzen


def test_spritzen_alternate_between_teams():
    """ "A player of the away team may spritz; then a player of the home team may reply ... and so on
    without limit. ... any one player of the team whose turn it is to reply may call." """
    st = run(deal(), "0 name H")
    assert engine.offers(st) == {1: [Action("spritz"), Action("ledig")], 2: [Action("ledig")],
                                 3: [Action("spritz"), Action("ledig")]}
    refused(st, 2, Action("spritz"), Code.ILLEGAL)
    refused(st, 0, Action("spritz"), Code.ILLEGAL)
    st = run(st, "3 spritz")
    refused(st, 1, Action("spritz"), Code.ILLEGAL)
    st = run(st, "2 spritz; 0 play KH; 1 spritz; 0 spritz")
    assert st.spritz == 4
    assert engine.view(st, None)["public"]["spritz_next"] == 1


@pytest.mark.parametrize("calls", [0, 1, 2, 3])
def test_each_call_doubles(calls):
    """ "Each call doubles the deal's points." """
    script = "0 name H; " + "; ".join(["1 spritz", "0 spritz", "3 spritz"][:calls])
    st = run(run(deal(), script), STD_PLAY)
    assert st.result["points"] == [2 << calls, 0]


def test_spritzen_timing():
    """ "from the naming of trump until the deal is decided, that is until the last card is played or a
    team already holds enough eyes in its tricks to win (home 66, away 65)." """
    refused(deal(), 1, Action("spritz"), Code.WRONG_PHASE)
    st = run(deal(), "0 name H; 0 meld KH; 1 play JS; 2 play TH; 3 play JD; 1 play AS; 2 play JH; 3 play QD; "
                     "0 play TS; 2 play AD; 3 play TD; 0 play QH; 1 play QS; 0 play AH; 1 play KS; 2 play QC")
    assert st.team_eyes() == [53, 18] and Action("spritz") in st.offers_for(1)
    st = run(st, "3 play KC")
    assert st.team_eyes() == [75, 18]  # home holds 66
    assert all(Action("spritz") not in st.offers_for(s) for s in range(4))
    refused(st, 1, Action("spritz"), Code.ILLEGAL)
    hands, script = AWAY_65
    st = run(deal(hands), script)
    assert st.team_eyes()[1] < 65 and Action("spritz") in st.offers_for(1)
    st = run(st, "2 play QC")
    assert st.team_eyes() == [0, 65]  # away holds 65 with two tricks to play
    assert engine.offers(st) == {} and Action("spritz") not in engine.legal_actions(st)
    st = run(deal(), "0 name H; " + STD_PLAY)
    refused(st, 1, Action("spritz"), Code.DEAL_OVER)


# ------------------------------------------------------------------ Ledig


def test_ledig_window():
    """ "After trump is named and all cards are dealt, and before the first card is led, any player may
    declare ledig" """
    refused(deal(), 1, Action("ledig"), Code.WRONG_PHASE)
    st = run(deal(), "0 name H")
    assert all(Action("ledig") in st.offers_for(s) for s in range(4))
    st = run(st, "0 play KH")
    refused(st, 2, Action("ledig"), Code.ILLEGAL)
    refused(st, 1, Action("ledig"), Code.ILLEGAL)


def test_ledig_partner_sits_out_and_spritzen_lapse():
    """ "Spritzen calls made before it count for nothing, and none can follow it. His partner's cards go
    face down and the partner sits out." """
    st = run(deal(LEDIG_HANDS), "0 name H; 1 spritz; 0 spritz; 0 ledig")
    assert st.spritz == 0 and st.active == [True, True, False, True]
    assert st.hands[2] == 0 and st.set_aside() == mask_of(parse_hands(LEDIG_HANDS)[2])
    assert engine.offers(st) == {} and engine.legal_actions(st)[-1].kind == "play"
    refused(st, 1, Action("spritz"), Code.ILLEGAL)
    refused(st, 2, action("play", "AC"), Code.NOT_YOUR_TURN)
    st = run(st, "0 play JC; 1 play JD; 3 play TC")
    assert st.tricks[-1] == (0, tuple(parse_card(c) for c in ("JC", "JD", "TC")), 0)


def test_ledig_won_wins_the_round():
    """ "Won (he takes all 5 tricks): his team wins the round at once" -- points [0, 0], no carry. """
    st = run(deal(LEDIG_HANDS, match={"score": [3, 9], "knoddel": [0, 0]}, weiterschreiben=True),
             "0 name H; 0 ledig; 0 play JC; 1 play JD; 3 play TC; 0 play JS; 1 play KH; 3 play AD; "
             "0 play JH; 1 play AS; 3 play TD; 0 play AH; 1 play KS; 3 play KD; 0 play TH; 1 play QS; 3 play QD")
    assert st.result == {"eyes": [99, 0], "points": [0, 0], "melds": [0, 0], "round_winner": 0}
    assert st.match == {"score": [0, 0], "knoddel": [0, 1], "steine": [0, 0], "winner": None}


def test_ledig_lost_ends_at_once():
    """ "lost (the opponents take a trick): the opponents win the round at once." """
    st = run(deal(LEDIG_HANDS, match={"score": [3, 9]}), "0 name H; 1 ledig")
    assert st.active == [True, True, True, False] and st.to_act == 0
    st = run(st, "0 play JC; 1 play JD; 2 play QH")
    assert engine.is_over(st)
    assert st.result == {"eyes": [7, 0], "points": [0, 0], "melds": [0, 0], "round_winner": 0}
    assert st.match["score"] == [0, 0] and st.match["knoddel"] == [0, 1]


def test_ledig_forehand_sits_out():
    """ "the forehand leads the first trick; if the forehand sits out, the next active seat leads." """
    st = run(deal(LEDIG_HANDS), "0 name H; 2 ledig")
    assert st.to_act == 1 and st.leader == 1 and not st.active[0]


def test_ledig_in_decider():
    """ "`ledig_in_decider` (default on; off is the seed's optional rule): whether Ledig is allowed in the
    deciding round ("Gehampelter")." """
    st = run(deal(match={"knoddel": [1, 1]}), "0 name H")
    assert Action("ledig") in st.offers_for(1)
    st = run(deal(match={"knoddel": [1, 1]}, ledig_in_decider=False), "0 name H")
    assert all(Action("ledig") not in st.offers_for(s) for s in range(4))
    refused(st, 0, Action("ledig"), Code.ILLEGAL)
    st = run(deal(match={"knoddel": [1, 0]}, ledig_in_decider=False), "0 name H")
    assert Action("ledig") in st.offers_for(1)


# ------------------------------------------------------------------ deal score


@pytest.mark.parametrize(("recorded", "eyes", "points"), [
    (NACKIG_HOME, [130, 0], [3, 0]),
    (NACKIG_AWAY, [0, 130], [0, 4]),
    (SCHNEIDER_HOME, [113, 17], [2, 0]),
    (SCHNEIDER_AWAY, [20, 110], [0, 3]),
    (FREI_HOME, [73, 57], [1, 0]),
    (FREI_AWAY, [45, 85], [0, 2]),
    (TIE, [65, 65], [0, 2]),
])
def test_deal_score_rows(recorded, eyes, points):
    """ "Points by the loser's eyes: 0 (no trick) nackig 3; 1 to 32 Schneider 2; 33 or more Schneider frei 1.
    If the away team wins it gets 1 point more. ... at 65 : 65 the away team wins." """
    st = play_out(recorded)
    assert st.result["eyes"] == eyes and st.result["points"] == points
    assert st.match["score"] == points


@pytest.mark.parametrize(("loser", "away", "calls", "points"), [
    (0, False, 0, 3), (0, True, 0, 4), (8, False, 0, 2), (32, False, 0, 2), (32, True, 0, 3),
    (33, False, 0, 1), (64, True, 0, 2), (65, True, 0, 2), (17, False, 2, 8), (40, True, 3, 16),
])
def test_deal_points_formula(loser, away, calls, points):
    """ "points = (base + away bonus) × 2^calls." """
    assert deal_points(loser, away, calls) == points


# ------------------------------------------------------------------ round, Knoddel, Stein


def test_round_ends_at_twelve():
    """ "A round ends when a team reaches 12 points; points over 12 are dropped. ... The team that loses a
    round gets a Knoddel." """
    st = play_out(SCHNEIDER_HOME, match={"score": [11, 7]})
    assert st.result["round_winner"] == 0
    assert st.match == {"score": [0, 0], "knoddel": [0, 1], "steine": [0, 0], "winner": None}
    st = play_out(SCHNEIDER_HOME, match={"score": [9, 11]})
    assert st.result["round_winner"] is None and st.match["score"] == [11, 11]


def test_weiterschreiben_carries_the_excess():
    """ "`weiterschreiben` ...: a round ends at 31 points and the winner's points over 31 are carried into
    the next round. The loser of a round always restarts at 0" """
    st = play_out(SCHNEIDER_HOME, match={"score": [30, 20]}, weiterschreiben=True)
    assert st.result["round_winner"] == 0 and st.match["score"] == [1, 0]
    st = play_out(SCHNEIDER_HOME, match={"score": [28, 20]}, weiterschreiben=True)
    assert st.result["round_winner"] is None and st.match["score"] == [30, 20]
    # a carry never wins the next round by itself (capped at 30)
    st = deal(SCHNEIDER_HOME[0], match={"score": [30, 0]}, weiterschreiben=True)
    st = run(st, "0 name S; 1 spritz; 0 spritz; 1 spritz; 0 spritz")
    st = run(st, SCHNEIDER_HOME[1].split("; ", 1)[1])
    assert st.result["points"] == [32, 0] and st.match["score"] == [30, 0]


def test_stein_after_two_knoddel():
    """ "The team whose opponents have 2 Knoddel wins the Stein (best of three rounds); then a new Stein
    starts with no Knoddel." `target_steine` (default 1): how many Steine win the table's match. """
    st = play_out(SCHNEIDER_HOME, match={"score": [10, 0], "knoddel": [1, 1]}, target_steine=2)
    assert st.match == {"score": [0, 0], "knoddel": [0, 0], "steine": [1, 0], "winner": None}
    assert not engine.match_over(st)
    st = play_out(SCHNEIDER_AWAY, match={"score": [0, 10], "knoddel": [1, 0], "steine": [1, 1]},
                  target_steine=2)
    assert st.match == {"score": [0, 0], "knoddel": [0, 0], "steine": [1, 2], "winner": 1}
    assert engine.match_over(st)
    with pytest.raises(Rejected):
        engine.next_deal(st, random.Random(1))


def test_gehampelter_is_one_knoddel_each():
    """ "With one Knoddel each, the third round is the Gehampelter (the decider)." """
    assert run(deal(match={"knoddel": [1, 1]}), "0 name H").decider()
    assert not run(deal(match={"knoddel": [0, 1]}), "0 name H").decider()


def test_read_match():
    """The replay's partial ``match`` is completed; bad keys and values are refused."""
    opts = BauerchenOptions()
    assert BauerchenState.read_match(opts, 4, {"score": [4, 9]}) == {
        "score": [4, 9], "knoddel": [0, 0], "steine": [0, 0], "winner": None}
    for bad in ({"points": [0, 0]}, {"score": [12, 0]}, {"knoddel": [2, 0]}, {"score": [1]},
                {"steine": [1, 0]}, {"winner": 0}, {"score": [True, 0]}):
        with pytest.raises(ValueError):
            BauerchenState.read_match(opts, 4, bad)


# ------------------------------------------------------------------ API contract


def test_replay_shapes():
    """The replay output's ``result`` and ``match`` have exactly the keys of replay-format.md."""
    st = run(deal(), "0 name H; 0 meld KH")
    out = report(st)
    assert set(out["match"]) == {"score", "knoddel", "steine", "winner"} and out["match"]["score"] == [2, 0]
    assert out["legal"] == [{"action": "play", "card": "JS"}, {"action": "spritz"}]
    st = run(st, STD_PLAY.split("; ", 1)[1])
    assert set(report(st)["result"]) == {"eyes", "points", "melds", "round_winner"}


def test_apply_does_not_mutate_and_json_round_trips():
    """``apply`` never mutates its input; ``to_json``/``from_json`` round-trip mid-deal."""
    st = run(deal(LEDIG_HANDS), "0 name H; 1 spritz; 2 ledig")
    before = engine.to_json(st)
    new, _ = engine.apply(st, 1, action("play", "KH"))
    assert engine.to_json(st) == before
    back = engine.from_json(json.loads(json.dumps(engine.to_json(new))))
    assert engine.to_json(back) == engine.to_json(new)
    assert engine.legal_actions(back) == engine.legal_actions(new)
    st = run(deal(), "0 name H; 0 meld KH; 1 play JS")
    back = engine.from_json(json.loads(json.dumps(engine.to_json(st))))
    assert run(back, "2 play TH; 3 play JD").tricks == run(st, "2 play TH; 3 play JD").tricks


def test_views_hide_other_hands():
    """view(seat) shows only that seat's hand; view(None) shows no hand card."""
    st = run(deal(), "0 name H; 1 spritz")
    hands = parse_hands(STD)
    for seat in range(4):
        view = engine.view(st, seat)
        assert sorted(view["hand"]) == sorted(card_strs(hands[seat]))
        others = {card_str(c) for s in range(4) if s != seat for c in hands[s]}
        assert not any(f'"{c}"' in json.dumps(view) for c in others)
    public = json.dumps(engine.view(st, None))
    assert "hand" not in engine.view(st, None)
    assert not any(f'"{card_str(c)}"' in public for c in cards_in(DECK20))


def test_random_play_invariants():
    """Random legal play (offers included) over many deals: cards conserved, eyes 130 per full deal."""
    rng = random.Random(5)
    st = engine.new_match("bauerchen", rng)
    for _ in range(300):
        while not engine.is_over(st):
            offers = engine.offers(st)
            if offers and rng.random() < 0.1:
                seat = rng.choice(sorted(offers))
                st, _ = engine.apply(st, seat, rng.choice(offers[seat]))
            else:
                st, _ = engine.apply(st, st.to_act, rng.choice(engine.legal_actions(st)))
            union = 0
            for h in st.hands:
                union |= h
            assert union | st.played() | st.set_aside() == DECK20
        if st.ledig is None:
            assert sum(st.result["eyes"]) == 130
        st = engine.new_match("bauerchen", rng) if engine.match_over(st) else engine.next_deal(st, rng)


# ------------------------------------------------------------------ computer player


def _bot_deal(st: BauerchenState, rng: random.Random, bot_team: int | None) -> BauerchenState:
    """Play one deal: seats of ``bot_team`` (None: all) by the computer player, the others at random."""
    while not engine.is_over(st):
        for seat in range(4):
            if (bot_team is None or seat % 2 == bot_team) and seat != st.to_act:
                wanted = bot.offer(st, seat)
                if wanted is not None:
                    assert wanted in engine.offers(st)[seat]
                    st, _ = engine.apply(st, seat, wanted)
                    break
        if engine.is_over(st):
            break
        seat = st.to_act
        if bot_team is None or seat % 2 == bot_team:
            act = bot.choose(st, seat)
            assert act in engine.legal_actions(st)
        else:
            acts = st.play_actions() if st.phase == PLAY_PHASE else engine.legal_actions(st)
            act = rng.choice(acts)
        st, _ = engine.apply(st, seat, act)
    return st


@pytest.mark.parametrize("options", [{}, {"trump_after_cards": 5}, {"overtrump_on_trump_lead_only": True}])
def test_bot_always_legal(options):
    """The computer player returns a legal action in every position of 200 deals."""
    rng = random.Random(11)
    st = engine.new_match("bauerchen", rng, options=options)
    for _ in range(200):
        st = _bot_deal(st, rng, None)
        st = engine.new_match("bauerchen", rng, options=options) if engine.match_over(st) else engine.next_deal(st, rng)


def test_bot_is_deterministic():
    """Same state, same decision."""
    st = run(deal(), "0 name H")
    assert all(bot.choose(st, 0) == bot.choose(st, 0) for _ in range(3))


@pytest.mark.parametrize("bot_team", [0, 1])
def test_bot_beats_random(bot_team):
    """Over 300 deals the computer team scores clearly more (deal points and melds) than random players."""
    rng = random.Random(3 + bot_team)
    st = engine.new_match("bauerchen", rng)
    points = [0, 0]
    for _ in range(300):
        st = _bot_deal(st, rng, bot_team)
        for team in range(2):
            points[team] += st.result["points"][team] + st.result["melds"][team]
        st = engine.new_match("bauerchen", rng) if engine.match_over(st) else engine.next_deal(st, rng)
    assert points[bot_team] > 1.5 * points[1 - bot_team], points
