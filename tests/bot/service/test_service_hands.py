"""A hand message changes only with its owner's hand: what that means for presses and re-sends.

In the play phase every card of a hand is a button all the time, and another player's card never
re-sends a hand; a press out of turn or of a card not allowed now is refused with the reason and
sends nothing; a press from a hand that is still the one the player holds counts, however old
the message, and a second tap on the hand his card left does not.
"""

from __future__ import annotations

import pytest

import engine
from bot.protocol import actarg, tokens
from bot.protocol.outgoing import HandMessage, TableMessage, Toast
from bot.table.record import Table
from bot.words.hand import seat_choices
from tests.bot.service.test_service import GAMES, GROUP, open_group_table
from tests.servicekit import act_buttons, let_windows_pass, of, playable, press, service


async def stored(store, table_id: str) -> tuple[int, Table, engine.State | None]:
    version, data = await store.load(table_id)
    table = Table.load(data)
    return version, table, engine.from_json(table.state) if table.state else None


def arg(button) -> str:
    return tokens.parse(button.token).arg


@pytest.mark.parametrize("game", GAMES)
async def test_a_card_re_sends_the_hand_of_its_player_only(store, game):
    svc = service(store, seed=4)
    players, table_id = await open_group_table(svc, game, humans=4)
    cards = 0
    for _ in range(400):
        _, before, state = await stored(store, table_id)
        if before.status != "playing":
            break
        mover = await players.to_act()
        if mover is None:
            await players.step()
            continue
        held = {key for key, h in players.hands.items() if h.partial}
        effects = await players.send(press(GROUP, *mover[:1], mover[1].token))
        _, after, later = await stored(store, table_id)
        if state.phase == later.phase == "play" and after.deals == before.deals and arg(mover[1]).startswith("pl."):
            choices_changed = [after.seats[s].user for s in range(4)
                               if seat_choices(state, s) != seat_choices(later, s)]  # Ledig gone with the first card
            turn = [after.seats[later.to_act].user] if later.to_act is not None else []
            again = [key for key in turn if key in held]  # his hand went out held back, and now it is his turn
            assert sorted(h.user.key for h in of(effects, HandMessage)) == \
                sorted({mover[0].key, *choices_changed, *again}), \
                "the next player's hand stays, unless the card changed what he may do or it was held back"
            cards += not choices_changed
    assert cards > 20


async def four_in_the_play_phase(store, seed: int = 6):
    """Four people at Bauerchen, played on until the cards are out: players, table id."""
    svc = service(store, seed=seed)
    players, table_id = await open_group_table(svc, "bauerchen", humans=4)
    while (await stored(store, table_id))[2].phase != "play":
        await players.step()
    players.take(await let_windows_pass(svc, store, table_id, GROUP))  # nobody goes alone
    return svc, players, table_id


async def play_a_card(store, players, table_id: str) -> list:
    """The player to act plays a card he may play (no doubling, nobody goes alone)."""
    key, allowed = playable((await stored(store, table_id))[1])
    card = next(b for b in act_buttons(players.hands[key]) if arg(b) in allowed and arg(b).startswith("pl."))
    return await players.send(press(GROUP, players.users[key], card.token))


async def test_presses_out_of_turn_or_of_a_card_not_allowed_are_refused_and_send_nothing(store):
    svc, players, table_id = await four_in_the_play_phase(store)
    for _ in range(100):  # until the player to act must follow suit
        version, table, state = await stored(store, table_id)
        key, allowed = playable(table)
        barred = [b for b in act_buttons(players.hands[key]) if arg(b) not in allowed]
        if barred:
            break
        await play_a_card(store, players, table_id)
    assert barred
    mover = players.users[key]
    other = next(u for u in players.users.values() if u.key != key)
    before = await store.load(table_id)
    effects = await svc.handle(press(GROUP, other, act_buttons(players.hands[other.key])[0].token))
    assert [type(e) for e in effects] == [Toast] and effects[0].text == f"Du bist nicht dran, {mover.name} ist am Zug."
    for b in barred:
        effects = await svc.handle(press(GROUP, mover, b.token))
        assert [type(e) for e in effects] == [Toast]
        assert effects[0].text in ("Farbe bekennen: du musst bedienen.", "Du musst stechen.", "Du musst überstechen.",
                                   "Melden geht nur, wenn du ausspielst.")
    assert await store.load(table_id) == before


async def test_an_old_message_of_the_hand_he_holds_plays_and_a_second_tap_does_not(store):
    svc, players, table_id = await four_in_the_play_phase(store, seed=8)
    await play_a_card(store, players, table_id)  # the first card ends Ledig, which every hand offered
    version, table, state = await stored(store, table_id)
    waiting = next(k for k in players.users if k != playable(table)[0] and state.visible_hand(table.seat_of(k)))
    hand = players.hands[waiting]
    while playable((await stored(store, table_id))[1])[0] != waiting:  # the others play; his hand stays as sent
        await play_a_card(store, players, table_id)
        assert players.hands[waiting] is hand, "another player's card re-sent his hand"
    version, table, _ = await stored(store, table_id)
    allowed = playable(table)[1]
    card = next(b for b in act_buttons(hand) if arg(b) in allowed and arg(b).startswith("pl."))
    assert tokens.parse(card.token).version < version, "the message is older than the table"
    first = await svc.handle(press(GROUP, players.users[waiting], card.token))
    assert not of(first, Toast) and (await store.load(table_id))[0] == version + 1
    (after,) = [h for h in of(first, HandMessage) if h.user.key == waiting]
    assert actarg.decode(arg(card)).card not in [actarg.decode(arg(b)).card for b in act_buttons(after)]
    for other in act_buttons(hand):  # the second tap, on the message his card left
        again = await svc.handle(press(GROUP, players.users[waiting], other.token))
        assert of(again, Toast)[0].text == "Schon gespielt." and not of(again, TableMessage)
        assert of(again, HandMessage) == [after], "only his hand as it is now, which he has already"
    assert (await store.load(table_id))[0] == version + 1


async def test_spritzen_and_retour_come_with_the_hands_of_the_team_whose_call_it_is(store):
    svc, players, table_id = await four_in_the_play_phase(store)

    def labelled(label: str) -> list:
        return [(key, b) for key, hand in players.hands.items() for b in act_buttons(hand) if b.label == label]
    spritzers = labelled("Spritzen")
    _, table, state = await stored(store, table_id)
    away = [s for s in range(4) if s % 2 != state.home]
    assert sorted(table.seat_of(key) for key, _ in spritzers) == away, "the away team may spritz, each from his hand"
    assert not labelled("Retour ×4") and [b.label for row in players.table.buttons for b in row] == ["Meine Karten"], \
        "and nobody else, nor the table for everyone"
    key, button = spritzers[0]
    effects = await players.send(press(GROUP, players.users[key], button.token))
    assert not of(effects, Toast) and len(of(effects, HandMessage)) == 4, "every hand's choices changed"
    assert not labelled("Spritzen")
    (retour, *_), home = labelled("Retour ×4"), [s for s in range(4) if s % 2 == state.home]
    assert sorted(table.seat_of(k) for k, _ in labelled("Retour ×4")) == home, "the home team may say Retour"
    effects = await players.send(press(GROUP, players.users[retour[0]], retour[1].token))
    assert not of(effects, Toast) and "gespritzt ×4" in players.table.text
    assert sorted(table.seat_of(k) for k, _ in labelled("Retour ×8")) == away, "and the away team again"


async def test_a_card_of_the_hand_as_it_was_before_it_gained_a_choice_still_plays(store):
    """Spritzen gives the other team Retour: their hands are sent again with it, but a card of the message he may
    still be looking at does what it did (it is not refused as one from a hand he no longer holds)."""
    svc, players, table_id = await four_in_the_play_phase(store)
    before = dict(players.hands)
    key, button = next((k, b) for k, hand in players.hands.items() for b in act_buttons(hand) if b.label == "Spritzen")
    await players.send(press(GROUP, players.users[key], button.token))
    _, table, state = await stored(store, table_id)
    while table.seat_of(playable(table)[0]) % 2 != state.home:  # the spritzers' team plays until the other's turn
        await play_a_card(store, players, table_id)
        version, table, state = await stored(store, table_id)
    mover, allowed = playable(table)
    assert any(b.label == "Retour ×4" for b in act_buttons(players.hands[mover])), "his hand gained Retour"
    card = next(b for b in act_buttons(before[mover]) if arg(b) in allowed and arg(b).startswith("pl."))
    version = (await store.load(table_id))[0]
    effects = await svc.handle(press(GROUP, players.users[mover], card.token))
    assert not of(effects, Toast) and (await store.load(table_id))[0] == version + 1, "his card counts"


@pytest.mark.parametrize("game", GAMES)
async def test_a_hand_held_back_goes_out_again_at_its_owners_turn(store, game):
    """A hand its owner cannot act on yet (a new deal's, before the play: not his turn, no choice) goes out marked
    ``partial``, so an adapter may hold it back; the last hand each person got is never such a one at his turn."""
    svc = service(store, seed=5)
    players, table_id = await open_group_table(svc, game, humans=4)
    held = turns = 0
    for _ in range(160):
        _, table, state = await stored(store, table_id)
        if table.status != "playing":
            break
        if state.to_act is not None and table.seats[state.to_act].human:
            last = players.hands.get(table.seats[state.to_act].user)
            assert last is not None and not last.partial, "his turn, and his hand still the one held back"
            turns += 1
        effects = await players.step()
        held += sum(1 for h in of(effects, HandMessage) if h.partial)
        assert not any(h.partial and h.to_act for h in of(effects, HandMessage))
    assert turns > 20 and (held > 0 or game != "rams")


async def test_a_rams_hand_that_passed_only_fades_when_the_play_starts_without_it(store):
    """A Rams seat that passed sits the deal out with the cards it had: when the play starts without it, its hand
    only went out of play, so it goes out ``fading`` (an adapter may keep the message until the next deal's
    cards), and a tap on a card of the message it has is refused with the reason, as before."""
    svc = service(store, seed=3)
    players, table_id = await open_group_table(svc, "rams", humans=4)
    passer, since = None, []
    for _ in range(400):
        _, table, state = await stored(store, table_id)
        if passer is not None and state.phase == "play":
            break
        human = state.to_act is not None and table.seats[state.to_act].human
        key = table.seats[state.to_act].user if human else None
        passen = [b for b in act_buttons(players.hands[key]) if b.label == "Passen"] if key in players.hands else []
        if passer is None and passen:
            passer = key
            since += await players.send(press(GROUP, players.users[key], passen[0].token))
        elif passer is not None:
            since += await players.step()
        else:
            await players.step()
    assert passer is not None and state.phase == "play" and not state.active[table.seat_of(passer)]
    shown = [h for h in of(since, HandMessage) if h.user.key == passer]
    assert shown and all(h.fading for h in shown), "his hand only lost its choices and went out of play"
    assert shown[-1].partial, "out of play: nothing on it can be acted on until the next deal's cards"
    before = await store.load(table_id)
    card = next(b for b in act_buttons(players.hands[passer]) if arg(b).startswith("pl."))
    effects = await svc.handle(press(GROUP, players.users[passer], card.token))
    assert [type(e) for e in effects] == [Toast] and await store.load(table_id) == before


async def test_the_table_says_while_a_trick_is_under_way(store):
    """``TableMessage.in_trick`` from a trick's first card until its last (an adapter under load may hold the table
    that long)."""
    svc, players, table_id = await four_in_the_play_phase(store)
    assert not players.table.in_trick, "no card of the first trick down yet"
    for n in (1, 2, 3):
        assert of(await play_a_card(store, players, table_id), TableMessage)[0].in_trick, f"{n} of 4 cards down"
    assert not of(await play_a_card(store, players, table_id), TableMessage)[0].in_trick, "the trick is complete"
