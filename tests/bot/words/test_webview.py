"""One seat's view for the web table: over whole deals of every game, each seat sees exactly its own
cards, the public trick, and no card hidden in another hand or set aside; its legal cards are the
engine's, and only on its turn."""

from __future__ import annotations

import json

import pytest

import engine
from bot.table.record import Table
from bot.words.webview import web_text
from engine.cards import card_str, cards_in
from tests.servicekit import GROUP, Players, button, labels, leaks, press, say, secrets_of, service, table_msg, user

CASES = [("bauernstoss", 4, ""), ("bauerchen", 4, ""), ("bauer", 4, ""), ("rams", 5, "")]
DEALS = 3


@pytest.mark.parametrize(("game", "n", "options"), CASES, ids=[f"{g}-{n}" for g, n, _ in CASES])
async def test_each_seat_sees_its_own_cards_and_nothing_hidden(store, game, n, options):
    svc = service(store, seed=n * 7)
    users = [user(i) for i in range(n)]
    players = Players(svc, GROUP, users, seed=3)
    table = table_msg(await players.send(say(GROUP, users[0], f"neu {game} {n} {options}".strip())))
    for u in users[1:]:
        table = table_msg(await players.send(press(GROUP, u, button(table, "join").token)))
    await players.send(press(GROUP, users[0], button(table, "start").token))
    checked, one_card = 0, False
    while True:
        version, data = await store.load(table.table_id)
        data = Table.load(data)
        if data.status != "playing" or data.deals >= DEALS:
            break
        state, known, hidden, _ = secrets_of(data)
        public = engine.view(state, None)
        for seat, u in enumerate(users):
            view = await svc.web_view(table.table_id, u)
            assert view["seat"] == seat and view["version"] == version
            mine = engine.view(state, seat)
            assert sorted(c["card"] for c in view["hand"]) == sorted(mine["hand"])
            assert [(c["seat"], c["card"]) for c in view["trick"]] == [(e["seat"], e["card"]) for e in public["trick"]]
            legal = {c["card"] for c in view["hand"] if c["legal"]}
            melds = {o["arg"] for o in view["offers"] if o["arg"].endswith(".m")}
            if state.to_act != seat or data.declare:  # not his turn, or the lead waits for the windows
                assert not legal and not melds
            else:
                assert legal == {card_str(a.card) for a in state.legal()
                                 if a.kind in ("play", "give", "exchange") and not a.meld}
                assert melds == {f"pl.{card_str(a.card)}.m" for a in state.legal() if a.meld}
            assert [s["turn"] for s in view["seats"]] == [i == state.to_act for i in range(n)]
            for s in (s for s in view["seats"] if s["active"]):  # a seat's cards counted in German, one Karte
                assert s["note"] == ("1 Karte" if s["cards"] == 1 else f"{s['cards']} Karten"), s
                one_card |= s["cards"] == 1
            unseen = sum(hidden[s] for s in range(n) if s != seat) | (state.hands[seat] & ~state.visible_hand(seat))
            unseen |= state.set_aside() & ~known
            # the story, the last trick and the last deal's result may show the last deal's cards, played in the open
            text = json.dumps({k: v for k, v in view.items() if k not in ("story", "last_trick", "result")},
                              ensure_ascii=False)
            assert not {c for c in map(card_str, cards_in(unseen & ~known)) if f'"{c}"' in text}
            assert not leaks(text, labels(unseen & ~known)), text
            checked += 1
        await players.step()
    assert checked > 50 and one_card


async def test_a_stranger_and_a_gone_table_are_refused(store):
    svc = service(store)
    players = Players(svc, GROUP, [user(0)])
    table = table_msg(await players.send(say(GROUP, user(0), "neu bauerchen")))
    assert await svc.web_view(table.table_id, user(1)) == {"refused": "not_seated", "lang": "de"}
    assert await svc.web_view("Gone0000", user(0)) == {"refused": "no_table"}
    lobby = await svc.web_view(table.table_id, user(0))
    assert lobby["state"] == "lobby" and lobby["status"] == web_text("de", "lobby") and lobby["hand"] == []
