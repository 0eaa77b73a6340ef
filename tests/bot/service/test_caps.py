"""Caps on opening tables: open tables per person, tables waiting for players per chat."""

from __future__ import annotations

from dataclasses import replace

from bot.protocol.outgoing import ChatRef, Toast
from bot.words.i18n import t
from tests.servicekit import of, private, say, service, table_msg, user


def group(i: int, thread: str = "") -> ChatRef:
    """Group chat number ``i`` (a forum topic of it with ``thread``)."""
    return ChatRef("test", f"caps{i}", thread=thread, title=f"Runde {i}")


async def test_one_person_opens_a_bounded_number_of_tables(store):
    """The issue's attack: one user opened any number of tables."""
    svc = service(store, seed=1, max_tables_per_user=2)
    anna, ben = user(0), user(1)
    for i in range(2):
        table_msg(await svc.handle(say(group(i), anna, "neu bauer")))
    for chat in (group(2), private(anna)):
        (toast,) = of(await svc.handle(say(chat, anna, "neu bauer")), Toast)
        assert toast.text == "Du sitzt schon an 2 offenen Tischen. Spiel erst einen zu Ende oder steh auf."
    english = replace(say(private(anna), anna, "new bauer"), lang="en")
    (toast,) = of(await svc.handle(english), Toast)
    assert toast.text == t("en", "too_many_tables", most=2), "in his private chat, his client's language"
    (toast,) = of(await svc.handle(replace(say(group(3), anna, "new bauer"), lang="en")), Toast)
    assert toast.text == t("de", "too_many_tables", most=2), "in a group, the group's language"
    assert await store.table_for_chat(group(2).key) is None
    table_msg(await svc.handle(say(group(2), ben, "neu bauer")))  # the cap is per person
    await svc.handle(say(group(0), anna, "abbrechen"))
    table_msg(await svc.handle(say(group(2, "7"), anna, "neu bauer")))


async def test_one_chat_holds_a_bounded_number_of_tables_waiting_for_players(store):
    svc = service(store, seed=2, max_lobbies_per_chat=2)
    anna, ben, cleo = user(0), user(1), user(2)
    table_msg(await svc.handle(say(group(5, "1"), anna, "neu bauer")))
    table_msg(await svc.handle(say(group(5, "2"), ben, "neu bauer")))
    (toast,) = of(await svc.handle(say(group(5, "3"), cleo, "neu bauer")), Toast)
    assert toast.text == "Hier warten schon 2 Tische auf Mitspieler. Setzt euch dazu oder brecht einen ab."
    assert await store.table_for_chat(group(5, "3").key) is None
    table_msg(await svc.handle(say(group(6), cleo, "neu bauer")))  # the cap is per chat
    await svc.handle(say(group(5, "1"), anna, "los"))
    table_msg(await svc.handle(say(group(5, "3"), ben, "neu rams")))  # a started table waits no longer


async def test_the_caps_hold_by_default(store):
    svc = service(store, seed=3)
    anna = user(0)
    for i in range(10):
        table_msg(await svc.handle(say(group(10 + i), anna, "neu bauer")))
    (toast,) = of(await svc.handle(say(group(20), anna, "neu bauer")), Toast)
    assert toast.text == t("de", "too_many_tables", most=10)
    for i in range(10):
        table_msg(await svc.handle(say(group(30, str(i)), user(1 + i), "neu bauer")))
    (toast,) = of(await svc.handle(say(group(30, "10"), user(20), "neu bauer")), Toast)
    assert toast.text == t("de", "too_many_lobbies", most=10)
