"""Scripted scenarios for Bauernstoß and Alter Schafkopf, one per rule of ``rules/bauernstoss.md``, and their player."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import Action, Code, Rejected
from engine.bauernstoss import AlterSchafkopf, Bauernstoss, count, jack_draw, lowest_trump
from engine.cards import DECK32, EYES, SUITS, card_str, card_strs, cards_in, mask_of, parse_card
from engine.order import TRUMP
from engine.players import bauernstoss as bot
from engine.state import PLAY_PHASE

# The hands of the hand-worked vectors; dealer 3, so seat 0 is forehand.
STD = "JS AH TH KH 9H AC 7S 8D | JC JH AS TS KS QS 9C 7D | JD QH 8H 7H TC KC 9S AD | TD KD QD 9D QC 8C 7C 8S"
STD_PLAY = ("0 announce H; 1 announce S; 2 pass; 3 pass; 0 play AC; 1 play 9C; 2 play KC; 3 play 7C; "
            "0 play AH; 1 play QS; 2 play 7H; 3 play 8S; 1 play JH; 2 play 9S; 3 play 9D; 0 play JS; "
            "0 play TH; 1 play JC; 2 play 8H; 3 play 8C; 1 play AS; 2 play JD; 3 play QC; 0 play 7S; "
            "2 play AD; 3 play TD; 0 play 8D; 1 play 7D; 2 play TC; 3 play QD; 0 play 9H; 1 play KS; "
            "1 play TS; 2 play QH; 3 play KD; 0 play KH")  # 56 : 64, spades trump
# Announcing: seat 0 hearts 4 (lowest 9H), seat 1 diamonds 4 (lowest 7D) or spades 4 (lowest 8S),
# seat 2 hearts 4 (lowest 7H, partner of seat 0), seat 3 diamonds 5 or clubs 4 (lowest 9C).
MIT = "JC AH KH 9H AS KS 8C 7C | JS AD TD 7D TS QS 8S TH | JH QH 8H 7H AC TC 9S 7S | JD KD QD 9D 8D KC QC 9C"
# Play: seat 0 names clubs; seat 1 void in hearts (JH QC 9C trumps); seat 2 follows hearts and
# holds JC; seat 3 void in hearts with JS and 7C.
PLAY = "JD AC TC KC AH KH 9H 7H | JH QC 9C AS TS KS QS 9S | JC TH QH 8H 8C 7S 8S AD | JS TD KD QD 9D 8D 7D 7C"
# Solos: seat 0 holds three jacks and hearts; his partner (seat 2) holds JD.
SOLO = "JC JS JH AH TH KH QH 9H | AC TC KC QC 9C 8C 7C AS | JD TS KS QS 9S 8S 7S AD | 8H 7H TD KD QD 9D 8D 7D"
FOUR_JACKS = "8C 9D 8H 7S 8D AS 7C TS | 9H AH JC JD QD JS JH 8S | TC AD KS QH TD TH 9S QC | QS 7D KC AC 9C KH KD 7H"

LATER = {"deal_no": 5, "striche": [3, 4], "chalk": 1, "winner": None}


def parse_hands(text: str) -> list[list[int]]:
    """Four hands from ``"JC AH ... | ..."`` in dealt order."""
    return [[parse_card(c) for c in part.split()] for part in text.split("|")]


def deal(hands: str = STD, *, cls=Bauernstoss, dealer: int = 3, match: dict | None = None,
         options: dict | None = None):
    """A fresh deal of ``cls`` with the given hands (first deal unless ``match`` says otherwise)."""
    opts = cls.OPTIONS.model_validate(options or {})
    full = cls.read_match(opts, 4, match or {})
    return cls.start(opts, 4, dealer, full, parse_hands(hands), [], [])


def action(text: str) -> tuple[int, Action]:
    """``"0 announce H"``, ``"1 play JC"``, ``"2 solo grand"``, ``"0 give 9H"`` → (seat, action)."""
    seat, kind, *arg = text.split()
    if kind in ("play", "give"):
        return int(seat), Action(kind, parse_card(arg[0]))
    if kind in ("announce", "name_trump"):
        return int(seat), Action(kind, suit=SUITS.index(arg[0]))
    if kind == "solo":
        return int(seat), Action(kind, size=arg[0])
    return int(seat), Action(kind)


def run(state, script: str):
    """Apply the ``;``-separated actions through ``engine.apply``; return the final state."""
    for step in filter(None, (s.strip() for s in script.split(";"))):
        state, _ = engine.apply(state, *action(step))
    return state


def refused(state, step: str) -> Rejected:
    """The rejection of ``step`` (which must be refused)."""
    with pytest.raises(Rejected) as info:
        engine.apply(state, *action(step))
    return info.value


def legal_strs(state) -> set[str]:
    """The legal actions as short strings (``announce H``, ``pass``, ``solo grand``, ``play JC``)."""
    out = set()
    for a in engine.legal_actions(state):
        arg = card_str(a.card) if a.card >= 0 else SUITS[a.suit] if a.suit >= 0 else a.size
        out.add(f"{a.kind} {arg}".strip())
    return out


def legal_cards(state) -> set[str]:
    return {card_str(a.card) for a in engine.legal_actions(state) if a.kind == "play"}


# ----------------------------------------------------------- setup
def test_deal_is_four_plus_four_from_the_forehand():
    """Rule: "4 players, partners opposite. 32 cards, 8 each, dealt 4 + 4 from the forehand on." """
    order = list(range(32))
    hands, blind, turned = Bauernstoss.packets(Bauernstoss.OPTIONS(), 4, Bauernstoss.new_match(None, 4), 1, order)
    assert blind == turned == []
    assert hands[2] == [0, 1, 2, 3, 16, 17, 18, 19]  # seat 2 is forehand after dealer 1
    assert hands[1] == [12, 13, 14, 15, 28, 29, 30, 31]
    with pytest.raises(ValueError):
        Bauernstoss.start(Bauernstoss.OPTIONS(), 4, 0, Bauernstoss.new_match(None, 4),
                          [h[:7] for h in parse_hands(STD)], [], [])


def test_jack_draw_pairs_the_first_two_players_to_receive_a_jack():
    """Rule: `jack_draw`: "one card face up for each player in seat order until two jacks have appeared;
    those two players become partners"."""
    j = [parse_card(c) for c in ("JC", "JS", "JH", "JD")]
    x = [c for c in cards_in(DECK32) if c not in j]
    assert jack_draw([x[0], j[0], x[1], j[1]] + x[2:] + j[2:]) == (1, 3)
    # player 1 receives the second jack too: the draw goes on to the next player with a jack
    assert jack_draw([x[0], j[0], x[1], x[2], x[3], j[1], j[2]] + x[4:] + j[3:]) == (1, 2)
    # one player receives every jack: draw again
    assert jack_draw([j[0], x[0], x[1], x[2], j[1], x[3], x[4], x[5], j[2], x[6], x[7], x[8], j[3]] + x[9:]) is None
    assert engine.parse_options("bauernstoss", {"partners": "jack_draw"}).partners == "jack_draw"
    assert engine.parse_options("alter_schafkopf", {}).target == 15
    assert engine.parse_options("bauernstoss", {}).target == 20
    with pytest.raises(ValueError):
        engine.parse_options("alter_schafkopf", {"grand_solo_needs_jc": True})


# ----------------------------------------------------------- card order
def test_card_order_jacks_then_trump_suit_and_plain_suits():
    """Rule: "Trumps, high to low: JC JS JH JD, then the trump suit A T K Q 9 8 7. Plain suits A T K Q 9 8 7." """
    st = run(deal(STD), "0 announce H; 1 announce S; 2 pass; 3 pass")
    order = st.order
    trumps = sorted(cards_in(order.trumps), key=lambda c: -order.strength[c])
    assert card_strs(trumps) == ["JC", "JS", "JH", "JD", "AS", "TS", "KS", "QS", "9S", "8S", "7S"]
    hearts = sorted(cards_in(order.suit_mask[2]), key=lambda c: -order.strength[c])
    assert card_strs(hearts) == ["AH", "TH", "KH", "QH", "9H", "8H", "7H"]
    assert sum(EYES[c] for c in cards_in(DECK32)) == 120


# ----------------------------------------------------------- announcing
def test_count_is_jacks_plus_suit_and_the_table_hears_only_the_count():
    """Rule: "count for a suit s = his jacks + his non-jack cards of suit s ... the table hears only the count"."""
    hand = mask_of(parse_hands(STD)[1])
    assert count(hand, SUITS.index("S")) == 6 and count(hand, SUITS.index("H")) == 2
    st, events = engine.apply(deal(STD), 0, Action("announce", suit=SUITS.index("H")))
    assert events == [{"type": "announced", "seat": 0, "count": 5, "mit": False}]
    public = json.dumps(engine.view(st, None))
    assert '"H"' not in public and st.public_info()["calls"] == [5, None, None, None]
    assert engine.view(st, 0)["committed"] == "H" and "committed" not in engine.view(st, 1)


def test_announce_needs_a_jack_a_count_of_two_and_more_than_the_best():
    """Rule: "Allowed only with at least one jack in hand and a count of at least 2 (a suit with no card of its
    own may be announced when the jacks alone make 2 or more), and only if the count is higher"."""
    st = deal(MIT)
    assert "announce D" not in legal_strs(st)  # JC alone: count 1
    st = run(st, "0 announce H")
    assert legal_strs(st) >= {"announce S", "pass"} and "announce H" not in legal_strs(st)  # hearts: 2 < 4
    assert (refused(st, "1 announce H").code, refused(st, "1 announce H").hint) == (Code.ILLEGAL, "count_too_low")
    st = deal(STD, dealer=0)  # seat 1 forehand: hearts count 2 from JC JH alone
    assert "announce H" in legal_strs(st)


def test_mit_needs_an_eight_unless_the_partner_holds_the_count():
    """Rule: "mit ... is allowed only if his lowest trump for s is an 8 or higher; a partner of a player who
    already holds that count may say mit with a 7 as lowest trump"."""
    st = run(deal(MIT), "0 announce H")
    assert "announce D" not in legal_strs(st)  # 4 with 7D, opponent
    assert refused(st, "1 announce D").hint == "no_mit"
    assert "announce S" in legal_strs(st)  # 4 with 8S
    st = run(st, "1 announce S")
    assert "announce H" in legal_strs(st)  # 4 with 7H, partner of seat 0
    st = run(st, "2 announce H")
    assert st.public_info()["tied"] == [0, 1, 2]
    assert {"announce C", "announce D"} <= legal_strs(st)  # clubs 4 (9C) mit, diamonds 5 raise


def test_pass_duty_with_one_to_three_jacks():
    """Rule: "A player with 1 to 3 jacks may not pass if he is the forehand or everyone before him passed ...
    Otherwise anyone may pass, even with a longer suit, and a player may announce a shorter suit"."""
    st = deal(STD, dealer=2)  # seat 3 is forehand without a jack
    assert legal_strs(st) == {"pass"}
    st = run(st, "3 pass")
    assert "pass" not in legal_strs(st)
    assert (refused(st, "0 pass").code, refused(st, "0 pass").hint) == (Code.ILLEGAL, "must_announce")
    assert {"announce C", "announce S", "announce H", "announce D"} <= legal_strs(st)  # shorter suits too
    st = run(st, "0 announce C")
    assert "pass" in legal_strs(st)  # seat 1 may pass with spades 6


def bid_strs(state, seat: int) -> set[str]:
    """``seat``'s bids (:meth:`~engine.state.State.bids`) as :func:`legal_strs` writes actions."""
    return {f"{a.kind} {SUITS[a.suit] if a.suit >= 0 else a.size}".strip() for a in state.bids(seat)}


@pytest.mark.parametrize("cls", [Bauernstoss, AlterSchafkopf])
def test_bids_list_from_the_deal_what_a_seat_may_announce_when_his_turn_comes(cls):
    st = deal(MIT, cls=cls)  # seat 1: diamonds 4 with 7D, spades 4 with 8S, hearts 2 (JS TH), clubs 1
    before = bid_strs(st, 1)
    assert before == {"pass", "announce D", "announce S", "announce H"}
    st = run(st, "0 announce H")
    assert bid_strs(st, 1) == before, "what others bid leaves them as they are"
    assert "announce H" not in legal_strs(st) <= before, "what he may bid now is among them, 2 hearts no more"
    assert bid_strs(st, 0) == set(), "he has spoken"
    st = run(st, "1 pass; 2 pass; 3 pass")
    assert st.phase == PLAY_PHASE and not any(st.bids(s) for s in range(4)), "no bids outside the round"


def test_highest_count_names_and_ties_go_to_the_higher_lowest_trump_then_the_earlier_speaker():
    """Rule: "Winner: the highest count. Among players tied at it ... the highest lowest-trump wins; if still
    equal, the earlier speaker." """
    st = run(deal(MIT), "0 announce H; 1 pass; 2 pass; 3 announce D")
    assert st.trump == SUITS.index("D") and st.namer == 3
    # hearts 4 (lowest 9H) and clubs 4 (lowest 9C): equal, the earlier speaker (seat 0) names
    st = run(deal(MIT), "0 announce H; 1 pass; 2 pass; 3 announce C")
    assert st.trump == SUITS.index("H") and st.namer == 0
    # 9H and 9C beat seat 1's 8S; of the two nines seat 0 spoke first
    st = run(deal(MIT), "0 announce H; 1 announce S; 2 pass; 3 announce C")
    assert st.namer == 0
    assert lowest_trump(mask_of(parse_hands(MIT)[1]), SUITS.index("S")) < lowest_trump(
        mask_of(parse_hands(MIT)[0]), SUITS.index("H"))


def test_partners_tied_at_the_top_choose_who_names():
    """Rule: "If the winner's partner is also tied at the top count, the winner may hand the naming to the
    partner (`let_partner_name`) ... there the winner acts, with `name_trump` (his committed suit)"."""
    hands = "7H JH JD TC TS KH QS KD | 8S 9D 9S KS TH QD 8H AC | QC JS QH AD AH 8C 9H 7C | AS KC TD 8D 7S 9C JC 7D"
    st = run(deal(hands, dealer=0, options={"target": 12}), "1 pass; 2 announce C; 3 pass; 0 announce H")
    assert st.phase == "name" and st.to_act == 2 and st.trump == -1
    assert legal_strs(st) == {"name_trump C", "let_partner_name"}
    assert refused(st, "2 name_trump H").code == Code.ILLEGAL
    named, events = engine.apply(st, 2, Action("let_partner_name"))
    assert named.trump == SUITS.index("H") and named.namer == 0 and named.to_act == 1
    assert {"type": "trump_named", "seat": 0, "suit": "H"} in events
    own = run(st, "2 name_trump C")
    assert own.trump == SUITS.index("C") and own.namer == 2


def test_trump_is_the_namers_committed_suit_and_the_table_is_told():
    """Rule: "The trump suit is the committed suit of the player who names it; the table is then told the
    suit and who named it ("getauft"). Naming needs no action"."""
    st = run(deal(STD), "0 announce H; 1 announce S; 2 pass")
    st, events = engine.apply(st, 3, Action("pass"))
    assert {"type": "trump_named", "seat": 1, "suit": "S"} in events
    assert st.phase == PLAY_PHASE and engine.view(st, None)["trump"] == "S"


# ----------------------------------------------------------- four jacks
def test_four_jacks_play_a_grand_solo_or_throw_the_deal_in():
    """Rule: "That player cannot announce a count. He may announce a grand solo (not in the first deal); if
    he does not, the deal is thrown in and the next dealer deals." """
    st = run(deal(FOUR_JACKS, dealer=1, match={"deal_no": 7, "striche": [9, 0], "chalk": 1}), "2 pass; 3 pass; 0 pass")
    assert legal_strs(st) == {"pass", "solo grand"}
    assert refused(st, "1 solo small").code == Code.ILLEGAL
    over = run(st, "1 pass")
    assert over.result == {"thrown_in": True}
    assert over.match == {"deal_no": 7, "striche": [9, 0], "chalk": 1, "winner": None}
    nxt = engine.next_deal(over, random.Random(1))
    assert nxt.dealer == 2 and nxt.match["deal_no"] == 7
    solo = run(st, "1 solo grand")
    assert solo.phase == "name" and not solo.active[3]


def test_four_jacks_in_the_first_deal_always_throw_in_and_the_next_deal_is_first_again():
    """Rule: "In the first deal of a partie the deal is always thrown in. A thrown-in first deal is followed
    by another first deal (no solo, chalk and extra Strich by JC)." """
    st = run(deal(FOUR_JACKS, dealer=1), "2 pass; 3 pass; 0 pass")
    assert legal_strs(st) == {"pass"}
    over = run(st, "1 pass")
    assert over.result == {"thrown_in": True} and over.match["deal_no"] == 1 and over.match["chalk"] is None
    nxt = engine.next_deal(over, random.Random(3))
    assert nxt.dealer == 2 and nxt.first_deal() and not any(a.kind == "solo" for a in nxt.legal())
    jc_seat = next(s for s in range(4) if nxt.hands[s] >> parse_card("JC") & 1)
    assert nxt.deal_chalk == jc_seat % 2


# ----------------------------------------------------------- solos
def test_solo_ends_the_announcing_round_and_needs_a_jack_but_not_in_the_first_deal():
    """Rule: "A solo beats every count and ends the announcing round at once ... A solo needs at least one jack
    in hand ... No solo in the first deal of a partie." """
    assert not any(a.kind == "solo" for a in deal(STD).legal())
    st = deal(STD, match=LATER)
    assert "solo grand" in legal_strs(st) and "solo small" not in legal_strs(st)  # JS but no JC
    st = run(st, "0 announce H; 1 announce S; 2 pass")
    assert legal_strs(st) == {"pass"}  # seat 3: no jack, no solo
    st = run(deal(STD, match=LATER), "0 announce H")
    st, events = engine.apply(st, 1, Action("solo", size="small"))
    assert events == [{"type": "solo", "seat": 1, "kind": "small"}]
    assert st.phase == "give" and st.to_act == 1 and st.public_info()["calls"] == [5, "small", None, None]


def test_small_solo_exchange_then_the_partner_sits_out():
    """Rule: "Small solo: only with JC in hand. The solo player gives his partner one card face down; the
    partner, without looking at it, gives one card back, face down unless it is a jack, which the table sees.
    Then the partner sits out." """
    st = run(deal(SOLO, match=LATER), "0 solo small")
    st, events = engine.apply(st, 0, Action("give", parse_card("9H")))
    assert events == [{"type": "gave", "seat": 0}] and st.to_act == 2
    assert legal_strs(st) == {f"give {c}" for c in "JD TS KS QS 9S 8S 7S AD".split()}  # not the 9H
    assert "9H" not in engine.view(st, 2)["hand"]
    st, events = engine.apply(st, 2, Action("give", parse_card("JD")))
    assert events == [{"type": "gave", "seat": 2, "card": "JD"}]
    assert not st.active[2] and st.hands[2] == 0 and st.hands[0] >> parse_card("JD") & 1
    assert st.set_aside() == mask_of(parse_hands("9H TS KS QS 9S 8S 7S AD")[0])
    assert st.public_info()["returned_jack"] == "JD" and '"JD"' in json.dumps(engine.view(st, None))
    hidden = run(run(deal(SOLO, match=LATER), "0 solo small; 0 give 9H"), "2 give AD")
    assert "returned_jack" not in hidden.public_info() and '"AD"' not in json.dumps(engine.view(hidden, None))
    assert "solo small" not in legal_strs(deal(STD, match=LATER))


def test_grand_solo_partner_sits_out_at_once_and_needs_jc_only_by_option():
    """Rule: "Grand solo ("Leg dich", 12 Striche): the partner sits out at once; no exchange.
    `grand_solo_needs_jc` (default off): only with JC in hand." """
    st = run(deal(STD, match=LATER), "0 solo grand")
    assert st.phase == "name" and not st.active[2] and st.hands[2] == 0
    assert "solo grand" not in legal_strs(deal(STD, match=LATER, options={"grand_solo_needs_jc": True}))
    st = run(deal(STD, match=LATER, options={"grand_solo_needs_jc": True}), "0 announce H")
    assert "solo grand" in legal_strs(st)  # seat 1 holds JC


def test_solo_player_names_trump_after_the_exchange_and_the_forehand_leads():
    """Rule: "the solo player names trump (`name_trump(s)`) after the exchange. The forehand leads; if the
    forehand sits out, the next active seat leads." """
    st = run(deal(SOLO, match=LATER), "0 solo small; 0 give 9H")
    assert refused(st, "0 name_trump H").code == Code.WRONG_PHASE
    st = run(st, "2 give JD")
    assert legal_strs(st) == {"name_trump C", "name_trump S", "name_trump H", "name_trump D"}
    st = run(st, "0 name_trump D")
    assert st.trump == SUITS.index("D") and st.to_act == 0
    st = run(deal(STD, match=LATER), "0 announce H; 1 announce S; 2 solo grand; 2 name_trump D")
    assert st.to_act == 1  # forehand 0 sits out


def test_solo_ends_at_the_first_trick_the_opponents_win():
    """Rule: "The solo player must win every trick. The deal ends as soon as the opponents win a trick." """
    st = run(deal(STD, match=LATER), "0 solo grand; 0 name_trump H; 0 play 7S; 1 play AS")
    assert st.to_act == 3
    st = run(st, "3 play 8S")
    assert st.result == {"eyes": [0, 11], "tricks": [0, 1], "striche": [0, 12], "chalk": 1}
    assert st.match == {"striche": [3, 16], "chalk": 1, "deal_no": 6, "winner": None}


def _win_all(state):
    """Play to the end with the first legal card (the solo hands win every trick whatever is played)."""
    while not engine.is_over(state):
        state, _ = engine.apply(state, state.to_act, engine.legal_actions(state)[0])
    return state


@pytest.mark.parametrize(("script", "gain"), [("0 solo small; 0 give 9H; 2 give JD; 0 name_trump H", 8),
                                              ("0 solo grand; 0 name_trump H", 12)])
def test_won_solo_scores_eight_or_twelve_and_takes_the_chalk(script, gain):
    """Rule: "Solo won: the solo player's team gets 8 or 12 and holds the chalk. Solo lost: the opponents get
    8 or 12 and hold the chalk." """
    st = _win_all(run(deal(SOLO, match=LATER), script))
    assert st.result["tricks"] == [8, 0] and st.result["striche"] == [gain, 0] and st.result["chalk"] == 0
    assert st.match == {"striche": [3 + gain, 4], "chalk": 0, "deal_no": 6, "winner": None}


# ----------------------------------------------------------- play
def test_forehand_leads_the_first_trick_not_the_namer():
    """Rule: "The forehand leads the first trick (not the trump namer)." """
    st = run(deal(STD), "0 announce H; 1 announce S; 2 pass; 3 pass")
    assert st.namer == 1 and st.to_act == 0 and st.phase == PLAY_PHASE


def _play_deal():
    return run(deal(PLAY, match=LATER), "0 announce C; 1 pass; 2 pass; 3 pass")


def test_follow_suit_and_play_trump_on_a_trump_lead():
    """Rule: "Plain suit led: follow it if you can. Trump led (a jack is a trump): play a trump if you can." """
    st = run(_play_deal(), "0 play AC")
    assert legal_cards(st) == {"JH", "QC", "9C"}
    st = run(st, "1 play 9C")
    assert legal_cards(st) == {"JC", "8C"}
    st = run(_play_deal(), "0 play AH; 1 play QC")
    assert legal_cards(st) == {"TH", "QH", "8H"} and st.restriction() == "must_follow"


def test_void_must_trump_and_only_with_neither_discard():
    """Rule: "Cannot follow: you must play a trump if you have one. Only with neither may you discard." """
    st = run(_play_deal(), "0 play AH")
    assert legal_cards(st) == {"JH", "QC", "9C"} and st.restriction() == "must_trump"
    assert refused(st, "1 play AS").hint == "must_trump"
    st = run(_play_deal(), "0 play AC; 1 play 9C; 2 play 8C; 3 play 7C; 0 play TC; 1 play QC; 2 play JC")
    assert legal_cards(st) == {"JS"}  # trump led: his only trump
    st = run(st, "3 play JS; 2 play 8H")
    assert legal_cards(st) == {"TD", "KD", "QD", "9D", "8D", "7D"} and st.restriction() == ""  # neither: discard


def test_jack_rule_and_not_while_following_a_plain_suit():
    """Rule: "Jack rule: when a jack lies in the trick and you play a trump ..., you must play a jack higher
    than the highest jack in the trick if you hold one. It does not apply while you must follow a plain led
    suit." """
    st = run(_play_deal(), "0 play AH; 1 play JH")
    assert legal_cards(st) == {"TH", "QH", "8H"}  # follows hearts though he holds JC
    st = run(st, "2 play 8H")
    assert legal_cards(st) == {"JS"} and st.restriction() == "jack_rule"
    assert refused(st, "3 play 7C").hint == "jack_rule"
    st = run(_play_deal(), "0 play JD")
    assert legal_cards(st) == {"JH"}


def test_no_duty_to_overtrump_a_non_jack_trump():
    """Rule: "There is no general duty to overtrump a non-jack trump." """
    st = run(_play_deal(), "0 play AH; 1 play QC; 2 play 8H")
    assert legal_cards(st) == {"JS", "7C"}
    st = run(_play_deal(), "0 play KC")
    assert legal_cards(st) == {"JH", "QC", "9C"}


def _reference_legal(game: str, hand: list[str], trick: list[str], trump: str) -> set[str]:
    """The follow rules written plainly from the rule text, for comparison with the engine."""
    ranks = ["JC", "JS", "JH", "JD"] + [r + trump for r in "ATKQ987"]

    def is_trump(c):
        return c[0] == "J" or c[1] == trump

    if not trick:
        return set(hand)
    trumps = [c for c in hand if is_trump(c)]
    if is_trump(trick[0]):
        if not trumps:
            return set(hand)
    else:
        follow = [c for c in hand if not is_trump(c) and c[1] == trick[0][1]]
        if follow:
            return set(follow)
        if not trumps:
            return set(hand)
        if game == "alter_schafkopf":
            return set(trumps)
    if game == "alter_schafkopf":
        top = min(ranks.index(c) for c in trick if is_trump(c))
        return {c for c in trumps if ranks.index(c) < top} or set(trumps)
    jacks = [ranks.index(c) for c in trick if c[0] == "J"]
    higher = [c for c in trumps if c[0] == "J" and jacks and ranks.index(c) < min(jacks)]
    return set(higher or trumps)


@pytest.mark.parametrize("game", ["bauernstoss", "alter_schafkopf"])
def test_legal_cards_match_the_rule_text_in_random_deals(game):
    """Rules "Play" of both games, checked in every position of 150 random deals against a plain reading."""
    rng = random.Random(game)
    st = engine.new_match(game, rng)
    for _ in range(150):
        while not engine.is_over(st):
            if st.phase == PLAY_PHASE:
                want = _reference_legal(game, card_strs(st.hands[st.to_act]), card_strs(st.trick), SUITS[st.trump])
                assert legal_cards(st) == want, (card_strs(st.hands[st.to_act]), card_strs(st.trick))
            st, _ = engine.apply(st, st.to_act, rng.choice(engine.legal_actions(st)))
        st = engine.new_match(game, rng) if engine.match_over(st) else engine.next_deal(st, rng)


# ----------------------------------------------------------- score
def test_first_deal_jc_team_holds_the_chalk_and_gets_an_extra_strich():
    """Rule: "First deal: the team that holds JC after the deal holds the chalk, and gets one extra Strich in
    that deal whatever the outcome." """
    st = run(deal(STD), STD_PLAY)
    assert st.result == {"eyes": [56, 64], "tricks": [4, 4], "striche": [0, 2], "chalk": 1}
    assert st.match == {"striche": [0, 2], "chalk": 1, "deal_no": 2, "winner": None}
    # the JC team loses the first deal and still gets its Strich
    st = _find_deal("bauernstoss", {}, lambda r: r["eyes"][0] >= 79 and r["tricks"][0] < 8, strong=0,
                    jc_team=1)
    assert st.result["striche"] == [2 if st.result["eyes"][0] >= 91 else 1, 1] and st.result["chalk"] == 0


def _find_deal(game: str, match: dict, wanted, strong: int, jc_team: int | None = None, tries: int = 3000):
    """The first seeded deal, played out with team ``strong`` taking what it can, whose result fits ``wanted``."""
    rng = random.Random(f"{game}-{strong}")
    cls = engine.game_class(game)
    opts = cls.OPTIONS()
    full = cls.read_match(opts, 4, match)
    for _ in range(tries):
        hands, _, _ = cls.packets(opts, 4, full, 3, rng.sample(cards_in(DECK32), 32))
        st = cls.start(opts, 4, 3, full, hands, [], [])
        if jc_team is not None and st.deal_chalk != jc_team:
            continue
        while not engine.is_over(st):
            legal = [a for a in engine.legal_actions(st) if a.kind != "solo"]
            if st.phase == PLAY_PHASE:
                pick = max if st.to_act % 2 == strong else min
                a = pick(legal, key=lambda a: (st.order.strength[a.card], EYES[a.card]))
            else:
                a = rng.choice(legal)
            st, _ = engine.apply(st, st.to_act, a)
        if "eyes" in st.result and wanted(st.result):
            return st
    raise AssertionError("no such deal found")


ROWS = [  # (what happened, predicate on (eyes, tricks) of C = team 1 and O = team 0, Striche, chalk after)
    ("O won every trick", lambda e, t: t[0] == 8, [3, 0], 0),
    ("O has >= 91 eyes", lambda e, t: e[0] >= 91 and t[0] < 8, [2, 0], 0),
    ("O has >= 79 eyes", lambda e, t: 79 <= e[0] < 91, [1, 0], 0),
    ("C won every trick", lambda e, t: t[1] == 8, [0, 3], 1),
    ("C has >= 91 eyes", lambda e, t: e[1] >= 91 and t[1] < 8, [0, 2], 1),
    ("C has >= 42 eyes", lambda e, t: 42 <= e[1] < 91, [0, 1], 1),
]


@pytest.mark.parametrize(("row", "wanted", "gains", "chalk"), ROWS, ids=[r[0] for r in ROWS])
def test_chalk_table_row_by_row(row, wanted, gains, chalk):
    """Rule: the Striche/chalk table after a normal deal ("The first matching row counts")."""
    strong = 0 if row.startswith("O") else 1
    st = _find_deal("bauernstoss", LATER, lambda r: wanted(r["eyes"], r["tricks"]), strong)
    assert st.result["striche"] == gains and st.result["chalk"] == chalk
    assert st.match["striche"] == [3 + gains[0], 4 + gains[1]] and st.match["chalk"] == chalk


def test_first_team_to_reach_the_target_wins_the_partie():
    """Rule: "The first team to reach `target` Striche wins the partie (default 20)." """
    st = run(deal(STD, match={"deal_no": 5, "striche": [19, 3], "chalk": 1}), STD_PLAY)
    assert st.match == {"striche": [19, 4], "chalk": 1, "deal_no": 6, "winner": None}
    st = run(deal(STD, match={"deal_no": 5, "striche": [19, 19], "chalk": 1}), STD_PLAY)
    assert st.match["winner"] == 1 and engine.match_over(st)
    with pytest.raises(Rejected):
        engine.next_deal(st, random.Random(0))
    st = run(deal(STD, match={"deal_no": 5, "striche": [8, 9], "chalk": 1}, options={"target": 10}), STD_PLAY)
    assert st.match["winner"] == 1


# ----------------------------------------------------------- Alter Schafkopf
def alter(hands: str = STD, **kw):
    return deal(hands, cls=AlterSchafkopf, **kw)


def test_alter_target_is_fifteen():
    """Rule (Alter Schafkopf): "`target` 15." """
    st = run(alter(match={"deal_no": 5, "striche": [3, 14], "chalk": 1}), STD_PLAY)
    assert st.match["striche"] == [3, 15] and st.match["winner"] == 1


def test_alter_four_jacks_announce_normally_with_the_duty_to_announce():
    """Rule (Alter Schafkopf): "Four jacks in one hand may announce normally (count = 4 + suit cards), with the
    same duty to announce as 1 to 3 jacks; so no deal is thrown in." """
    st = run(alter(FOUR_JACKS, dealer=1, match=LATER), "2 pass; 3 pass; 0 pass")
    assert "pass" not in legal_strs(st)
    assert {"announce C", "announce S", "announce H", "announce D", "solo grand"} == legal_strs(st)
    st = run(st, "1 announce D")
    assert st.trump == SUITS.index("D") and st.public_info()["calls"][1] == 5  # four jacks + QD


def test_alter_anyone_may_tie_strictly_by_lowest_trump_and_no_partner_choice():
    """Rule (Alter Schafkopf): "anyone may tie ("mit") whatever his lowest trump; ties go strictly to the higher
    lowest trump, then to the earlier speaker; no free choice between partners, no `let_partner_name`." """
    st = run(alter(MIT), "0 announce H")
    assert "announce D" in legal_strs(st)  # 7D as lowest trump
    st = run(st, "1 announce D; 2 announce H; 3 pass")
    assert st.phase == PLAY_PHASE and st.namer == 0  # 9H over 7D and 7H; partner seat 2 tied: no choice
    hands = "7H JH JD TC TS KH QS KD | 8S 9D 9S KS TH QD 8H AC | QC JS QH AD AH 8C 9H 7C | AS KC TD 8D 7S 9C JC 7D"
    st = run(alter(hands, dealer=0), "1 pass; 2 announce C; 3 pass; 0 announce H")
    assert st.namer == 2 and st.trump == SUITS.index("C")  # 7C and 7H equal: the earlier speaker
    assert refused(alter(hands, dealer=0), "1 let_partner_name").code == Code.WRONG_PHASE


def test_alter_lechdich_only_kind_of_solo_and_not_without_chalk():
    """Rule (Alter Schafkopf): "No small solo. The grand solo is called Lechdich (`solo(grand)`) ... Not in a
    deal while no team holds the chalk." """
    assert not any(a.kind == "solo" for a in alter(SOLO).legal())
    st = alter(SOLO, match=LATER)
    assert {a.size for a in st.legal() if a.kind == "solo"} == {"grand"}
    assert refused(st, "0 solo small").code == Code.ILLEGAL
    st = run(st, "0 solo grand")
    assert st.phase == "name" and not st.active[2]
    assert refused(st, "0 give 9H").code == Code.WRONG_PHASE


def test_alter_lechdich_wins_or_loses_the_partie():
    """Rule (Alter Schafkopf): "a won Lechdich wins the partie at once, a lost one loses it (the winning team is
    credited `target` Striche and the chalk)." """
    st = _win_all(run(alter(SOLO, match=LATER), "0 solo grand; 0 name_trump H"))
    assert st.result["striche"] == [15, 0] and st.match == {"striche": [18, 4], "chalk": 0, "deal_no": 6,
                                                             "winner": 0}
    st = run(alter(STD, match=LATER), "0 solo grand; 0 name_trump H; 0 play 7S; 1 play AS; 3 play 8S")
    assert st.result["striche"] == [0, 15] and st.match["winner"] == 1 and st.match["chalk"] == 1


def test_alter_trump_lead_must_be_beaten_but_a_void_need_not_overtrump_and_no_jack_rule():
    """Rule (Alter Schafkopf): "When trump is led you must beat the highest trump in the trick if you can,
    otherwise play any trump. Cannot follow a plain suit: you must play a trump ..., but need not beat a trump
    already in the trick. With neither, discard anything. No jack rule." """
    st = run(alter(PLAY, match=LATER), "0 announce C; 1 pass; 2 pass; 3 pass")
    led = run(st, "0 play KC")
    assert legal_cards(led) == {"JH"} and led.restriction() == "must_overtrump"
    low = run(st, "0 play JD")
    assert legal_cards(low) == {"JH"}
    top = run(st, "0 play AC; 1 play JH")
    assert legal_cards(top) == {"JC"}  # beats JH; 8C cannot
    void = run(st, "0 play AH; 1 play JH; 2 play 8H")
    assert legal_cards(void) == {"JS", "7C"} and void.restriction() == "must_trump"  # no jack rule


ALTER_ROWS = [  # (situation, match before, predicate on the result, expected Striche, chalk after)
    ("chalk game, team 0 takes >= 61", {}, lambda e, t: e[0] >= 61 and e[0] < 89, [1, 0], 0),
    ("chalk game, team 1 takes >= 89", {}, lambda e, t: e[1] >= 89 and t[1] < 8, [0, 2], 1),
    ("chalk game, team 0 takes every trick", {}, lambda e, t: t[0] == 8, [4, 0], 0),
    ("chalk team keeps with >= 42", LATER, lambda e, t: 42 <= e[1] < 89, [0, 1], 1),
    ("chalk team keeps with >= 89", LATER, lambda e, t: e[1] >= 89 and t[1] < 8, [0, 2], 1),
    ("chalk team below 42: the other takes it", LATER, lambda e, t: e[1] < 42 and e[0] < 89, [1, 0], 0),
    ("chalk team below 42, the other >= 89", LATER, lambda e, t: e[0] >= 89 and t[0] < 8, [2, 0], 0),
    ("chalk team without a trick", LATER, lambda e, t: t[0] == 8, [4, 0], 0),
]


@pytest.mark.parametrize(("row", "match", "wanted", "gains", "chalk"), ALTER_ROWS, ids=[r[0] for r in ALTER_ROWS])
def test_alter_chalk_and_striche_tables_row_by_row(row, match, wanted, gains, chalk):
    """Rule (Alter Schafkopf): the chalk table and "every trick 4, >= 89 eyes 2, less 1"; "Only the team that
    holds the chalk after the deal scores"."""
    strong = 0 if gains[0] else 1
    st = _find_deal("alter_schafkopf", match, lambda r: wanted(r["eyes"], r["tricks"]), strong)
    assert st.result["striche"] == gains and st.result["chalk"] == chalk


def test_alter_sixty_all_gives_the_chalk_to_the_opponents_of_the_namer():
    """Rule (Alter Schafkopf): "at 60 : 60 the opponents of the team that named trump take the chalk and
    1 Strich"."""
    hands = "8H KH JS JH KS 9S 7C JD | QH TD 9C TS AS KD JC 9H | 8C QD QC 7H AH 8S KC 7D | QS 9D TH 7S TC 8D AC AD"
    st = run(alter(hands, dealer=2), "3 pass; 0 announce S; 1 pass; 2 pass; 3 play TH; 0 play KH; 1 play 9H; "
             "2 play 7H; 3 play AD; 0 play KS; 1 play TD; 2 play QD; 0 play 9S; 1 play TS; 2 play 8S; 3 play QS; "
             "1 play QH; 2 play AH; 3 play 7S; 0 play 8H; 3 play 8D; 0 play JD; 1 play KD; 2 play 7D; 0 play JS; "
             "1 play JC; 2 play KC; 3 play 9D; 1 play 9C; 2 play 8C; 3 play AC; 0 play 7C; 3 play TC; 0 play JH; "
             "1 play AS; 2 play QC")
    assert st.result == {"eyes": [60, 60], "tricks": [3, 5], "striche": [0, 1], "chalk": 1}
    assert st.match == {"striche": [0, 1], "chalk": 1, "deal_no": 2, "winner": None}


# ----------------------------------------------------------- match state, API contracts
def test_read_match_fills_defaults_and_refuses_bad_values():
    """Replay format: `match` holds `striche`, `chalk`, `deal_no`, `winner`; a bad key or value is a ValueError."""
    opts = Bauernstoss.OPTIONS()
    assert Bauernstoss.read_match(opts, 4, {}) == {"striche": [0, 0], "chalk": None, "deal_no": 1, "winner": None}
    for bad in ({"score": [0, 0]}, {"striche": [1]}, {"striche": [1, -1]}, {"chalk": 2, "deal_no": 3},
                {"deal_no": 0}, {"deal_no": 3}, {"chalk": 0}, {"winner": 1, "deal_no": 4, "chalk": 1},
                {"striche": [20, 0], "deal_no": 4, "chalk": 0}, {"striche": [True, 0]}):
        with pytest.raises(ValueError):
            Bauernstoss.read_match(opts, 4, bad)


def test_apply_never_mutates_json_round_trips_and_views_hide_other_hands():
    """Engine contract: apply never mutates its input; to_json/from_json round-trips mid-deal; view(seat)
    shows only that seat's hand; view(None) shows no hand card."""
    st = run(deal(SOLO, match=LATER), "0 solo small; 0 give 9H")
    before = engine.to_json(st)
    engine.apply(st, 2, Action("give", parse_card("AD")))
    assert engine.to_json(st) == before
    again = engine.from_json(json.loads(json.dumps(before)))
    assert engine.to_json(again) == before and again.legal() == st.legal()
    mid = run(_play_deal(), "0 play AH; 1 play JH")
    data = engine.to_json(mid)
    assert engine.to_json(engine.from_json(json.loads(json.dumps(data)))) == data
    for seat in range(4):
        view = engine.view(mid, seat)
        assert set(view["hand"]) == set(card_strs(mid.hands[seat]))
        others = {c for s in range(4) if s != seat for c in card_strs(mid.hands[s])}
        assert not others & set(json.dumps(view).replace('"', " ").split())
    public = json.dumps(engine.view(mid, None))
    assert not {c for s in range(4) for c in card_strs(mid.hands[s])} & set(public.replace('"', " ").split())


# ----------------------------------------------------------- computer player
@pytest.mark.parametrize("game", ["bauernstoss", "alter_schafkopf"])
def test_player_always_acts_legally_and_quickly(game):
    """The computer player returns a legal action in every position of 200 random deals (its speed: bench/ai.py)."""
    rng = random.Random(f"legal-{game}")
    st = engine.new_match(game, rng)
    for _ in range(200):
        while not engine.is_over(st):
            seat = st.to_act
            assert bot.offer(st, (seat + 1) % 4) is None
            if rng.random() < 0.5:
                act = bot.choose(st, seat)
                assert act in engine.legal_actions(st)
            else:
                act = rng.choice(engine.legal_actions(st))
            st, _ = engine.apply(st, seat, act)
        st = engine.new_match(game, rng) if engine.match_over(st) else engine.next_deal(st, rng)


@pytest.mark.parametrize("game", ["bauernstoss", "alter_schafkopf"])
def test_player_beats_random_play(game):
    """Over 300 deals the computer team (seats 0 and 2) wins far more Striche than random players who never
    call a (suicidal) random solo."""
    rng = random.Random(f"strength-{game}")
    st = engine.new_match(game, rng)
    gained = [0, 0]
    for _ in range(300):
        while not engine.is_over(st):
            seat = st.to_act
            if seat % 2 == 0:
                act = bot.choose(st, seat)
            else:
                act = rng.choice([a for a in engine.legal_actions(st) if a.kind != "solo"])
            st, _ = engine.apply(st, seat, act)
        gained = [g + x for g, x in zip(gained, st.result.get("striche", [0, 0]))]
        st = engine.new_match(game, rng) if engine.match_over(st) else engine.next_deal(st, rng)
    assert gained[0] > 2 * gained[1], gained


def test_player_heuristics():
    """The player calls a grand solo with a sure hand and gives back a jack; with the partner's trick safe it
    adds eyes, a lost trick gets its cheapest card, and it never spends a trump on a partner's trick."""
    assert bot.choose(deal(SOLO, match=LATER), 0) == Action("solo", size="grand")
    assert bot.losers(mask_of(parse_hands(SOLO)[0]), SUITS.index("H")) == 0
    st = run(deal(SOLO, match=LATER), "0 solo small; 0 give 9H")
    assert bot.choose(st, 2) == Action("give", parse_card("JD"))
    st = run(_play_deal(), "0 play KH; 1 play 9C; 2 play 8H")
    assert bot.choose(st, 3) == Action("play", parse_card("7C"))  # partner wins: the low trump, not JS
    rng = random.Random("heuristics")
    st = engine.new_match("bauernstoss", rng)
    checked = 0
    for _ in range(300):
        while not engine.is_over(st):
            seat = st.to_act
            act = bot.choose(st, seat)
            if st.phase == PLAY_PHASE and st.trick and st.soloist < 0:
                cards = [a.card for a in engine.legal_actions(st)]
                order, last = st.order, len(st.trick) == 3
                winner = st.trick_seats()[order.winner_index(st.trick)]
                plain = [c for c in cards if order.eff[c] != TRUMP]
                if last and winner % 2 == seat % 2 and plain:
                    assert EYES[act.card] == max(EYES[c] for c in plain)
                    checked += 1
                beats = [c for c in cards if order.winner_index(st.trick + [c]) == len(st.trick)]
                if winner % 2 != seat % 2 and not beats:
                    assert (order.eff[act.card] == TRUMP, EYES[act.card]) == min((order.eff[c] == TRUMP, EYES[c])
                                                                            for c in cards)
            st, _ = engine.apply(st, seat, act)
        st = engine.new_match("bauernstoss", rng) if engine.match_over(st) else engine.next_deal(st, rng)
    assert checked > 50
