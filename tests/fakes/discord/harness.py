"""The real bot on the fake Discord: wiring, and simulated members who press the buttons they see.

:func:`running_bot` starts the whole stack in this process: the real store on the test's Redis
prefix, the real service, the real discord.py client talking HTTP and WebSocket to the fake.
:class:`Players` are simulated people: each looks at the newest hand he sees (his DMs, or his
ephemeral hand in the channel) and presses one of its buttons, one press at a time, waiting for
the answer; each presses only at his turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from adapters.discord import DiscordBot, Tuning
from bot.ops.settings import load_settings
from bot.protocol import tokens
from bot.service import Service
from bot.store.outbox import Outbox
from bot.store.ratelimit import Limiter
from bot.store.tables import Store
from bot.table.record import Table
from tests.fakes.reading import drained, reading
from tests.servicekit import TurnWatch, watched

from .server import FakeDiscord, Member, Msg

__all__ = ["FAST", "fake_for", "running_bot", "settled", "table_tokens", "table_message", "hand_of", "let_windows_pass",
           "press", "press_verb", "open_table", "version", "Players"]

FAST = Tuning(channel_messages=5, channel_window_s=0.25, slack_s=0.01, lazy_s=0.03, partial_s=0.03, table_lazy_s=0.03,
              ack_deadline_s=2.0, tick_interval_s=0.2)
"""Discord's limit per channel with the window shrunk (the same count), for games played in seconds."""


def fake_for(tuning: Tuning, **kw) -> FakeDiscord:
    """A fake server enforcing the same channel limit the adapter is tuned to."""
    return FakeDiscord(channel_limit=(tuning.channel_messages, tuning.channel_window_s), **kw)


@asynccontextmanager
async def running_bot(fake: FakeDiscord, store: Store, redis, key_prefix: str, tuning: Tuning = FAST,
                      service: Service | None = None, clock: Callable[[], float] = time.time,
                      reads: bool = True, **settings) -> AsyncIterator[DiscordBot]:
    """The whole bot, connected to the fake, until the block ends (``clock``: the service's time), wired as
    ``stammtisch run`` wires it: its effects go through the Discord outbox in Redis, read here
    (:func:`~tests.fakes.reading.reading`; not ``reads``: another reader takes it); a ``service`` given brings
    its own outbox, or none."""
    conf = load_settings(discord_token=fake.token, discord_api_base_url=fake.base_url,
                         discord_gateway_url=fake.gateway_url, **settings)
    service = service or Service(store, conf, clock=clock, outbox=Outbox(redis, key_prefix))
    bot = DiscordBot(conf, service, store, tuning, Limiter(redis, prefix=key_prefix))
    await bot.start()
    try:
        async with reading(bot, redis, key_prefix, "discord") if reads else contextlib.nullcontext():
            yield bot
    finally:
        await bot.stop()


async def settled(bot: DiscordBot) -> None:
    """Wait until every interaction under way is handled and everything it made is sent: handled (a handler writes
    its effects to the outbox in Redis before it ends), the outbox read (its entries are deleted once their calls are
    made or queued) and the bot's queues empty. The answer to an interaction comes before the rest."""
    await bot.idle()
    outbox = bot.service.outbox
    if outbox is not None:
        await drained(outbox.redis, outbox.prefix, "discord")
        await bot.outbox.idle()


def table_tokens(message: Msg | None, table_id: str) -> list[tokens.Token]:
    """The parsed tokens of ``message``'s buttons that belong to ``table_id``."""
    out = [tokens.parse(c) for c in (message.custom_ids() if message else [])]
    return [t for t in out if t and t.table == table_id]


def table_message(fake: FakeDiscord, channel_id: int, table_id: str) -> Msg | None:
    """The newest public message in the channel with buttons of ``table_id``."""
    return next((m for m in reversed(fake.seen_by(0, channel_id)) if table_tokens(m, table_id)), None)


def hand_of(fake: FakeDiscord, member: Member, channel_id: int, table_id: str) -> Msg | None:
    """The newest hand ``member`` sees: a DM or an ephemeral message for him in the channel."""
    seen = fake.dms(member.id) + [m for m in fake.seen_by(member.id, channel_id) if m.for_user == member.id]
    mine = [m for m in seen if m.for_user is None or table_tokens(m, table_id)]  # not a refusal
    return max(mine, key=lambda m: m.id) if mine else None


async def let_windows_pass(fake: FakeDiscord, store: Store, channel_id: int, table_id: str,
                           members: list[Member]) -> None:
    """Every member whose window before the first lead is open presses "Weiter" on his hand."""
    table = Table.load((await store.load(table_id))[1])
    for seat in table.declare or ():
        member = next(m for m in members if table.seats[seat].user == f"discord:{m.id}")

        def shown(member: Member = member):
            hand = hand_of(fake, member, channel_id, table_id)
            found = [t for t in table_tokens(hand, table_id) if t.verb == "let_pass"]
            return (hand, str(found[0])) if found else None
        hand, token = await fake.wait_for(shown, what=f"{member.name}'s Weiter")
        await press(fake, member, hand, token)


async def press(fake: FakeDiscord, member: Member, message: Msg, custom_id: str) -> dict:
    """Press a button and return the bot's response to the interaction."""
    return await fake.answer(member.press(message, custom_id))


async def press_verb(fake: FakeDiscord, member: Member, channel_id: int, table_id: str, verb: str,
                     arg: str | None = None) -> dict:
    """Press the button with ``verb`` (and ``arg``) on the table message; the response."""
    def button():
        message = table_message(fake, channel_id, table_id)
        found = [t for t in table_tokens(message, table_id) if t.verb == verb and (arg is None or t.arg == arg)]
        return (message, str(found[0])) if found else None
    message, token = await fake.wait_for(button, what=f"a {verb} button")
    return await press(fake, member, message, token)


def version(fake: FakeDiscord, channel_id: int, table_id: str) -> int:
    """The table version the table message shows (-1 if none)."""
    return max((t.version for t in table_tokens(table_message(fake, channel_id, table_id), table_id)), default=-1)


async def open_table(fake: FakeDiscord, channel_id: int, opener: Member, joiners: list[Member], game: str,
                     paces: int = 0, **options) -> str:
    """``opener`` runs ``/new game``, the ``joiners`` press Join, the opener presses the pace button ``paces``
    times (once: Fernspiel) and Start; the table id."""
    answer = await fake.answer(opener.slash(channel_id, "new", game=game, **options))
    assert answer["data"]["flags"] & 64 and answer["data"]["content"] == "✅", answer

    def table_id():
        found = [t for m in fake.seen_by(0, channel_id) for t in map(tokens.parse, m.custom_ids())
                 if t and t.verb == "join"]
        return found[-1].table if found else None
    tid = await fake.wait_for(table_id, what="the table message")
    steps = [(m, "join", None) for m in joiners]
    if paces:  # the pace button is among the options
        steps += [(opener, "opts", "1"), *[(opener, "pace", None)] * paces, (opener, "opts", "0")]
    for member, verb, arg in steps:
        seen = version(fake, channel_id, tid)
        answer = await press_verb(fake, member, channel_id, tid, verb, arg)
        assert answer["type"] in (6, 7), answer  # 7: the answer shows the new table
        await fake.wait_for(lambda: version(fake, channel_id, tid) > seen, what=f"the {verb} shown")
    await press_verb(fake, opener, channel_id, tid, "start")
    return tid


class Players:
    """Simulated members who play their hands by pressing buttons on the hands they see.

    They know the rules and watch the table (:class:`~tests.servicekit.TurnWatch`): each presses
    only when it is his turn, a careful one only a card or choice he may play, a curious one any
    button of his hand (a card he may not play is refused with the reason, and not pressed again
    while the table stays as it is).

    Args:
        fake: the fake server.
        members: the players.
        channel_id: where the table is.
        table_id: the table they play at.
        store: where they read whose turn it is.
        seed: for their random choices.
        careful: press only the playable cards and choices.
        think: each press waits a random time in this range of seconds, as people think.
        sensible: choose what the game's heuristic computer player would (if it is a button he
            may press) instead of any button at random (which folds as often as it bids).
    """

    def __init__(self, fake: FakeDiscord, members: list[Member], channel_id: int, table_id: str, store: Store,
                 seed: int = 0, careful: bool = False, think: tuple[float, float] = (0.0, 0.0),
                 sensible: bool = False):
        self.careful = careful
        self.sensible = sensible
        self.think = think
        self.fake = fake
        self.members = members
        self.channel_id = channel_id
        self.table_id = table_id
        self.watch = TurnWatch(store, table_id)
        self.rng = random.Random(seed)
        self.presses: list[tuple[int, str, dict]] = []
        self._refused: set[tuple[int, str, int]] = set()
        self._moved: dict[int, int] = {}
        """The table version each member saw when he made his last move."""

    async def play(self, until: Callable[[], bool], timeout: float = 120.0) -> None:
        """Everybody plays until ``until()`` holds (``AssertionError`` after ``timeout``)."""
        deadline = time.monotonic() + timeout
        await self.watch.look()
        try:
            await watched(self.watch.run(changed=self.fake.touch),
                          [self._player(m, until, deadline) for m in self.members])
        except AssertionError as exc:
            raise AssertionError(f"{exc}; last presses {self.presses[-4:]}; hands: " + " | ".join(
                f"{m.name}: {(hand_of(self.fake, m, self.channel_id, self.table_id) or m).__dict__.get('content')!r} "
                f"{getattr(hand_of(self.fake, m, self.channel_id, self.table_id), 'custom_ids', list)()}"
                for m in self.members)) from None
        assert until(), f"the game did not end in time; last presses {self.presses[-4:]}"

    async def press(self, member: Member, message: Msg, custom_id: str) -> dict:
        """One press and the bot's response to it."""
        return await press(self.fake, member, message, custom_id)

    def _choices(self, member: Member) -> tuple[Msg | None, list[tokens.Token]]:
        message = hand_of(self.fake, member, self.channel_id, self.table_id)
        watch = self.watch
        if not watch.turn_of(member.id) or watch.version <= self._moved.get(member.id, -1):
            return message, []  # not his turn, or the table does not show his last move yet
        out = [t for t in table_tokens(message, self.table_id) if (member.id, str(t), watch.version) not in self._refused]
        return message, watch.choices(member.id, out, self.careful)

    async def _player(self, member: Member, until: Callable[[], bool], deadline: float) -> None:
        if not member.dms_open:
            answer = await press_verb(self.fake, member, self.channel_id, self.table_id, "hand")
            assert answer["type"] == 4 and answer["data"]["flags"] & 64, answer
        while not until() and time.monotonic() < deadline:
            def ready():
                if until():
                    return True
                message, choices = self._choices(member)
                return (message, choices, self.watch.version) if choices else None
            got = await self.fake.wait_for(ready, what=f"a choice for {member.name}",
                                           timeout=max(0.1, deadline - time.monotonic()))
            if got is True:
                return
            message, choices, seen = got
            token = self.watch.pick(choices, self.rng, self.sensible)
            if self.think[1] > 0:  # a person looks at the hand before pressing
                await asyncio.sleep(self.rng.uniform(*self.think))
                if until():  # the play ended meanwhile (a bench counts the deals it asked for, no move of the next)
                    return
            answer = await self.press(member, message, str(token))
            self.presses.append((member.id, str(token), answer))
            if answer["type"] == 4:
                self._refused.add((member.id, str(token), seen))
            elif answer["type"] is not None:  # None: answered too late (a loaded machine); he looks again
                self._moved[member.id] = seen
