"""Rendering tables and hands to text and buttons (no Redis: tables built in memory)."""

from __future__ import annotations

import random
import string

import pytest

import engine
from bot.protocol import actarg, tokens
from bot.protocol.outgoing import ChatRef
from bot.table.record import Seat, Table
from bot.tools.simulate import random_deal
from bot.words.buttons import announce_count
from bot.words.hand import hand_message, hand_signature, seat_choices
from bot.words.render import ago, deal_line, summary, table_message
from engine.actions import Action

GROUP = ChatRef("test", "g1", title="Stammtisch Lautern")
GAMES = ["bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams"]


def make_table(game: str, n: int = 4, status: str = "lobby", lang: str = "de") -> Table:
    names = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Gerd"]
    seats = [Seat(user=f"test:u{i}", name=names[i]) for i in range(n)]
    return Table(id="T1", chat=GROUP, game=game, n=n, lang=lang, status=status, opener="test:u0", seats=seats)


def all_buttons(message) -> list:
    return [b for row in message.buttons for b in row]


def test_lobby_like_the_sketch():
    table = make_table("bauerchen")
    table.seats[1] = Seat()
    table.seats[3] = Seat(bot=True)
    msg = table_message(table, None, 3, 0)
    assert msg.text.splitlines()[:3] == ["🃏 Bauerchen – Tisch von Anna", "Regeln: Standard",
                                         "1 Anna · 2 – · 3 Cleo · 4 Computer 4"]
    assert "Partner sitzen sich gegenüber: Anna+Cleo gegen –+Computer 4" in msg.text
    assert [b.label for b in all_buttons(msg)] == ["Mitspielen", "Aufstehen", "+ Computer", "− Computer",
                                                   "+ Computer leicht", "+ Computer stark",
                                                   "Regeln", "Optionen", "Los geht's"]
    for b in all_buttons(msg):
        tok = tokens.parse(b.token)
        assert tok.table == "T1" and tok.version == 3 and len(b.token.encode()) <= 64


def test_lobby_option_buttons():
    table = make_table("bauerchen")
    table.show_opts = True
    labels = [b.label for b in all_buttons(table_message(table, None, 1, 0))]
    assert "Die Letzte: an" in labels and "Trumpf nach Karten: 2" in labels and labels[-1] == "Fertig"


def pressed(message) -> set:
    return {actarg.decode(tokens.parse(b.token).arg) for b in all_buttons(message) if ":act:" in b.token}


@pytest.mark.parametrize("game", GAMES)
def test_play_messages_every_game(game):
    rng = random.Random(1)
    table = make_table(game, status="playing")
    state = engine.new_match(game, rng, 4)
    table.state = engine.to_json(state)
    for _ in range(60):
        if engine.is_over(state):
            break
        msg = table_message(table, state, 9, 0)
        assert "ist dran" in msg.text and msg.buttons[0][0].label == "Meine Karten"
        seat = state.to_act
        legal = engine.legal_actions(state)
        for s in range(4):
            hand = hand_message(table, state, s, 9)
            assert hand.user.user_id == f"u{s}" and ("Deine Karten" in hand.text or "Keine Karten" in hand.text)
            assert "Im Stich" not in hand.text, "the table shows the trick"
            first_cards = state.visible_hand(s) != state.hands[s]
            idle = state.phase != "play" and not seat_choices(state, s)
            assert hand.partial == ((first_cards or idle) and s != seat), \
                "only his first cards, or nothing to decide before the play: it may wait for the rest or his turn"
            assert ("ist dran" in hand.text) == (s == seat and state.phase != "play"), "and whose turn it is to decide"
            cards = {c for c in range(36) if state.visible_hand(s) >> c & 1}
            acts = pressed(hand)
            assert {a.card for a in acts if a.card >= 0 and not a.meld} == cards, "every card, all the time"
            assert {a for a in acts if a.kind != "play"} == set(seat_choices(state, s)), "and exactly his choices"
            assert s != seat or set(legal) <= acts, "whatever he may do now is a button of his hand"
        state, _ = engine.apply(state, seat, rng.choice(legal))


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_renders_the_same_while_its_signature_does(game):
    """Another player's card does not change a hand in the play phase unless it changes his choices, and whatever
    changes it is in its signature."""
    rng = random.Random(3)
    table = make_table(game, status="playing")
    state = engine.new_match(game, rng, 4)
    others_kept = 0
    for _ in range(400):
        if engine.is_over(state):
            if engine.match_over(state):
                break
            state = engine.next_deal(state, rng)
        seat = state.to_act
        before = [(hand_signature(state, s, "playing"), hand_message(table, state, s, 9)) for s in range(4)]
        after_state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state)))
        for s in range(4):
            if hand_signature(after_state, s, "playing") == before[s][0]:
                now = hand_message(table, after_state, s, 9)
                if after_state.trump == state.trump:  # whose turn it is only says how soon to show it
                    assert (now.text, now.buttons) == (before[s][1].text, before[s][1].buttons)
                else:  # naming trump re-sorts a hand and names it in the title; the hand shown stays valid
                    assert pressed(now) == pressed(before[s][1])
                others_kept += state.phase == after_state.phase == "play" and s != seat
            elif state.phase == after_state.phase == "play" and s != seat:
                assert not after_state.active[s] or after_state.active != state.active or \
                    seat_choices(after_state, s) != seat_choices(state, s), "only his own cards and choices change it"
        state = after_state
    assert others_kept > 50


def test_rams_hand_stays_when_another_sits_out():
    """In Rams another's Passen changes no hand but his: it names no partners, so it is not edited for it."""
    rng = random.Random(3)
    kept = 0
    for _ in range(40):
        state = engine.new_match("rams", rng, 4)
        while not engine.is_over(state) and state.phase != "play":
            after, _ = engine.apply(state, state.to_act, rng.choice(engine.legal_actions(state)))
            for s in range(4):
                same = (after.visible_hand(s), after.active[s], seat_choices(after, s)) == \
                    (state.visible_hand(s), state.active[s], seat_choices(state, s))
                if same and after.active != state.active:
                    assert hand_signature(after, s, "playing") == hand_signature(state, s, "playing")
                    kept += 1
            state = after
    assert kept > 20


@pytest.mark.parametrize("game", GAMES)
def test_action_args_round_trip(game):
    rng = random.Random(2)
    state = engine.new_match(game, rng, 4)
    seen = 0
    for _ in range(300):
        if engine.is_over(state):
            state = engine.next_deal(state, rng) if not engine.match_over(state) else engine.new_match(game, rng, 4)
        acts = engine.legal_actions(state) + [a for v in engine.offers(state).values() for a in v]
        for a in acts:
            arg = actarg.encode(a)
            assert actarg.decode(arg) == a and len(arg) <= 16
            seen += 1
        state, _ = engine.apply(state, state.to_act, rng.choice(engine.legal_actions(state)))
    assert seen > 300


def test_action_args_refuse_junk():
    rng = random.Random(3)
    for junk in ["", "pl", "pl.XX", "pl.JC.x", "nt.X", "so.m", "sp.JC", "zz", "pl.JC.m.m", "an.HH", "pa.H"]:
        assert actarg.decode(junk) is None, junk
    for _ in range(2000):
        text = "".join(rng.choice(string.ascii_letters + string.digits + "._-") for _ in range(rng.randrange(1, 8)))
        action = actarg.decode(text)
        assert action is None or actarg.encode(action) == text


@pytest.mark.parametrize("game", GAMES)
def test_final_summary_every_game(game):
    rng = random.Random(4)
    table = make_table(game, status="finished")
    state = engine.new_match(game, rng, 4)
    results = []
    while True:
        random_deal(state, rng)
        results.append(state.result)
        if engine.match_over(state):
            break
        state = engine.next_deal(state, rng)
    for result in results:
        line = deal_line(table, {"result": result})
        assert line and "{" not in line
    table.state = engine.to_json(state)
    msg = table_message(table, state, 50, 0)
    assert msg.text.startswith("🏆") and [b.label for b in all_buttons(msg)] == [
        "Revanche", "Neuer Tisch", "🏆 Rangliste", "🌙 Der Abend", "📊 Meine Statistik"]
    lines = summary(table, engine.view(state, None)["match"])
    if game == "rams":
        assert lines[1].startswith("Rangliste: 1. ") and lines[2] == "Abrechnung, alles in die Kasse:"
    else:
        assert " gewinnen " in lines[0]


def test_rounds_of_a_stein_and_best_trick():
    table = make_table("bauerchen", status="finished")
    table.marks = [[12, 7, 0], [9, 12, 1], [12, 10, 0]]
    table.best = [2, 41]
    table.deals = 9
    lines = summary(table, {"score": [0, 0], "knoddel": [0, 0], "steine": [1, 0], "winner": 0})
    assert lines == ["🏆 Anna+Cleo gewinnen den Stein · Steine: Anna+Cleo 1 : 0 Ben+Dora", "Runden: 12:7 · 9:12 · 12:10 (Gehampelter)",
                     "Bester Stich: Cleo, 41 Augen", "9 Spiele"]


def test_english_and_waiting_time():
    table = make_table("bauer", status="playing", lang="en")
    state = engine.new_match("bauer", random.Random(5), 4)
    msg = table_message(table, state, 1, 7300)
    assert "➡️ Ben's turn (waiting 2 h)" in msg.text and msg.buttons[0][0].label == "My hand"
    assert ago(30, "de") == "1 Min." and ago(3 * 3600, "de") == "3 Std." and ago(3 * 86400, "en") == "3 d"


def test_private_hand_title_and_partner_line():
    table = make_table("bauer", status="playing")
    table.chat = ChatRef("test", "u0", title="Anna", private=True)
    state = engine.new_match("bauer", random.Random(6), 4)
    hand = hand_message(table, state, 0, 1).text.splitlines()
    assert hand[0] == "Bauer" and hand[1] == "Du spielst mit Cleo gegen Ben und Dora."
    group = make_table("bauer", status="playing")
    assert hand_message(group, state, 0, 1).text.startswith("Bauer bei »Stammtisch Lautern«")


def test_action_labels_in_the_games_words():
    table = make_table("bauerchen", status="playing")
    state = engine.new_match("bauerchen", random.Random(7), 4)
    hand = hand_message(table, state, state.to_act, 1)
    labels = [b.label for b in all_buttons(hand)]
    assert "♥ Herz" in labels
    bauer = make_table("bauer", status="playing")
    state = engine.new_match("bauer", random.Random(7), 4)
    state, _ = engine.apply(state, state.to_act, Action("name_trump", suit=0))
    assert [b.label for b in all_buttons(table_message(bauer, state, 2, 0))] == ["Meine Karten"], \
        "each seat's offers come with his hand"
    caller = state.caller
    assert [b.label for b in all_buttons(hand_message(bauer, state, caller ^ 1, 2))][-2:] == ["Stoßen", "Karten weg"]
    assert [b.label for b in all_buttons(hand_message(bauer, state, caller ^ 2, 2))][-1:] == ["Karten weg"], \
        "the caller's team may not give the first Stoß"
    assert "Trumpf ♣ (von " in table_message(bauer, state, 2, 0).text


def test_a_turned_balli_shows_kehrer_and_balli_apart():
    table = make_table("rams", status="playing")
    state = engine.new_match("rams", random.Random(1), 4)  # the Bälli (7♦) is turned first, then K♣
    assert engine.view(state, None)["public"]["turned"] == ["7D", "KC"]
    assert "Kehrer K♣, Bälli 7♦" in table_message(table, state, 1, 0).text


def test_bauer_counts_the_tricks_during_a_deal():
    table = make_table("bauer", status="playing")
    rng = random.Random(8)
    state = engine.new_match("bauer", rng, 4)
    while len(engine.view(state, None)["tricks"]) < 3:  # cards only: no Karten weg to end the deal early
        plain = [a for a in engine.legal_actions(state) if a.kind in ("play", "name_trump")]
        state, _ = engine.apply(state, state.to_act, rng.choice(plain))
    won = engine.view(state, None)["won"]
    assert f"Stiche {won[0] + won[2]} : {won[1] + won[3]}" in table_message(table, state, 1, 0).text
    assert sum(won) == 3


def test_a_bid_that_ties_the_best_says_mit():
    table = make_table("bauernstoss", status="playing")
    rng, seen = random.Random(5), 0
    state = engine.new_match("bauernstoss", rng, 4)
    for _ in range(400):
        if state.phase != "announce":
            state = engine.new_match("bauernstoss", rng, 4)
            continue
        view = engine.view(state, state.to_act)
        best = view["public"]["best"]
        labels = {b.label for b in all_buttons(hand_message(table, state, state.to_act, 1))}
        for a in engine.legal_actions(state):
            if a.kind == "announce":
                count = announce_count(view, a.suit)
                suit = "♣♠♥♦"[a.suit]
                assert (f"mit {count} ({suit})" if count == best else f"{count} melden ({suit})") in labels
                seen += count == best
        state, _ = engine.apply(state, state.to_act, rng.choice(engine.legal_actions(state)))
    assert seen > 3


def test_a_half_dealt_hand_says_who_names_trump_and_that_its_cards_come_then():
    table = make_table("bauerchen", status="playing")
    state = engine.new_match("bauerchen", random.Random(3), 4)
    waiting = (state.to_act + 1) % 4
    text = hand_message(table, state, waiting, 1).text
    assert f"{table.seats[state.to_act].name} tauft gerade. Deine übrigen Karten bekommst du danach." in text
    assert "Spiel eine Karte" not in text


def test_bauernstoss_bidding_says_why_mit_is_not_among_the_choices():
    table = make_table("bauernstoss", status="playing")
    rng = random.Random(2)
    for _ in range(2000):
        state = engine.new_match("bauernstoss", rng, 4)
        while state.phase == "announce":
            view = engine.view(state, state.to_act)
            legal = engine.legal_actions(state)
            bids = [Action.from_dict(a) for a in view["bids"]]
            if any(a not in legal and state.decision_hint(a) == "no_mit" for a in bids):
                text = hand_message(table, state, state.to_act, 1).text
                assert "Mit geht nur mit der Acht oder höher als kleinstem Trumpf." in text, text
                return
            state, _ = engine.apply(state, state.to_act, rng.choice(legal))
    pytest.fail("no hand with a mit ruled out")


def test_gib_mir_eine_lists_the_kreuz_bube_last_among_the_cards_to_give():
    table = make_table("bauernstoss", status="playing")
    rng = random.Random(4)
    for _ in range(200):
        data = engine.to_json(engine.new_match("bauernstoss", rng, 4))
        data["match"].update(deal_no=2, chalk=0)  # no solo in a partie's first deal
        state = engine.from_json(data)
        small = Action("solo", size="small")
        if small in engine.legal_actions(state):
            soloist = state.to_act
            state, _ = engine.apply(state, soloist, small)
            labels = [b.label for b in all_buttons(hand_message(table, state, soloist, 1))]
            cards = labels[:8]
            assert cards[-1] == "B♣ geben" and "B♣ geben" not in cards[:-1], labels
            return
    pytest.fail("no small solo")
