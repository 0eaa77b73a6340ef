"""The real bot on the fake Telegram: wiring, simulated players who press the buttons they get.

:func:`running_bot` starts the whole stack in this process: the real store on the test's Redis
prefix, the real service, the real python-telegram-bot Application talking HTTP to the fake.
:class:`Players` are simulated people: each looks at the newest hand message in his private
chat and, at his turn, presses one of its buttons, as a person would, one press at a time,
waiting for the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from pydantic_settings import BaseSettings

from adapters.telegram import TelegramBot, Tuning
from bot.ops.settings import HostPort, load_settings
from bot.protocol import tokens
from bot.service import Service
from bot.store.outbox import Outbox
from bot.store.ratelimit import Limiter
from bot.store.tables import Store
from bot.table.record import Table
from tests.fakes.reading import drained, reading
from tests.servicekit import TurnWatch, on_saves, watched

from .server import FakeTelegram, FakeUser, Sent

__all__ = ["FAST", "PATIENCE", "WEBHOOK", "fake_for", "running_bot", "Players", "table_tokens", "newest",
           "let_windows_pass", "press_verb", "open_table", "version", "watching", "alive", "terminate", "tuning_env",
           "until", "handled", "card_to_play", "web_tapper", "markup_version", "settled", "written"]

FAST = Tuning(group_messages=20, group_window_s=0.6, chat_messages=1, chat_window_s=0.03, slack_s=0.03,
              lazy_s=0.05, hand_wait_s=0.01, table_lazy_s=0.03, table_trick_s=0.08, tick_interval_s=0.2, poll_timeout_s=1,
              ack_deadline_s=2.0)
"""Telegram's limits with the windows shrunk (the same ratios), for games played in seconds."""


PATIENCE = 300.0
"""How long a test with bot processes waits for anything before it fails: it catches a hang, it
does not guess how fast a loaded machine is (every wait ends on its event)."""


def alive(procs: list[subprocess.Popen], predicate: Callable[[], object]) -> Callable[[], object]:
    """``predicate``, which fails at once (instead of waiting on) when one of ``procs`` has exited."""
    def check():
        dead = [p.returncode for p in procs if p.poll() is not None]
        assert not dead, f"a bot process exited with status {dead}"
        return predicate()
    return check


async def terminate(proc: subprocess.Popen) -> int:
    """SIGTERM to a bot process; its exit status once it has ended (it is killed after :data:`PATIENCE`).

    The wait does not block the event loop: a stopping bot still talks to the fake server.
    """
    proc.send_signal(signal.SIGTERM)
    try:
        return await asyncio.to_thread(proc.wait, PATIENCE)
    finally:
        if proc.poll() is None:
            proc.kill()


def tuning_env(tuning: BaseSettings) -> dict[str, str]:
    """The environment variables (``TELEGRAM_*``, or a Discord tuning's ``DISCORD_*``) that give a bot process
    ``tuning``."""
    return {f"{tuning.model_config['env_prefix']}{k.upper()}": str(v) for k, v in tuning.model_dump().items()}


def fake_for(tuning: Tuning, **kw) -> FakeTelegram:
    """A fake server enforcing the same limits the adapter is tuned to."""
    return FakeTelegram(group_limit=(tuning.group_messages, tuning.group_window_s),
                        chat_limit=(tuning.chat_messages, tuning.chat_window_s),
                        global_limit=(tuning.global_messages, tuning.global_window_s), **kw)


WEBHOOK = {"telegram_webhook_url": "https://stammtisch.invalid/tg", "telegram_webhook_secret": "s3cret-Token_1-for-tests",
           "telegram_webhook_listen": HostPort("127.0.0.1", 0)}
"""The settings of a bot in webhook mode on a free port (:func:`running_bot` tells the fake where it listens)."""


@asynccontextmanager
async def running_bot(tg: FakeTelegram, store: Store, redis, key_prefix: str, tuning: Tuning = FAST,
                      clock: Callable[[], float] = time.time, webhook: bool = False,
                      service: type[Service] = Service, reads: bool = True,
                      **settings) -> AsyncIterator[TelegramBot]:
    """The whole bot on the fake server until the block ends, wired as ``stammtisch run`` wires it: its effects go
    through the Telegram outbox in Redis, read here (:func:`~tests.fakes.reading.reading`). Long polling, or with
    ``webhook`` the fake POSTs the updates to its webhook server (``clock``: the service's time; ``service``: the
    service's class; not ``reads``: another process reads the outbox)."""
    conf = load_settings(telegram_token=tg.token, telegram_api_base_url=tg.base_url,
                         **(WEBHOOK if webhook else {}), **settings)
    bot = TelegramBot(conf, service(store, conf, clock=clock, outbox=Outbox(redis, key_prefix)), store, tuning,
                      Limiter(redis, prefix=key_prefix))
    await bot.start()
    if webhook:
        tg.webhook_targets = [f"http://127.0.0.1:{bot.webhook_port}/tg"]
    try:
        async with reading(bot, redis, key_prefix, "telegram") if reads else contextlib.nullcontext():
            yield bot
    finally:
        await bot.stop()


@asynccontextmanager
async def watching(store: Store, table_id: str) -> AsyncIterator[Callable[[], Table | None]]:
    """While the block runs, a function that returns the table as last loaded from the store (loaded again
    after every save of it)."""
    latest: list[Table | None] = [None]

    async def look() -> None:
        loaded = await store.load(table_id)
        latest[0] = Table.load(loaded[1]) if loaded else None

    task = asyncio.ensure_future(on_saves(store, table_id, look))
    try:
        yield lambda: latest[0]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)  # it no longer reads the store when that closes


async def web_tapper(store: Store, table_id: str, users: list[FakeUser]) -> FakeUser:
    """The person who may tap on the web table now: the one to act, else one whose window before the first
    lead is open."""
    watch = TurnWatch(store, table_id)
    await watch.look()
    actor = next(u for u in users if f"telegram:{u.id}" == watch.to_act) if watch.to_act else None
    return actor or next(u for u in users if watch.declares(u.id))


def table_tokens(message: Sent, table_id: str) -> list[tokens.Token]:
    """The parsed tokens of ``message``'s buttons that belong to ``table_id``."""
    return _tokens(message.buttons, table_id)


def _tokens(buttons: list[dict], table_id: str) -> list[tokens.Token]:
    """The parsed tokens of ``buttons`` that belong to ``table_id``."""
    out = [tokens.parse(b.get("callback_data", "")) for b in buttons]
    return [t for t in out if t and t.table == table_id]


async def let_windows_pass(tg: FakeTelegram, store: Store, table_id: str, users: list[FakeUser]) -> None:
    """Every person whose window before the first lead is open presses "Weiter" on his hand."""
    table = Table.load((await store.load(table_id))[1])
    for seat in table.declare or ():
        user = next(u for u in users if table.seats[seat].user == f"telegram:{u.id}")

        def ready(user: FakeUser = user):
            m = newest(tg, user.id, table_id)
            found = [t for t in table_tokens(m, table_id) if t.verb == "let_pass"] if m else []
            return (m, found[0]) if found else None
        message, token = await tg.wait_for(ready, what=f"{user.first_name}'s Weiter")
        await tg.wait_answer(user.press(message, data=str(token)))


def newest(tg: FakeTelegram, chat_id: int, table_id: str) -> Sent | None:
    """The newest message in ``chat_id`` with buttons of ``table_id``."""
    for m in reversed(tg.chat(chat_id)):
        if table_tokens(m, table_id):
            return m
    return None


async def press_verb(tg: FakeTelegram, user: FakeUser, chat_id: int, table_id: str, verb: str,
                     arg: str | None = None) -> dict:
    """Press the button with token ``verb`` (and ``arg``) on the newest table message in ``chat_id``; the answer."""
    def button():
        message = newest(tg, chat_id, table_id)
        for t in table_tokens(message, table_id) if message else []:
            if t.verb == verb and (arg is None or t.arg == arg):
                return message, str(t)
        return None
    message, data = await tg.wait_for(button, what=f"a {verb} button in {chat_id}")
    return await tg.wait_answer(user.press(message, data=data))


async def open_table(tg: FakeTelegram, chat_id: int, opener: FakeUser, joiners: list[FakeUser], game: str,
                     *args: str, command: str = "/neu", thread: int | None = None, computers: int = 0,
                     before_start: Callable[[], None] = lambda: None, paces: int = 0) -> str:
    """``opener`` opens a table for ``game`` in ``chat_id``, the ``joiners`` press Join, he adds
    ``computers`` computer players, presses the pace button ``paces`` times (once: Fernspiel),
    ``before_start()`` runs, then he starts the game.

    Returns the table id (read from the table message's buttons).
    """
    before = {m.message_id for m in tg.chat(chat_id)}
    opener.send(chat_id, " ".join([command, game, *args]), thread)

    def table_id():
        for m in tg.chat(chat_id):
            if m.message_id not in before:
                found = [t for b in m.buttons if (t := tokens.parse(b.get("callback_data", ""))) and t.verb == "join"]
                if found:
                    return found[0].table
        return None
    tid = await tg.wait_for(table_id, what="the table message")
    steps = [(u, "join", None) for u in joiners] + [(opener, "bot", None)] * computers
    if paces:  # the pace button is among the options
        steps += [(opener, "opts", "1"), *[(opener, "pace", None)] * paces, (opener, "opts", "0")]
    for user, verb, arg in steps:
        seen = version(tg, chat_id, tid)
        answer = await press_verb(tg, user, chat_id, tid, verb, arg)
        assert not answer.get("text") and not answer.get("url"), answer
        await tg.wait_for(lambda: version(tg, chat_id, tid) > seen, what=f"the table to show the {verb}")
    before_start()
    await press_verb(tg, opener, chat_id, tid, "start")
    return tid


async def until(predicate: Callable[[], Awaitable[object]], what: str) -> None:
    """Wait until the coroutine ``predicate()`` says true (one that reads the store), at most :data:`PATIENCE`."""
    deadline = time.monotonic() + PATIENCE
    while not await predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def handled(tg: FakeTelegram, store: Store, update_ids: list[int]) -> None:
    """Wait until the bot has answered every one of the updates ``update_ids`` (the service marks each)."""
    keys = [f"telegram:{tg.bot_id}:{u}" for u in update_ids]

    async def all_seen() -> bool:
        return all([await store.seen(k) for k in keys])
    await until(all_seen, f"{len(keys)} updates handled")


async def written(tg: FakeTelegram, bot: TelegramBot) -> None:
    """Wait until every update sent to the bot so far is taken
    (:meth:`~tests.fakes.telegram.server.FakeTelegram.drained`) and handled, its effects written to the outbox in
    Redis (PTB's update queue joined: a handler writes them before it ends; :func:`handled` and an answer come
    before)."""
    await tg.drained()
    await bot.app.update_queue.join()


async def settled(tg: FakeTelegram, bot: TelegramBot) -> None:
    """Wait until every update sent to the bot so far is handled (:func:`written`) and everything it made is sent:
    the outbox read (its entries are deleted once their calls are made or queued) and the bot's queues empty."""
    await written(tg, bot)
    await drained(bot.service.outbox.redis, bot.service.outbox.prefix, "telegram")
    await bot.outbox.idle()


async def card_to_play(tg: FakeTelegram, store: Store, users: list[FakeUser],
                       table_id: str) -> tuple[FakeUser, Sent, str]:
    """The one of ``users`` to act, his hand message once it is current, and a button of it he may press."""
    watch = TurnWatch(store, table_id)
    await watch.look()
    user = next(u for u in users if watch.turn_of(u.id))

    def ready():
        hand = newest(tg, user.id, table_id)
        acts = [t for t in (table_tokens(hand, table_id) if hand else []) if t.verb == "act"
                and t.version >= watch.since and t.arg in watch.allowed]
        return (hand, str(acts[0])) if acts else None
    hand, token = await tg.wait_for(ready, what=f"{user.first_name}'s hand")
    return user, hand, token


def version(tg: FakeTelegram, chat_id: int, table_id: str) -> int:
    """The table version the newest table message in ``chat_id`` shows (-1 if none)."""
    message = newest(tg, chat_id, table_id)
    return markup_version(message.markup, table_id) if message else -1


def markup_version(markup: dict | None, table_id: str) -> int:
    """The table version the buttons of ``markup`` (a message's or a call's ``reply_markup``) carry (-1 if none)."""
    buttons = [b for row in (markup or {}).get("inline_keyboard", []) for b in row]
    return max((t.version for t in _tokens(buttons, table_id)), default=-1)


class Players:
    """Simulated humans who play their hands by pressing buttons in their private chats.

    They know the rules and watch the table (:class:`~tests.servicekit.TurnWatch`): each presses
    only when it is his turn, a careful one only a card or choice he may play, a curious one any
    button of his hand (a card he may not play is refused with the reason, and not pressed again
    while the table stays as it is).

    Args:
        tg: the fake server.
        users: the players.
        table_id: the table they play at.
        store: where they read whose turn it is.
        seed: for their random choices.
        careful: press only playable cards and choices.
        think: each press waits a random time in this range of seconds, as people think.
        sensible: choose what the game's heuristic computer player would (if it is a button he
            may press), as people who mean to win do, instead of any button at random (which
            gives up or folds as often as it bids, and ends deals early).
    """

    def __init__(self, tg: FakeTelegram, users: list[FakeUser], table_id: str, store: Store, seed: int = 0,
                 careful: bool = False, think: tuple[float, float] = (0.0, 0.0), sensible: bool = False):
        self.tg = tg
        self.sensible = sensible
        self.think = think
        self.users = users
        self.table_id = table_id
        self.watch = TurnWatch(store, table_id)
        self.rng = random.Random(seed)
        self.careful = careful
        self.presses: list[tuple[int, str, dict]] = []
        self._refused: set[tuple[int, str, int]] = set()
        self._moved: dict[int, int] = {}
        """The table version each person saw when he made his last move."""

    async def play(self, until: Callable[[], bool], timeout: float = 120.0) -> None:
        """Everybody plays until ``until()`` holds (``AssertionError`` after ``timeout``)."""
        deadline = time.monotonic() + timeout
        await self.watch.look()
        await watched(self.watch.run(changed=self.tg.touch), [self._player(u, until, deadline) for u in self.users])
        assert until(), f"the game did not end in time; last presses {self.presses[-4:]}; hands: " + " | ".join(
            f"{u.first_name}: {self.tg.last(u.id).text!r}" for u in self.users if self.tg.chat(u.id))

    def _choices(self, user: FakeUser, message: Sent | None) -> list[tokens.Token]:
        """The buttons he may try at his turn, once the table shows his last move: of this table, not refused
        at this version of the table; a careful player only those he may play."""
        watch = self.watch
        if not watch.turn_of(user.id) or watch.version <= self._moved.get(user.id, -1):
            return []  # not his turn, or the table does not show his last move yet
        out = [t for t in (table_tokens(message, self.table_id) if message else [])
               if (user.id, str(t), watch.version) not in self._refused]
        return watch.choices(user.id, out, self.careful)

    def _hand(self, user: FakeUser) -> Sent | None:
        """His newest hand message (in a private chat table the table message is there too)."""
        for m in reversed(self.tg.chat(user.id)):
            found = table_tokens(m, self.table_id)
            if found and not any(t.verb == "hand" for t in found):
                return m
        return None

    async def press(self, user: FakeUser, message: Sent, token: str) -> dict:
        """Press ``token`` on ``message`` in his private chat; the answer's parameters."""
        return await self.tg.wait_answer(user.press(message, data=token))

    async def _player(self, user: FakeUser, until: Callable[[], bool], deadline: float) -> None:
        while not until() and time.monotonic() < deadline:
            def ready():
                if until():
                    return True
                message = self._hand(user)
                choices = self._choices(user, message)
                return (message, choices) if choices else None
            got = None
            with contextlib.suppress(AssertionError):  # out of time: play() says what the game came to
                got = await self.tg.wait_for(ready, deadline - time.monotonic(), f"a choice for {user.first_name}")
            if not isinstance(got, tuple):
                return
            message, choices = got
            token, seen = self.watch.pick(choices, self.rng, self.sensible), self.watch.version
            if self.think[1] > 0:  # a person looks at the hand before pressing
                await asyncio.sleep(self.rng.uniform(*self.think))
            answer = await self.press(user, message, str(token))
            self.presses.append((user.id, str(token), answer))
            if answer.get("text"):
                self._refused.add((user.id, str(token), seen))
            else:
                self._moved[user.id] = seen
