"""What a crash, a redelivery or a Redis that lost writes must not do: lose or double a move or a timer,
drop another bot's update, or leave keys behind that never expire."""

from __future__ import annotations

from bot.protocol.outgoing import ChatRef, Command, HandMessage, Notice, Toast
from tests.bot.service.test_service import open_group_table
from tests.servicekit import (GROUP, Players, act_buttons, audit, let_windows_pass, of, press, private, say, service,
                              user)

T0 = 1_800_000_000.0
REMIND = 12 * 3600


def redelivery(cmd: Command, update: str, bot: str = "b1") -> Command:
    """``cmd`` as a platform update ``update`` received by bot ``bot``."""
    return Command(cmd.chat, cmd.user, cmd.verb, cmd.args, cmd.token, cmd.lang, update, bot)


async def next_press(players: Players) -> Command:
    """The press of the player to act (his hand asked for first)."""
    for key in players.users:
        await players.send(Command(players.chat, players.users[key], verb="hand"))
    u, b = await players.to_act()
    return press(players.chat, u, b.token)


async def test_a_redelivered_update_whose_save_landed_is_answered_with_nothing(store, redis, key_prefix):
    players, table_id = await open_group_table(service(store, seed=1), "bauer", humans=4)
    cmd = redelivery(await next_press(players), "41")
    assert not of(await players.svc.handle(cmd), Toast)
    version = (await store.load(table_id))[0]
    await redis.delete(f"{key_prefix}:seen:test:b1:41")  # the process died before it marked the update
    assert await service(store, seed=2).handle(cmd) == []
    assert (await store.load(table_id))[0] == version
    assert await service(store, seed=2).handle(cmd) == [], "marked now"
    assert await store.seen("test:b1:41") == "1", "the marker says its move was saved"


async def test_an_update_marker_tells_a_refusal_from_a_saved_move(store):
    players, _ = await open_group_table(service(store, seed=1), "bauer", humans=4)
    cmd = redelivery(await next_press(players), "42")
    stranger = redelivery(Command(cmd.chat, user(9), token=cmd.token), "43")
    assert of(await players.svc.handle(stranger), Toast), "not his seat: refused"
    assert await players.svc.handle(cmd)
    assert (await store.seen("test:b1:43"), await store.seen("test:b1:42")) == ("0", "1")


async def test_a_redelivered_new_table_is_answered_with_nothing(store, redis, key_prefix):
    cmd = redelivery(say(GROUP, user(0), "neu bauer"), "7")
    assert await service(store).handle(cmd)
    await redis.delete(f"{key_prefix}:seen:test:b1:7")
    assert await service(store).handle(cmd) == []


async def test_two_bots_on_one_redis_keep_their_updates_apart(store):
    svc = service(store, seed=1)
    first = await svc.handle(redelivery(say(GROUP, user(0), "neu bauer"), "5", bot="b1"))
    other = ChatRef("test", "g2")
    second = await svc.handle(redelivery(say(other, user(1), "neu rams"), "5", bot="b2"))
    assert first and second
    assert await store.table_for_chat(GROUP.key) and await store.table_for_chat(other.key)


async def test_a_cached_record_never_overwrites_a_move_redis_lost_and_another_process_made(store, redis, key_prefix):
    """Process A saves a move; Redis loses it (a crash before the fsync) and process B makes another
    move on the old record. A's cached record has B's version number, but not its revision."""
    a, b = service(store, seed=1), service(store, seed=2)
    players, table_id = await open_group_table(a, "bauer", humans=4)
    rec_key, log_key = f"{key_prefix}:{{t:{table_id}}}:rec", f"{key_prefix}:{{t:{table_id}}}:log"
    snapshot = await redis.hgetall(rec_key)
    players.hands.clear()
    assert not of(await players.send(await next_press(players)), Toast)
    await redis.hset(rec_key, mapping=snapshot)  # the write was lost ...
    await redis.rpop(log_key)  # ... with its log entry
    players_b = Players(b, GROUP, list(players.users.values()), seed=5)
    assert not of(await b.handle(await next_press(players_b)), Toast)
    u, pressed = await players.to_act()  # a button A showed after its own (lost) move: legal in A's cached record
    await a.handle(press(GROUP, u, pressed.token))
    await audit(store, table_id)


async def test_a_timer_claimed_by_a_process_that_died_comes_back(store):
    now = [T0]
    svc = service(store, seed=3, clock=lambda: now[0])
    players, table_id = await open_group_table(svc, "bauer", humans=2)
    await let_windows_pass(svc, store, table_id, GROUP)
    ((tid, version, kind),) = [d for d in await store.due(T0 + REMIND + 1) if d[0] == table_id]
    assert await store.claim(tid, version, kind, T0 + REMIND + 1)  # ... and the claimer was killed
    assert await svc.tick(T0 + REMIND + 2) == []
    later = T0 + REMIND + 1 + 61
    now[0] = later
    (notice,) = of(await svc.tick(later), Notice)
    assert "⏰" in notice.text
    assert [k for t, _, k in await store.due(later + 10**6) if t == table_id] == ["auto"]


async def test_every_key_of_a_chat_or_user_expires(store, redis, key_prefix):
    svc = service(store, seed=4)
    anna = user(0)
    await svc.handle(say(private(anna), anna, "sprache en"))
    await svc.handle(say(private(anna), anna, "neu bauerchen"))
    players, table_id = await open_group_table(svc, "bauer", humans=2)
    await svc.handle(say(GROUP, anna, "sprache de"))
    await svc.handle(redelivery(say(GROUP, anna, "tisch"), "99"))
    players.typing = 0.2
    await players.play_out()
    keys = [k async for k in redis.scan_iter(match=f"{key_prefix}:*")]
    assert any(":chatcfg:" in k for k in keys) and any(":seen:" in k for k in keys)
    forever = [k for k in keys if await redis.ttl(k) == -1 and ":{deadlines}:" not in k]
    assert forever == []
    assert await store.due(T0 * 2) == [] or all(t != table_id for t, _, _ in await store.due(T0 * 2))


async def test_a_new_table_started_at_once_is_started_by_its_update(store):
    anna = user(0)
    effects = await service(store).handle(redelivery(say(private(anna), anna, "neu bauerchen"), "12"))
    assert any(act_buttons(h) for h in of(effects, HandMessage))
