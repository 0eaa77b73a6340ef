"""A process that dies between a change's save and its outbox write: the save's show guard, fired by another
process's timers, writes what the chat should show after that change (the table, the hands, the result
notice), once; a late write of the original adds nothing (real Redis, two services on one store)."""

from __future__ import annotations

import random
import time

from bot.ops.settings import load_settings
from bot.protocol import tokens, wire
from bot.protocol.outgoing import ChatRef, HandMessage, Notice, Outgoing, TableMessage
from bot.service import Service
from bot.service.change import SHOW_GUARD_S
from bot.store.outbox import Outbox
from bot.store.tables import SHOW, Store
from tests.servicekit import Players, button, press, say, user

CHAT = ChatRef("test", "g-guard", title="Stammtisch Lautern")


def outbox_of(store: Store) -> Outbox:
    """The store's outbox, for the test platform's chats."""
    return Outbox(store.redis, store.prefix, platforms=("test",))


async def written(outbox: Outbox) -> list[list[Outgoing]]:
    """The batches in the chat's outbox stream, oldest first."""
    stream = outbox.stream("test", outbox.shard_of(CHAT.chat_id))
    return [wire.unpack(fields["b"]) for _, fields in await outbox.redis.xrange(stream)]


async def a_deal_ends_unwritten(store: Store, outbox: Outbox) -> tuple[Service, Players, list[Outgoing]]:
    """Four people play a deal on a service with the outbox, every change's effects written to it, up to the
    card that ends the deal: that change is saved and its effects never written (its process died)."""
    dying = Service(store, load_settings(), rng=random.Random(5), outbox=outbox)
    people = [user(i) for i in range(4)]
    players = Players(dying, CHAT, people, seed=5)
    await dying.show(await players.send(say(CHAT, people[0], "neu bauerchen")))
    for u in people[1:]:
        await dying.show(await players.send(press(CHAT, u, button(players.table, "join").token)))
    await dying.show(await players.send(press(CHAT, people[0], button(players.table, "start").token)))
    while True:
        u, b = await players.to_act()
        outs = await players.send(press(CHAT, u, b.token))
        if any(isinstance(o, Notice) and o.result for o in outs):
            return dying, players, outs
        await dying.show(outs)


def same(shown: list[Outgoing], lost: list[Outgoing]) -> None:
    """``shown`` holds the lost change's table message, each of its hands and its result notice, once."""
    table = next(o for o in lost if isinstance(o, TableMessage))
    assert [(o.text, o.buttons) for o in shown if isinstance(o, TableMessage)] == [(table.text, table.buttons)]
    hands = {o.user.key: (o.text, o.buttons) for o in shown if isinstance(o, HandMessage)}
    assert len(hands) == 4
    assert all(hands[o.user.key] == (o.text, o.buttons) for o in lost if isinstance(o, HandMessage))
    assert [o.text for o in shown if isinstance(o, Notice) and o.result] == \
        [o.text for o in lost if isinstance(o, Notice) and o.result]


async def test_a_change_lost_before_its_outbox_write_is_shown_by_its_guard_once(store):
    outbox = outbox_of(store)
    dying, _, lost = await a_deal_ends_unwritten(store, outbox)
    table = next(o for o in lost if isinstance(o, TableMessage))
    version = max(tokens.parse(b.token).version for row in table.buttons for b in row if b.token)
    guards = [(table.table_id, version, SHOW)]
    assert await store.due(time.time() + SHOW_GUARD_S + 1) == guards  # every write dropped its save's guard
    before = len(await written(outbox))
    healer = Service(store, load_settings(), outbox=outbox)  # another process: its turn-timer loop
    assert await healer.tick(time.time() + 1) == [] and len(await written(outbox)) == before  # not due yet
    await healer.tick(time.time() + SHOW_GUARD_S + 1)
    batches = await written(outbox)
    assert len(batches) == before + 1
    same(batches[-1], lost)
    await dying.show(lost)  # the original write after all (a slow process, not a dead one): nothing twice
    await healer.tick(time.time() + SHOW_GUARD_S + 120)  # the guard is gone, not only leased
    assert len(await written(outbox)) == before + 1



async def test_a_change_shown_by_its_own_process_while_it_stops_disarms_its_guard(store):
    outbox = outbox_of(store)
    stopping, _, outs = await a_deal_ends_unwritten(store, outbox)
    before = len(await written(outbox))
    assert await stopping.show(outs, here=True) == outs  # its adapter shows them itself: its reader reads no more
    assert await store.due(time.time() + SHOW_GUARD_S + 1) == []  # so no guard shows the result a second time
    healer = Service(store, load_settings(), outbox=outbox)
    assert await healer.tick(time.time() + SHOW_GUARD_S + 1) == [] and len(await written(outbox)) == before
