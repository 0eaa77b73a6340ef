"""A vacation that ends by its day in the night (quiet hours of his private chat) lets his tables go on at once but
tells him only when the quiet hours end: once, and not again."""

from __future__ import annotations

from bot.protocol.outgoing import PrivateText
from bot.store.personal import VACATION
from tests.servicekit import of, private, say, service, user

T0 = 1_800_039_600.0  # a Friday, 20:00 in Berlin
HOUR, DAY = 3600.0, 86400.0


async def test_a_vacation_ending_in_the_night_is_told_in_the_morning_once(store):
    now = [T0 + 3.5 * HOUR]  # 23:30
    svc = service(store, clock=lambda: now[0])
    anna = user(0)
    await svc.handle(say(private(anna), anna, "ruhezeit 23-7"))
    await svc.handle(say(private(anna), anna, "urlaub 1d"))
    now[0] += DAY  # its day, Saturday 23:30
    assert of(await svc.tick(), PrivateText) == []
    morning = T0 + 11 * HOUR + DAY  # Sunday 07:00
    assert await store.personal.when(VACATION, anna.key) == morning
    now[0] = morning
    told = of(await svc.tick(), PrivateText)
    assert [(o.chat.key, o.text) for o in told] == [
        (private(anna).key, "👋 Willkommen zurück! Dein Urlaub ist vorbei, deine Fernspiel-Tische laufen wieder.")]
    now[0] += HOUR
    assert of(await svc.tick(), PrivateText) == [] and await store.personal.when(VACATION, anna.key) is None
