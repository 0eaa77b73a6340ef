"""Telegram's command menu and ``/hilfe`` offer the vacation and the notifications, in German and in English.

The real bot on the fake Bot API (which enforces setMyCommands' limits): each menu lists ``/urlaub`` and
``/benachrichtigung`` (``/vacation``, ``/notify``), each answers when tapped there, and the help names both.
"""

from __future__ import annotations

from tests.fakes.telegram.harness import FAST, fake_for, running_bot


async def _answer(tg, user, words: str) -> str:
    """What the bot answers ``user`` privately to ``words``."""
    before = len(tg.chat(user.id))
    user.send(None, words)
    return (await tg.wait_for(lambda: tg.chat(user.id)[before:], what=f"the answer to {words}"))[0].text


async def test_the_menus_and_the_help_offer_the_vacation_and_the_notifications(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        anna = tg.user(51, "Anna", started=True)
        bill = tg.user(52, "Bill", language_code="en", started=True)
        async with running_bot(tg, store, redis, key_prefix):
            await tg.wait_for(lambda: {"de", ""} <= set(tg.commands), what="both menus")
            menus = {lang: {c["command"]: c["description"] for c in tg.commands[lang]} for lang in ("de", "")}
            assert "/urlaub 7d" in menus["de"]["urlaub"] and "täglich 19:00" in menus["de"]["benachrichtigung"]
            assert "/vacation 7d" in menus[""]["vacation"] and "daily 19:00" in menus[""]["notify"]

            assert "Urlaubstage" in await _answer(tg, anna, "/urlaub")
            assert "vacation days" in await _answer(tg, bill, "/vacation")
            assert "bei jedem Zug" in await _answer(tg, anna, "/benachrichtigung")
            assert "urlaub 7d · urlaub aus · benachrichtigung" in await _answer(tg, anna, "/hilfe")
            assert "vacation 7d · vacation off · notify" in await _answer(tg, bill, "/help")
        assert tg.violations == []
