"""Privacy: forgetting a person in a chat, keeping him out, and his own figures across chats."""

from __future__ import annotations

import json

import pytest

from bot.memory import (Book, absorb, forget, history, is_recorded, new_season, own_figures, ranking, set_recorded,
                        stats, who_of)
from bot.memory.absorb import NAMES
from bot.protocol.outgoing import ChatRef
from bot.store.connection import client_for
from bot.store.tables import Store
from bot.memory.privacy import PIECE
from tests.bot.memory.kit import GROUP, people, played, save_all, write_history
from tests.bot.store.test_cluster import cluster  # noqa: F401  (a fixture)

G = GROUP.group


async def _dump(redis, key_prefix) -> str:
    """Everything the memory holds of the test's chats, as text."""
    out = []
    async for key in redis.scan_iter(match=f"{key_prefix}:{{m:*"):
        kind = await redis.type(key)
        if kind == "hash":
            out.append(json.dumps(await redis.hgetall(key)))
        elif kind == "list":
            out += await redis.lrange(key, 0, -1)
        elif kind == "set":
            out += list(await redis.smembers(key))
        out.append(key)
    return "\n".join(out)


async def test_forgetting_removes_his_name_figures_rating_and_number(store, book, redis, key_prefix):
    for i in range(3):
        await save_all(store, book, played("bauer", people(4), seed=40 + i, table_id=f"F{i}"))
    ben = await who_of(book, G, "test:u1")
    assert await forget(book, G, "test:u1")
    text = await _dump(redis, key_prefix)
    assert "Ben" not in text and "test:u1" not in text
    assert f":{ben}\n" not in text and f"bauer:{ben}" not in text
    assert await who_of(book, G, "test:u1") is None
    assert ben not in {line.person.who for line in (await ranking(book, G, "bauer")).people}
    for match in await history(book, G):
        assert match.seats[1].who == "" and match.seats[1].name == "" and match.seats[0].name == "Anna"
    anna = (await stats(book, G, await who_of(book, G, "test:u0"), "bauer")).games[0]
    assert anna.matches == 3 and not any(d.other.who == ben for d in anna.opponents)
    assert await own_figures(book, "test:u1") == []
    assert not await forget(book, G, "test:u1")


async def test_a_long_history_forgets_him_in_every_piece(store, book, redis):
    """2.5 pieces of history records, every one with Ben: none keeps his number, everyone else's stays."""
    await save_all(store, book, played("bauer", people(4), seed=40, table_id="F0"))
    await absorb(book, G)
    (record,) = [json.loads(text) for text in await redis.lrange(book.key(G, "h"), 0, -1)]
    await redis.delete(book.key(G, "h"))
    await write_history(book, G, [record], PIECE * 5 // 2, 1_750_000_000.0)
    ben = await who_of(book, G, "test:u1")
    assert await forget(book, G, "test:u1")
    seats = [json.loads(text)["w"] for text in await redis.lrange(book.key(G, "h"), 0, -1)]
    assert len(seats) == PIECE * 5 // 2 and all(w == record["w"][:1] + [""] + record["w"][2:] for w in seats), ben


async def test_a_person_who_opts_out_is_kept_out_from_then_on(store, book, redis):
    await save_all(store, book, played("bauer", people(4), seed=1, table_id="O1"))
    await set_recorded(book, G, "test:u3", False)
    assert not await is_recorded(book, G, "test:u3")
    await save_all(store, book, played("bauer", people(4), seed=2, table_id="O2"))
    dora = await who_of(book, G, "test:u3")
    assert (await stats(book, G, dora, "bauer")).games[0].matches == 1
    newest, oldest = await history(book, G)
    assert newest.seats[3].who == "" and oldest.seats[3].who == dora
    await set_recorded(book, G, "test:u3", True)
    assert await is_recorded(book, G, "test:u3")
    assert "Dora" in (await redis.hgetall(book.key(G, NAMES))).values()


async def test_his_own_figures_across_chats(store, book):
    other = ChatRef("test", "g2", title="Bad Bonn")
    await save_all(store, book, played("bauer", people(4), seed=1, table_id="C1"))
    await save_all(store, book, played("rams", people(5), seed=2, table_id="C2", chat=other))
    for group in (G, "test:g2"):
        await absorb(book, group)  # as the service does after a finishing save
    own = await own_figures(book, "test:u0")
    assert {(o.chat, o.title) for o in own} == {(G, "Stammtisch Lautern"), ("test:g2", "Bad Bonn")}
    assert {g.game for o in own for g in o.games} == {"bauer", "rams"}
    assert [o.chat for o in await own_figures(book, "test:u4")] == ["test:g2"]


@pytest.fixture
async def cluster_book(cluster, key_prefix):
    client = client_for(f"redis+cluster://127.0.0.1:{cluster.servers[0].port}")
    yield Store(client, prefix=key_prefix), Book(client, key_prefix)
    await client.aclose()


async def test_on_cluster_counting_a_new_season_and_forgetting_stay_in_the_chats_slot(cluster_book, key_prefix):
    store, book = cluster_book
    chat = ChatRef("test", f"k{key_prefix}", title="Cluster")
    group = chat.group
    await save_all(store, book, played("bauer", people(4), seed=3, chat=chat))
    await new_season(book, group, 2_000_000_000.0)
    await save_all(store, book, played("bauer", people(4), seed=4, chat=chat, table_id="T2", start=2_000_000_100.0))
    anna = await who_of(book, group, "test:u0")
    assert (await stats(book, group, anna, "bauer", season=0)).games[0].matches == 2
    assert await forget(book, group, "test:u0")
    assert await who_of(book, group, "test:u0") is None
    assert all(m.seats[0].who == "" for m in await history(book, group))
    assert [o.chat for o in await own_figures(book, "test:u1")] == [group]
