"""Discord REST calls per card, peak edits per channel, answer times and table lag; prints figures.

Simulated members play at ``--tables`` tables at once (four each, in their own channels) by
pressing the buttons on their hands, each thinking a random time in ``--think`` before a press
(``0-0``: as fast as they can); the real bot (discord.py, service, store on a real Redis) talks
to the fake Discord of the tests, which enforces 5 messages or edits per channel per 5 s and
answers 429 beyond. ``--scale`` shrinks the windows (the channel's, and the bot's own pacing
under Discord's global limit of 50 a second) and the think times by that factor (1 = Discord's
real limits; 0.25 plays four times faster at the same ratios).

    .venv/bin/python bench/discord.py [--game bauerchen] [--tables 20] [--deals 1] [--scale 0.25]
                                      [--think 1-5] [--seed 1] [--sensible] [--trace calls.txt] [--quick]

Printed: REST calls per card played (every call but logging in and syncing the commands, the
interaction responses included), by route, and those that count against Discord's global limit
(all but the interaction responses and their follow-ups, which it leaves out); the peak number
of messages and edits to one channel in any window (a table channel, and a DM); 429 answers; the time from an interaction's dispatch
to the bot's answer (p50, p99, max); and the lag of the channel's table message: for each
accepted card or decision, how long until the table message showed it (real seconds at scale 1,
so divided by ``--scale``), or its deal's result post showed it (``table_lag_s``; the table message alone:
``table_message_lag_s``). Aims: at most 2 calls per card, the peak within the limit, no 429,
p99 under 250 ms, the table never more than 5 s behind. ``--trace FILE`` writes every call made while
they played, one a line (:func:`write_trace`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])  # not bench/, whose discord.py would shadow the SDK

from adapters.common.gate import DISCORD_GLOBAL  # noqa: E402
from adapters.discord.tuning import Tuning  # noqa: E402
from bench.quick import parse  # noqa: E402
from bench.telegram import after_end, behind, peak, scratch_store, spread, table_ends, think_range  # noqa: E402
from bot.ops.settings import load_settings  # noqa: E402
from bot.protocol import tokens  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.store.outbox import Outbox  # noqa: E402
from tests.fakes.reading import drained  # noqa: E402
from tests.fakes.discord.harness import FAST, Players, fake_for, open_table, running_bot  # noqa: E402

GUILD = 82_000_000_000_000_000
NAMES = ["Anna", "Ben", "Cleo", "Dora"]
INTERACTION_ROUTES = ("/interactions", "/webhooks")
"""Answers to interactions and their follow-ups: not bound by Discord's global rate limit."""


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))] if ordered else 0.0


def route(call, dms: set[int]) -> str:
    """A call's method and route, and whether it went to a DM or a server channel."""
    where = "" if call.channel is None else " (DM)" if call.channel in dms else " (channel)"
    return f"{call.method} {call.route}{where}"


def table_versions(fake, channel_id: int, table_id: str) -> list[tuple[float, int]]:
    """When the channel's table messages showed which table version: (time, version), every version of each."""
    out = []
    for m in fake.seen_by(0, channel_id):
        for at, (_, components) in zip(m.times, m.history):
            found = [t.version for row in components for b in row.get("components", [])
                     if (t := tokens.parse(b.get("custom_id", ""))) and t.table == table_id]
            if found:
                out.append((at, max(found)))
    return out


def results_shown(fake, channel_id: int, presses: list[tuple[float, int, int]]) -> list[tuple[float, int]]:
    """When a deal's result was posted in the channel (a message without buttons while they played: nothing else is
    posted here) and the table version it shows: that of the last press accepted before it, the deal's last card.
    It shows the last trick and the result, and the table message may wait behind it for the next deal's first move."""
    out = []
    for m in fake.seen_by(0, channel_id):
        made = [v for at, where, v in presses if where == channel_id and m.times and at <= m.times[0]]
        if not m.components and made:
            out.append((m.times[0], max(made)))
    return out


async def accepted(fake, store, channels: dict[str, int], since: set[int]) -> list[tuple[float, int, int]]:
    """Every accepted press of a card or decision: (answered at, its channel, the table version it made)."""
    made = {}
    for tid in channels:
        for entry in map(json.loads, await store.log(tid)):
            made[(entry["by"], entry["cmd"])] = entry["v"] + 1  # the entry names the version it was made on
    out = []
    for iid, rec in fake.interactions.items():
        custom_id = rec.payload.get("data", {}).get("custom_id", "")
        tok = tokens.parse(custom_id)
        version = made.get((f"discord:{rec.user.id}", custom_id))
        answered = (rec.response or {}).get("type") in (6, 7)  # not a refusal (4), not too late
        if iid not in since and tok and tok.verb == "act" and version is not None and answered:
            out.append((rec.answered_at, channels[tok.table], version))
    return out


async def bench(game: str, tables: int, deals: int, scale: float, think: tuple[float, float] = (0.0, 0.0),
                seed: int | None = None, sensible: bool = False, trace: Path | None = None) -> dict:
    """Play ``deals`` deals of ``game`` at ``tables`` tables at once, four people at each (``seed``: the
    shuffle's, for the same deals in every run; by default they are dealt at random; ``sensible``:
    people choose what the game's heuristic would, else any button at random; ``trace``: a file that
    gets every call made while they played)."""
    tuning = FAST.model_copy(update={"channel_window_s": 5.0 * scale, "slack_s": 0.02 * scale,
                                     "lazy_s": Tuning().lazy_s * scale, "partial_s": Tuning().partial_s * scale,
                                     "table_lazy_s": Tuning().table_lazy_s * scale,
                                     "global_window_s": DISCORD_GLOBAL[1] * scale, "tick_interval_s": 1.0})
    think = (think[0] * scale, think[1] * scale)
    channels = [GUILD + 100 + i for i in range(tables)]
    async with scratch_store() as (redis, prefix, store):
        async with fake_for(tuning) as fake:
            fake.guild(GUILD, "Stammtisch Bench", {c: f"tisch-{i}" for i, c in enumerate(channels)})
            seats = [[fake.member(10_000 + 10 * t + i, f"{n}{t}") for i, n in enumerate(NAMES)]
                     for t in range(tables)]
            service = Service(store, load_settings(), rng=random.Random(seed),
                              outbox=Outbox(redis, prefix)) if seed is not None else None
            async with running_bot(fake, store, redis, prefix, tuning, service=service) as bot:
                ids = await asyncio.gather(*(open_table(fake, c, ms[0], ms[1:], game)
                                             for c, ms in zip(channels, seats)))
                await drained(redis, prefix, "discord")  # every effect read from the outbox, then sent
                await bot.idle()  # the first hands are dealt: from here on, the cards cost
                first, t0 = len(fake.calls), time.monotonic()
                since = {iid for iid in fake.interactions}
                async with table_ends(store, ids, deals, fake.touch) as ended:
                    await asyncio.gather(*(Players(fake, ms, c, tid, store, seed=i, careful=True, think=think,
                                                   sensible=sensible).play(lambda tid=tid: tid in ended, timeout=3600)
                                           for i, (c, ms, tid) in enumerate(zip(channels, seats, ids))))
                await drained(redis, prefix, "discord")  # every effect read from the outbox, then sent
                await bot.idle()
                elapsed = time.monotonic() - t0
                table_of = dict(zip(channels, ids)) | {fake.dm_of[m.id]: tid for ms, tid in zip(seats, ids)
                                                       for m in ms if m.id in fake.dm_of}
                grace = tuning.partial_s / 2
                calls, after = [], []
                for c in fake.rest_calls():
                    if c.at >= t0:
                        (after if after_end(c.at, table_of.get(c.channel), ended, grace) else calls).append(c)
                acks = [r.answered_at - r.created for iid, r in fake.interactions.items()
                        if iid not in since and r.answered_at is not None]
                cards = 0
                for tid in ids:
                    moves = [m for e in await store.log(tid) for m in json.loads(e)["moves"]]
                    cards += sum(1 for m in moves if m.get("a", {}).get("action") == "play")
                late = len(fake.calls) - first
                presses = await accepted(fake, store, dict(zip(ids, channels)), since)
                shown = {c: table_versions(fake, c, tid) for c, tid in zip(channels, ids)}
                alone = [seconds for _, seconds in behind(shown, presses, time.monotonic())]
                lags = behind({c: v + results_shown(fake, c, presses) for c, v in shown.items()}, presses,
                              time.monotonic())
                lag = [seconds for _, seconds in lags]
                if trace is not None:
                    write_trace(trace, fake, sorted(calls + after, key=lambda c: c.at), t0, dict(lags), scale,
                                {id(c) for c in after})
    sends = [c for c in calls if c.channel is not None and c.status == 200 and c.method in ("POST", "PATCH", "DELETE")]
    window = tuning.channel_window_s
    dms = set(fake.dm_of.values())
    by_channel = {ch: [c.at for c in sends if c.channel == ch] for ch in {c.channel for c in sends}}
    return {
        "game": game, "tables": tables, "deals": deals, "choices": "sensible" if sensible else "random",
        "scale": scale,
        "think_s": f"{think[0] / scale:g}-{think[1] / scale:g}", "seconds": round(elapsed, 1),
        "cards": cards, "rest_calls": len(calls), "not_counted_after_end": len(after),
        "calls_per_card": round(len(calls) / max(cards, 1), 2),
        "global_limit_calls_per_card": round(sum(1 for c in calls if not c.route.startswith(INTERACTION_ROUTES))
                                             / max(cards, 1), 2),
        "by_route": {r: sum(1 for c in calls if route(c, dms) == r) for r in sorted({route(c, dms) for c in calls})},
        "peak_table_channel_per_window": max((peak(by_channel.get(c, []), window) for c in channels), default=0),
        "peak_any_channel_per_window": max((peak(v, window) for v in by_channel.values()), default=0),
        "channel_limit": f"{tuning.channel_messages} per {window:g} s",
        "answers_429": sum(1 for c in fake.calls[first:first + late] if c.status == 429),
        "interactions": len(acks),
        "ack_ms": {"p50": round(1000 * statistics.median(acks), 1) if acks else None,
                   "p99": round(1000 * percentile(acks, 0.99), 1), "max": round(1000 * max(acks, default=0), 1)},
        "table_lag_s": spread(lag, scale),
        "table_message_lag_s": spread(alone, scale),
    }


def write_trace(path: Path, fake, calls: list, t0: float, lag_at: dict[float, float], scale: float,
                uncounted: set[int] = frozenset()) -> None:
    """One line per call, in seconds since the play began at scale 1: method, route's last part, status, where
    (``channel``/``DM`` of whom, or ``answer``), the text's first line and the buttons' labels; an answer also
    names the interaction (who pressed what, on his DM or in the channel, the response type: 7 updates the
    message pressed on, 6 acknowledges, 4 is a refusal) and, for an accepted press, how long until its table
    message showed it (``lag_at``: by the answer's time). An edit whose text and labels are those of the
    channel's last edit (a table that changed only its buttons' versions) is marked ``unchanged``, a call whose
    ``id`` is in ``uncounted`` (made after its table's last counted deal ended) ``not counted``."""
    owner = {dm: fake.members[user].name for user, dm in fake.dm_of.items()}
    last: dict[int, tuple] = {}
    with path.open("w") as out:
        for c in calls:
            data = c.body.get("data", c.body) if c.route.endswith("/callback") else c.body
            text = (data.get("content") or "").splitlines()
            labels = [b.get("label") or b.get("emoji", {}).get("name", "?")
                      for row in data.get("components") or [] for b in row.get("components", [])]
            same = c.method == "PATCH" and last.get(c.channel) == (text, labels)
            last[c.channel] = (text, labels)
            if c.interaction is not None:
                rec = fake.interactions[c.interaction]
                tok = tokens.parse(rec.payload.get("data", {}).get("custom_id", ""))
                where = (f"answer:{c.body.get('type', '-')} {rec.user.name} {tok.verb if tok else '?'}"
                         f"{f'={tok.arg}' if tok and tok.arg else ''} on {'DM' if rec.channel_id in owner else 'table'}")
            else:
                where = f"DM:{owner[c.channel]}" if c.channel in owner else f"channel:{c.channel}"
            lag = lag_at.get(fake.interactions[c.interaction].answered_at) if c.interaction is not None else None
            out.write(f"{(c.at - t0) / scale:8.2f} {c.method} {c.route.rsplit('/', 1)[-1]} {c.status} {where} "
                      f"{text[0][:60] if text else ''!r} {labels}{f' lag={lag / scale:.2f}' if lag is not None else ''}"
                      f"{' unchanged' if same else ''}{' not counted' if id(c) in uncounted else ''}\n")


def main() -> None:
    """Parse the arguments, run the benchmark, print the figures as JSON."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="bauerchen")
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--deals", type=int, default=1)
    p.add_argument("--scale", type=float, default=0.25, help="window scale: 1 = Discord's real limit")
    p.add_argument("--think", type=think_range, default=(0.0, 0.0), help="seconds a person thinks per press: LO-HI")
    p.add_argument("--seed", type=int, default=None, help="deal the same cards in every run")
    p.add_argument("--sensible", action="store_true",
                   help="people choose what the game's heuristic would (else any button at random)")
    p.add_argument("--trace", type=Path, help="write every call made during the play to this file, one a line")
    args = parse(p, tables=1, deals=1, scale=0.01)
    print(json.dumps(asyncio.run(bench(args.game, args.tables, args.deals, args.scale, args.think, args.seed,
                                       args.sensible, args.trace)), indent=2))


if __name__ == "__main__":
    main()
