"""Computer players at a table: bounded work per command, the rest through the turn timers."""

from __future__ import annotations

import json

from bot.protocol.outgoing import TableMessage, Toast
from bot.table.record import Table
from tests.servicekit import GROUP, audit, of, say, service, table_msg, user

T0 = 1_800_000_000.0


def computer_deals(entry: dict) -> int:
    """In how many deals one saved change made computer (or timer) moves."""
    deals, segment = 0, False
    for move in entry["moves"]:
        if "deal" in move:
            segment = False
        elif move["by"] in ("cpu", "timer") and not segment:
            deals, segment = deals + 1, True
    return deals


async def test_a_table_whose_people_are_away_goes_on_one_deal_per_tick(store):
    now = [T0]
    svc = service(store, seed=4, clock=lambda: now[0], reminder_after="off", autoplay_after="2m")
    anna = user(0)
    table_id = table_msg(await svc.handle(say(GROUP, anna, "neu bauer target_brote=1"))).table_id
    await svc.handle(say(GROUP, anna, "los"))
    ticks = 0
    while (table := Table.load((await store.load(table_id))[1])).status == "playing":
        now[0] += 121
        assert await store.due(now[0]), "a playing table always has a timer"
        await svc.tick(now[0])
        ticks += 1
        assert ticks < 500, "the match did not end"
    assert table.status == "finished" and table.seats[table.seat_of(anna.key)].auto
    entries = [json.loads(e) for e in await store.log(table_id)]
    assert max(computer_deals(e) for e in entries) == 1
    assert table.deals >= 2 and ticks >= table.deals, "every deal took a tick of its own"
    await audit(store, table_id)


async def test_a_table_without_people_does_not_start(store):
    svc = service(store, seed=5)
    anna = user(0)
    table_id = table_msg(await svc.handle(say(GROUP, anna, "neu rams 3"))).table_id
    await svc.handle(say(GROUP, anna, "aufstehen"))
    for _ in range(3):
        await svc.handle(say(GROUP, anna, "computer"))
    (toast,) = of(await svc.handle(say(GROUP, anna, "los")), Toast)
    assert toast.text == "Du sitzt nicht an diesem Tisch."
    assert Table.load((await store.load(table_id))[1]).status == "lobby"


async def test_the_last_person_leaving_closes_the_table(store):
    svc = service(store, seed=5)
    anna, ben = user(0), user(1)
    table_id = table_msg(await svc.handle(say(GROUP, anna, "neu bauer"))).table_id
    await svc.handle(say(GROUP, ben, "mitspielen"))
    await svc.handle(say(GROUP, anna, "los"))
    await svc.handle(say(GROUP, anna, "aufstehen"))
    assert Table.load((await store.load(table_id))[1]).status == "playing"
    effects = await svc.handle(say(GROUP, ben, "aufstehen"))
    assert "geschlossen" in " ".join(e.text for e in effects if not isinstance(e, TableMessage))
    assert "abgebrochen" in table_msg(effects).text
    table = (await audit(store, table_id))["table"]
    assert table.status == "aborted" and await store.table_for_chat(GROUP.key) is None
