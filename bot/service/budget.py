"""How often the bot answers one person in a group: a budget of answers per person and chat.

A typed command in a group that changes no table (a refusal, the help, the rules, a setting shown,
the table posted again) is only answered, and every answer there costs the whole group: Telegram
allows about 20 messages a minute in a group, and the table's own edits wait behind them. So one
person gets at most ``answers_per_minute`` (a setting, 5 by default) such answers per
:data:`WINDOW_S` in a chat; the next one is a short note that he is answered again later (one per
window), and then he gets nothing until the window has room again. Commands that change a table
are never held back (their table edit replaces the previous one in the adapters' queues), nor a
hand asked for (it goes to its owner alone), nor anything in a private chat. The window is kept in
Redis (:attr:`bot.store.tables.Store.limiter`: one small key per person and chat, expiring with the
window), so every process counts together.

A command whose work grows with what it reads (the memory's ``abend``, ``export``, ``statistik`` …) is
counted before it works (:func:`charge`): one held back costs nothing but the check.
"""

from __future__ import annotations

from contextvars import ContextVar

from bot.ops.settings import Settings
from bot.protocol.outgoing import Command, Outgoing, Toast
from bot.service.answer import toast_lang
from bot.store.tables import Store
from bot.words.i18n import t

__all__ = ["WINDOW_S", "SPENT", "spend", "charge"]

WINDOW_S = 60.0
"""The window in seconds (sliding: any such span holds at most the budget's answers and one note)."""
SPENT: ContextVar[bool] = ContextVar("stammtisch_answer_spent", default=False)
"""Whether the command being handled was already counted against its sender's budget (by :func:`charge`)."""


async def charge(store: Store, settings: Settings, cmd: Command) -> list[Outgoing] | None:
    """Count ``cmd``'s answer against the sender's budget before the work: ``None`` if it may be answered;
    else what is answered instead (the note that he is answered again later, once per window; else nothing)."""
    SPENT.set(True)
    key = f"answers:{cmd.chat.key}:{cmd.user.key}"
    if await store.limiter.wait_time(key, settings.answers_per_minute, WINDOW_S) <= 0:
        return None
    if await store.limiter.wait_time(f"{key}:note", 1, WINDOW_S) <= 0:
        lang = await toast_lang(store, cmd, settings.lang)
        return [Toast(cmd.user, cmd.chat, t(lang, "slow_down", name=cmd.user.name or cmd.user.user_id))]
    return []


async def spend(store: Store, settings: Settings, cmd: Command, out: list[Outgoing]) -> list[Outgoing]:
    """``out``, the answer to ``cmd`` (a typed command in a group that saved nothing), if the sender's
    budget allows it; else what :func:`charge` answers instead."""
    held = await charge(store, settings, cmd)
    return out if held is None else held
