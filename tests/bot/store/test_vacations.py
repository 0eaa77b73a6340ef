"""People's vacations in Redis: the budget is checked and spent in one script, an early end gives days back,
the end by its day is told once; a person's timers are leases."""

from __future__ import annotations

from bot.store import personal

T0 = 1_800_039_600.0
DAY = 86400.0


async def test_the_budget_is_spent_and_an_early_end_gives_back_the_days_not_begun(store, redis):
    vacations = store.vacations
    started = await vacations.start("test:1", T0, 7, 10, "Europe/Berlin")
    assert started.ok and started.until == T0 + 7 * DAY and started.left == 3
    again = await vacations.start("test:1", T0 + DAY, 2, 10, "Europe/Berlin")
    assert not again.ok and again.until == T0 + 7 * DAY  # one runs
    assert await vacations.end("test:1", T0 + 1.5 * DAY) == 5  # two days begun
    assert await vacations.end("test:1", T0 + 2 * DAY) is None
    assert await vacations.left("test:1", 2027, 10) == 8
    refused = await vacations.start("test:1", T0 + 3 * DAY, 9, 10, "Europe/Berlin")
    assert not refused.ok and refused.until == 0 and refused.left == 8
    vac = await vacations.get("test:1")
    assert vac.days == 2 and not vac.runs(T0 + 3 * DAY)
    keys = [k async for k in redis.scan_iter(match=f"{store.prefix}:{{u:test:1}}:*")]
    assert len(keys) == 2 and all([await redis.ttl(k) > 0 for k in keys])


async def test_only_a_vacation_ended_by_its_day_is_told_and_only_once(store, redis):
    vacations = store.vacations
    assert not await vacations.over("test:2", T0)  # none: nothing to tell
    await vacations.start("test:2", T0, 2, 10, "Europe/Berlin", "en")
    assert (await vacations.get("test:2")).lang == "en"
    assert not await vacations.over("test:2", T0 + DAY)  # it runs
    assert [await vacations.over("test:2", T0 + 2 * DAY) for _ in range(2)] == [True, False]
    await vacations.start("test:3", T0, 2, 10, "Europe/Berlin")
    await vacations.end("test:3", T0 + DAY)  # he ended it: he was answered then
    assert not await vacations.over("test:3", T0 + 3 * DAY)
    assert [k async for k in redis.scan_iter(match=f"{store.prefix}:{{u:test:2}}:vac")] and \
        await redis.ttl(f"{store.prefix}:{{u:test:2}}:vac") > 0


async def test_a_personal_timer_is_leased_and_dropped_only_if_nobody_set_it_anew(store):
    timers = store.personal
    await timers.schedule(personal.DIGEST, "test:1", T0)
    assert await timers.due(T0 - 1) == []
    assert await timers.due(T0) == [(personal.DIGEST, "test:1")]
    leased = await timers.claim(personal.DIGEST, "test:1", T0)
    assert leased and await timers.claim(personal.DIGEST, "test:1", T0) is None
    await timers.schedule(personal.DIGEST, "test:1", T0 + DAY)
    assert not await timers.done(personal.DIGEST, "test:1", leased)
    assert await timers.when(personal.DIGEST, "test:1") == T0 + DAY
