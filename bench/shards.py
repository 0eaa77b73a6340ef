"""The fault suite's rolling restart of Discord shards (:mod:`bench.faults`): three real ``stammtisch run``
processes, each one shard of three (``DISCORD_SHARD_IDS``, ``DISCORD_SHARD_COUNT``), restarted one after another
while people play at ``tables`` tables.

Each table is in a guild of its own, the guilds spread over the three shards (``(guild id >> 22) % 3``); the hands
are direct messages, whose interactions Discord sends to shard 0. Four simulated people at each table press the
buttons of their hands (a person thinks :data:`~bench.rolling.THINK_S` before a press; a press that failed he makes
again). Once play is under way each shard is restarted in turn as docs/operating.md says: a replacement with the
same ``DISCORD_SHARD_IDS`` starts, and once it serves, the old process gets SIGTERM; meanwhile the fake Discord
sends the shard's interactions to both, as Discord does.

Counted: presses lost (dropped by Discord with no session of their shard connected; never answered; refused with
"technical problem" or "failed"; answered as taken yet their move not in the table's log; and a table whose channel
message does not show its last move once the bot is done); messages doubled (a message posted to a channel a second
time in a row with the same content and buttons, or a table message posted again). The notes give the longest stall
(from a press's answer until its table message showed its move; without this process's own stalls), the refusals,
the second answers Discord refused (40060: both processes answered), how long each SIGTERM took to end its process
and each replacement to serve.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time

from bench.discord import accepted, table_versions
from bench.rolling import PLAY_S, THINK_S, BotProcess, bot_env, ended, one_row, settled
from bench.telegram import Stalls, behind
from bot.store.connection import client_for
from bot.store.tables import Store
from bot.words import t
from tests.fakes.discord.harness import FAST, Players, fake_for, open_table, table_tokens, version
from tests.fakes.telegram.harness import tuning_env

__all__ = ["rolling_shards"]

SHARDS = 3
TUNING = FAST.model_copy(update={"global_window_s": 0.25})
"""The tests' shrunk channel windows and the bot's 50 calls in a quarter second: the row measures the restarts, not
the budget."""
MARKER = "serving Discord"
"""The log line of a process whose shards are ready."""
_ANSWER_S = 30.0
"""How long a person waits for the answer to a press before he counts it as never answered."""
_WRONG = ("technical_problem", "failed")
"""Refusals that are the bot's fault, not the press's."""


class _Patient(Players):
    """:class:`Players` who count a press never answered (after :data:`_ANSWER_S`) instead of waiting on."""

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.unanswered: list[str] = []

    async def press(self, member, message, custom_id: str) -> dict:
        pressed = member.press(message, custom_id)
        try:
            return await self.fake.answer(pressed, _ANSWER_S)
        except asyncio.TimeoutError:
            self.unanswered.append(pressed)
            return {"type": None, "error": None}


def _doubled(fake, channels: dict[str, int]) -> int:
    """Messages posted to a channel a second time in a row with the same content and buttons, and table messages
    posted again in their channel."""
    last: dict[int, tuple] = {}
    twice = 0
    for m in sorted(fake.messages.values(), key=lambda m: m.id):
        if m.for_user is None:
            shown = (m.history[0][0], json.dumps(m.history[0][1], sort_keys=True))
            twice += last.get(m.channel_id) == shown
            last[m.channel_id] = shown
    for table_id, channel in channels.items():
        twice += max(0, sum(1 for m in fake.seen_by(0, channel) if table_tokens(m, table_id)) - 1)
    return twice


async def rolling_shards(url: str, tables: int, quick: bool, row) -> None:
    """Fill ``row`` (see the module): three shard processes restarted one after another during ``tables`` tables,
    play going on for :data:`~bench.rolling.PLAY_S` before the first restart and after the last (``quick``: 1 s)."""
    play_s = 1.0 if quick else PLAY_S
    url = url.rsplit("/", 1)[0] + "/1"  # a database of its own: ``stammtisch run`` keeps its keys under ``st``
    client = client_for(url)
    store = Store(client)
    procs: list[BotProcess] = []
    try:
        async with fake_for(TUNING, ack_window_s=3.0) as fake:
            guilds = [((i + 1) << 22) | 7 for i in range(tables)]  # table i's guild is on shard (i + 1) % 3
            for i, guild in enumerate(guilds):
                fake.guild(guild, f"Stammtisch {i}", {guild + 1: "karten"})
            seated = [[fake.member(60_000 + 10 * i + k, f"{name}{i}") for k, name in enumerate("ABCD")]
                      for i in range(tables)]
            with tempfile.TemporaryDirectory() as data:
                env = bot_env(url, data, **tuning_env(TUNING), DISCORD_TOKEN=fake.token,
                              DISCORD_API_BASE_URL=fake.base_url, DISCORD_GATEWAY_URL=fake.gateway_url,
                              DISCORD_SHARD_COUNT=str(SHARDS))
                shard_env = [{**env, "DISCORD_SHARD_IDS": str(k)} for k in range(SHARDS)]
                procs = [BotProcess(e, MARKER) for e in shard_env]
                await asyncio.gather(*(p.started() for p in procs))
                opened = await asyncio.gather(*(open_table(fake, g + 1, ms[0], ms[1:], "bauerchen")
                                                for g, ms in zip(guilds, seated)))
                channels = {tid: g + 1 for tid, g in zip(opened, guilds)}
                since = set(fake.interactions)
                stop = [False]
                players = [_Patient(fake, ms, g + 1, tid, store, seed=i, careful=True, think=THINK_S)
                           for i, (tid, g, ms) in enumerate(zip(opened, guilds, seated))]
                playing = asyncio.gather(*(p.play(lambda: stop[0], timeout=3600) for p in players))
                stalls = Stalls()  # this process's own: its people and the fake Discord stand still then
                watcher = asyncio.ensure_future(stalls.watch())
                await asyncio.sleep(play_s)
                starting, stopping = [], []
                for k in range(SHARDS):
                    procs.append(BotProcess(shard_env[k], MARKER))
                    starting.append(await procs[-1].started())
                    stopping.append(await procs[k].stopped())
                    row.faults += 1
                procs = procs[SHARDS:]
                await asyncio.sleep(play_s)
                stop[0] = True
                fake.touch()
                await playing
                watcher.cancel()
                await settled(lambda: fake.calls[-1].at if fake.calls else None)
                await _count(fake, store, channels, players, since, row, stalls)
                row.notes[-1] += (f"; start to serving {', '.join(f'{s:.1f}' for s in starting)} s; SIGTERM to exit "
                                  f"{', '.join(f'{s:.1f}' for s in stopping)} s")
    finally:
        await ended(procs, client)


async def _count(fake, store: Store, channels: dict[str, int], players: list[_Patient], since: set[int], row,
                 stalls: Stalls) -> None:
    """Lost, doubled and the note of the row, once the bot is done."""
    made = {}
    for table_id in channels:
        made.update({(e["by"], e["cmd"]): e["v"] + 1 for e in map(json.loads, await store.log(table_id))})
    answers = [(u, token, answer) for p in players for u, token, answer in p.presses]
    taken = [(u, token) for u, token, answer in answers if answer.get("type") in (6, 7)]
    missing = sum((f"discord:{u}", token) not in made for u, token in taken)
    refusals = [answer["data"].get("content") for *_, answer in answers if answer.get("type") == 4]
    wrong = sum(text in {t("de", key) for key in _WRONG} for text in refusals)
    unanswered = [i for p in players for i in p.unanswered if fake.interactions[int(i)].response is None]
    short = sum([version(fake, c, tid) < (await store.load(tid))[0] for tid, c in channels.items()])
    row.lost += len(fake.lost) + len(unanswered) + wrong + missing + short
    row.doubled += _doubled(fake, channels)
    shown = {c: table_versions(fake, c, tid) for tid, c in channels.items()}
    lags = behind(shown, await accepted(fake, store, channels, since), time.monotonic())
    twice = sum(1 for c in fake.calls if c.route.startswith("/interactions") and c.status == 400)
    longest = max((lag for _, lag in lags), default=0)
    own = max((lag - stalls.within(at, at + lag) for at, lag in lags), default=0)
    row.notes.append(
        f"{len(channels)} tables, {len(taken)} presses taken ({missing} not in their table), {len(fake.lost)} "
        f"lost by Discord with no session of their shard, {len(unanswered)} never answered, {len(refusals)} refused "
        f"({wrong} as the bot's trouble), {short} table messages short of their last move; second answers refused "
        f"(40060) {twice}; longest stall of {len(lags)} moves {longest:.1f} s (without this process's own stalls "
        f"{own:.1f} s)")


def main() -> None:
    """``.venv/bin/python -m bench.shards [--tables 50] [--quick]``: the row alone, on a Redis server of its own."""
    one_row(__doc__, "rolling restart of three Discord shards during {tables} tables", rolling_shards)


if __name__ == "__main__":
    main()
