"""Privacy: over many deals of every game, no public message shows a card still hidden in a hand,
and no hand message shows a card its owner may not see.

Hidden: the cards in hands, set aside (blind, discards) and not yet dealt to their holder, less
the cards every player has seen (the engine's public view: turned cards, a meld's partner ...).
"""

from __future__ import annotations

import pytest

from bot.protocol.outgoing import HandMessage, Notice, TableMessage, Toast
from bot.table.record import Table
from tests.servicekit import (
    GROUP,
    Players,
    button,
    labels,
    leaks,
    of,
    press,
    public_text,
    say,
    secrets_of,
    service,
    shown,
    table_msg,
    user,
)

CASES = [("bauernstoss", 4, ""), ("alter_schafkopf", 4, ""), ("bauerchen", 4, ""),
         ("bauerchen", 4, "trump_after_cards=5"), ("bauer", 4, ""), ("bauer", 4, "short_deck=1"),
         ("rams", 4, ""), ("rams", 6, "sixes=1"), ("rams", 7, "")]
DEALS = 12




@pytest.mark.parametrize(("game", "n", "options"), CASES, ids=[f"{g}-{n}-{o or 'std'}" for g, n, o in CASES])
async def test_no_public_message_shows_a_hidden_card(store, game, n, options):
    svc = service(store, seed=n * 31 + len(options))
    users = [user(i) for i in range(n)]
    players = Players(svc, GROUP, users, seed=5)
    table = table_msg(await players.send(say(GROUP, users[0], f"neu {game} {n} {options}".strip())))
    for u in users[1:]:
        table = table_msg(await players.send(press(GROUP, u, button(table, "join").token)))
    effects = await players.send(press(GROUP, users[0], button(table, "start").token))
    checked = 0
    while True:
        data = Table.load((await store.load(table.table_id))[1])
        state, known, hidden, secret = secrets_of(data)
        for e in effects:
            if isinstance(e, (TableMessage, Notice)):
                text = public_text(e, data)  # the last deal's last trick was played in the open
                assert not leaks(text, secret), (text, leaks(text, secret))
                checked += 1
            elif isinstance(e, HandMessage) and data.status == "playing":
                seat = data.seat_of(e.user.key)
                unseen = sum(hidden[s] for s in range(state.n) if s != seat) | (state.hands[seat] & ~state.visible_hand(seat))
                assert not leaks(shown(e), labels(unseen & ~known)), shown(e)
        if data.status != "playing" or data.deals >= DEALS:
            break
        effects = await players.step()
    assert checked > 20


async def test_a_refusal_to_a_player_who_holds_cards_is_his_alone(store):
    """Issue 30, item 1: whatever refused it, a refusal to a seat that holds cards is a secret toast (its words
    may tell his cards); a refusal in the lobby, or to someone without a seat, may be read by the group."""
    svc = service(store, seed=3)
    users = [user(i) for i in range(3)]
    table = table_msg(await svc.handle(say(GROUP, users[0], "neu rams 3")))
    (lobby,) = of(await svc.handle(say(GROUP, users[0], "spiel B♣")), Toast)
    assert not lobby.secret
    for u in users[1:]:
        table = table_msg(await svc.handle(press(GROUP, u, button(table, "join").token)))
    await svc.handle(press(GROUP, users[0], button(table, "start").token))
    for u in users:
        for text in ("rauben", "gib 8S", "spritzen", "weiter"):
            (toast,) = of(await svc.handle(say(GROUP, u, text)), Toast)
            assert toast.secret and toast.table_id == table.table_id and toast.user == u, (text, toast)
    (stranger,) = of(await svc.handle(say(GROUP, user(7), "spiel B♣")), Toast)
    assert not stranger.secret
