"""»Meine Tische« through the service: a broken record among his tables leaves the rest listed, a page button
counts only in his private chat, and typed in a group nothing is listed."""

from __future__ import annotations

from bot.protocol import tokens
from bot.protocol.outgoing import ChatRef, TableList, Toast
from bot.table.record import Seat, Table
from bot.words.i18n import t
from tests.servicekit import press, private, say, service, user

ANNA = user(0)


async def _seat_her(store, n: int) -> list[str]:
    ids = []
    for i in range(n):
        chat = ChatRef("test", f"-100{i}", title=f"Runde {i}")
        table = Table(id=store.new_id(), chat=chat, game="bauer", n=4, opener=ANNA.key,
                      seats=[Seat(user=ANNA.key, name=ANNA.name)] + [Seat(bot=True)] * 3)
        assert await store.create(table.id, chat.key, table.dump(), table.user_keys())
        ids.append(table.id)
    return ids


async def test_a_broken_record_leaves_the_rest_listed(store):
    svc = service(store)
    ids = await _seat_her(store, 3)
    await store.redis.hset(f"{store.prefix}:{{t:{ids[1]}}}:rec", "data", "{not json")
    listing = (await svc.handle(say(private(ANNA), ANNA, "tische")))[0]
    assert isinstance(listing, TableList) and sorted(r.table_id for r in listing.rows) == sorted([ids[0], ids[2]])


async def test_a_page_button_counts_only_in_his_private_chat(store):
    svc = service(store)
    await _seat_her(store, 9)
    page = tokens.make("mine", 1, "tables")
    listing = (await svc.handle(press(private(ANNA), ANNA, page)))[0]
    assert listing.head == t("de", "mt.head", n=9) + t("de", "mt.page", page=2, pages=2) and len(listing.rows) == 1
    group = ChatRef("test", "-1000", title="Runde 0")
    refused = await svc.handle(press(group, ANNA, page))
    assert [type(o) for o in refused] == [Toast] and refused[0].text == t("de", "forged")
    refused = await svc.handle(say(group, ANNA, "tische"))
    assert [type(o) for o in refused] == [Toast] and refused[0].text == t("de", "mt.only_private")
