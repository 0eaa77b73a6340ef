"""A person's budget of answers in a group: a flood of typed commands that change nothing gets a few answers,
one note, then silence; what changes a table, other people and private chats are not held back."""

from __future__ import annotations

from bot.protocol.outgoing import Notice, TableMessage, Toast
from bot.words.i18n import t
from tests.servicekit import GROUP, of, private, say, service, user


async def test_a_flood_of_idle_commands_gets_a_few_answers_one_note_then_nothing(store):
    svc = service(store, answers_per_minute=3)
    zed, anna = user(6), user(0)
    answers = [await svc.handle(say(GROUP, zed, word)) for word in ["hilfe", "spiel B♣"] * 10]
    assert [len(of(a, Notice)) + len(of(a, Toast)) for a in answers[:3]] == [1, 1, 1]
    assert answers[3] == [Toast(zed, GROUP, t("de", "slow_down", name="Gerd"))]
    assert all(a == [] for a in answers[4:]), answers[4:]
    assert of(await svc.handle(say(GROUP, anna, "hilfe")), Notice), "another person has his own budget"
    assert of(await svc.handle(say(private(zed), zed, "hilfe")), Notice), "a private chat costs no group anything"
    assert of(await svc.handle(say(GROUP, zed, "neu bauer")), TableMessage), "a command that changes a table"


async def test_a_memory_command_is_counted_before_it_works(store):
    """Held back, ``export`` reads nothing and spends nothing: not even the chat's one export a minute."""
    from tests.bot.memory.kit import people, played, save_all
    svc = service(store, answers_per_minute=1)
    await save_all(store, svc.tables.book, played("bauer", people(4), seed=3, options={"short_deck": True,
                                                                                     "target_brote": 1}))
    ben = user(1)
    assert of(await svc.handle(say(GROUP, ben, "saison")), Notice)
    assert of(await svc.handle(say(GROUP, ben, "export")), Toast) == [Toast(ben, GROUP, t("de", "slow_down", name="Ben"))]
    assert await svc.handle(say(GROUP, ben, "export")) == []
    files = await svc.handle(say(GROUP, user(0), "export"))  # Anna's budget: the chat's export was never made
    assert [type(e).__name__ for e in files] == ["FileMessage"], files
