"""Long input and long names: every refusal, table and hand still fits the platforms' limits."""

from __future__ import annotations

from dataclasses import replace

from bot.protocol.outgoing import HandMessage, Notice, TableMessage, Toast, UserRef
from bot.table.refused import ECHO_MAX
from tests.servicekit import GROUP, of, private, say, service, table_msg, user

TOAST_MAX = 200  # Telegram's callback answer; a refusal may be one
MESSAGE_MAX = 2000  # Discord (Telegram allows 4096)
LONG = "x" * 4000


def texts(effects: list) -> list[str]:
    return [e.text for e in effects if isinstance(e, (Toast, Notice, TableMessage, HandMessage))]


async def test_long_typed_input_is_cut_in_refusals(store):
    svc = service(store, seed=1, answers_per_minute=1000)  # refusals in a row: no budget
    anna = user(0)
    lobby = [LONG, f"neu {LONG}", f"neu bauer {LONG}", f"neu bauer {LONG}=1", f"neu bauer target_brote={LONG}"]
    for text in lobby:
        (toast,) = of(await svc.handle(say(GROUP, anna, text)), Toast)
        assert len(toast.text) <= TOAST_MAX and "x" * ECHO_MAX not in toast.text, (text[:20], toast.text)
    await svc.handle(say(GROUP, anna, "neu bauer"))
    for text in (f"option {LONG} 1", f"spiel {LONG}", f"platz {LONG}", f"sprache {LONG}"):
        (toast,) = of(await svc.handle(say(GROUP, anna, text)), Toast)
        assert len(toast.text) <= TOAST_MAX, (text[:20], toast.text)
    (toast,) = of(await svc.handle(say(GROUP, anna, f"option target_brote {LONG}")), Toast)
    assert len(toast.text) <= TOAST_MAX


async def test_long_names_and_titles_are_cut(store):
    svc = service(store, seed=1)
    long_users = [UserRef("test", f"u{i}", LONG + str(i)) for i in range(7)]
    chat = replace(GROUP, title=LONG)
    effects = await svc.handle(say(chat, long_users[0], "neu rams 7"))
    for u in long_users[1:]:
        effects = await svc.handle(say(chat, u, "mitspielen"))
    assert "x" * (ECHO_MAX + 1) not in table_msg(effects).text
    effects = await svc.handle(say(chat, long_users[0], "los"))
    assert all(len(text) <= MESSAGE_MAX for text in texts(effects)), [len(t) for t in texts(effects)]
    assert of(effects, HandMessage)
    (toast,) = of(await svc.handle(say(chat, long_users[1], "option sixes an")), Toast)
    assert toast.text.startswith("Nur wer den Tisch eröffnet hat (xxx") and len(toast.text) <= TOAST_MAX
    effects = await svc.handle(say(private(long_users[1]), long_users[1], "hand"))
    assert effects and all(len(text) <= MESSAGE_MAX for text in texts(effects))
