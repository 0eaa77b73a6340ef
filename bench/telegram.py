"""Telegram API calls per card, peak message rates and table lag with tables of 4 players; prints figures.

Simulated people play by pressing the buttons in their private chats, each thinking a random
time in ``--think`` before a press (``0-0``: as fast as they can); the real bot
(python-telegram-bot, service, store on a real Redis) talks to the fake Bot API server of the
tests, which enforces Telegram's limits (20 messages a minute per group, one a second per chat,
``--global-per-s`` in all chats of the token) and answers 429 when they are exceeded.
``--scale`` shrinks every window and think time by the same factor (1 = Telegram's real limits;
0.25 plays four times faster at the same ratios). ``--tables N`` runs N tables at once, each in
its own group with its own four people. ``--webhook`` runs the bot in webhook mode: the fake POSTs
the updates to the bot's webhook server and carries out a method the bot returns in the HTTP
reply (the answer to a press), as Telegram does. People press any button they may at random, or
with ``--sensible`` what the game's heuristic computer player would (random people often fold or
give up, so deals end early and each deal's own messages weigh more per card).
``--seed`` deals the same cards and makes the same choices, as far as the order of concurrent
moves allows; ``--trace FILE`` writes every call made while they played, with each press's lag.
``--web-share 0.25`` puts that share of each table's people on the web table: their own seat's page
is noted open (so the bot holds their private hands back) and they tap there, as the web table
carries a tap out (the service, then the chats' delivery; no callback query). ``--tables 8,16,24``
plays each count in turn and adds ``most_tables_within_5s``: the most tables whose group table showed
99% of the presses within 5 s (p99 of the lag, in real seconds).

    .venv/bin/python bench/telegram.py [--game bauerchen] [--deals 2] [--scale 0.25] [--humans 4]
                                       [--think 1-5] [--tables 1[,N...]] [--web-share 0] [--global-per-s 30] [--webhook]
                                       [--trace calls.txt] [--seed 1] [--sensible] [--quick]

Printed: ``calls_per_card``, the Bot API calls per card played that the bot made over HTTP
(every call but getUpdates and the start-up calls), by method in ``by_method``; the methods that
rode on webhook replies instead (``reply_methods``, not HTTP calls of the bot) and
``calls_per_card_with_replies``, the figure counting them too; the peak
number of messages to a group in any group window, to one chat in any chat window and to all
chats in any global window, the number of 429 answers, and the lag of the group table: for each
accepted press, how long until the group's table message showed the move (real seconds at scale
1, so divided by ``--scale``). Aims: at most 2 calls per card; no 429; the group table never more
than 5 s behind. Everything runs in this one process: ``process_cpu_share`` says how busy it was
(near 1: it ran out of CPU, and the lag tells about the machine, not the bot), ``loop_stalls``
how often and how long its event loop stood still (on a shared machine, a process that gets no
CPU for a while), and ``group_table_lag_without_stalls_s`` the lag with those stalls taken out.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import random
import secrets
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])  # not bench/, whose telegram.py would shadow the SDK

from adapters.telegram import Tuning  # noqa: E402
from adapters.web.serve import through_outbox  # noqa: E402
from bench.quick import parse  # noqa: E402
from bot.ops.settings import load_settings  # noqa: E402
from bot.protocol import tokens  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.store.connection import connect  # noqa: E402
from bot.store.tables import Store  # noqa: E402
from bot.protocol.outgoing import ChatRef, Command, Toast, UserRef  # noqa: E402
from bot.table.record import Table  # noqa: E402
from bot.words.hand import hand_message  # noqa: E402
from engine import from_json  # noqa: E402
from tests.fakes.reading import drained  # noqa: E402
from tests.fakes.telegram import VIA_REPLY  # noqa: E402
from tests.fakes.telegram.harness import FAST, Players, fake_for, open_table, running_bot  # noqa: E402
from tests.servicekit import on_saves  # noqa: E402

START_UP = {"getMe", "getUpdates", "setMyCommands", "deleteWebhook", "setWebhook"}
SENDS = {"sendMessage", "editMessageText"}
NAMES = ["Anna", "Ben", "Cleo", "Dora"]


@contextlib.asynccontextmanager
async def scratch_store():
    """``(redis, prefix, store)`` on ``REDIS_URL`` (an embedded Redis if unset) under a fresh key
    prefix, whose keys are removed at the end."""
    with tempfile.TemporaryDirectory() as tmp:
        redis = await connect(load_settings(data_dir=Path(tmp)))
        prefix = f"bench{secrets.token_hex(4)}"
        try:
            yield redis, prefix, Store(redis, prefix=prefix)
        finally:
            keys = [k async for k in redis.scan_iter(match=f"{prefix}:*")]
            if keys:
                await redis.unlink(*keys)
            await redis.aclose()


@contextlib.asynccontextmanager
async def table_ends(store: Store, table_ids: list[str], deals: int, touch: Callable[[], None]):
    """While the block runs, when each table's last counted deal ended (``deals`` played, or it no longer plays),
    read on its saves: a dict of table id to that moment; ``touch()`` after each end (the people may stop)."""
    ended: dict[str, float] = {}

    def marker(table_id: str) -> Callable[[], Awaitable[None]]:
        async def mark() -> None:
            loaded = await store.load(table_id)
            table = Table.load(loaded[1]) if loaded else None
            if table is None or table.deals >= deals or table.status != "playing":
                ended.setdefault(table_id, time.monotonic())
                touch()
        return mark
    markers = [asyncio.ensure_future(on_saves(store, table_id, marker(table_id))) for table_id in table_ids]
    try:
        yield ended
    finally:
        for task in markers:
            task.cancel()
        await asyncio.gather(*markers, return_exceptions=True)


def after_end(at: float, table_id: str | None, ended: dict[str, float], grace: float) -> bool:
    """Whether a call made ``at`` for ``table_id`` came more than ``grace`` seconds after its table's last counted
    deal ended (the next deal's hands, held for a move nobody makes once the people stop: not counted)."""
    return table_id in ended and at > ended[table_id] + grace


def peak(times: list[float], window: float) -> int:
    """The largest number of ``times`` within any window of ``window`` seconds."""
    times, best, lo = sorted(times), 0, 0
    for hi, t in enumerate(times):
        while times[lo] <= t - window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def behind(shown: dict, presses: list[tuple[float, object, int]], end: float) -> list[tuple[float, float]]:
    """For every press (answered at ``t``, at the table message ``where``, needing ``version``): ``(t, seconds)``
    until ``shown[where]`` (the table message's (time, version) shown) reached that version (``end`` if never)."""
    out = []
    for t, where, version in presses:
        seen = [s for s, v in shown[where] if v >= version and s >= t]
        out.append((t, (min(seen) if seen else end) - t))
    return out


class Stalls:
    """Notes when this process's event loop did not run for a while (the machine gave it no CPU, or
    something blocked it): the bot, the fake Telegram and the players stand still together then."""

    def __init__(self, tick: float = 0.02, least: float = 0.1):
        self.tick, self.least = tick, least
        self.spans: list[tuple[float, float]] = []

    async def watch(self) -> None:
        """Run until cancelled, keeping every stall longer than ``least`` as a (start, end) span."""
        while True:
            before = time.monotonic()
            await asyncio.sleep(self.tick)
            late = time.monotonic() - before - self.tick
            if late > self.least:
                self.spans.append((before + self.tick, before + self.tick + late))

    def within(self, start: float, end: float) -> float:
        """Seconds of stall between ``start`` and ``end``."""
        return sum(max(0.0, min(end, b) - max(start, a)) for a, b in self.spans)


class WebPage:
    """What a player's web page shows of his hand: its buttons, as :func:`table_tokens` reads a message's."""

    def __init__(self, buttons: list[dict]):
        self.buttons = buttons


class OnWeb(Players):
    """:class:`Players` of whom those in ``on_web`` have their own seat's web page open and tap there: they see the
    hand the page shows (rendered from the stored table at every save), and each tap is carried out as the web
    table carries one out (the service, then its effects through the outbox: :func:`through_outbox`). Their pages
    are noted open and renewed as the web table does (``service.seated_pages``)."""

    def __init__(self, *args, on_web: set[int], service, store, **kw):
        super().__init__(*args, store=store, **kw)
        self.on_web, self.service, self.store = on_web, service, store
        self.after = through_outbox(service)
        self._pages: dict[int, WebPage] = {}

    async def play(self, until, timeout: float = 120.0) -> None:
        """As :meth:`Players.play`, the pages kept current and noted open meanwhile."""
        tasks = [asyncio.ensure_future(on_saves(self.store, self.table_id, self._render)),
                 asyncio.ensure_future(self._renew())]
        try:
            await super().play(until, timeout)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            pages = [(f"telegram:{u}", "bench") for u in self.on_web]
            await self.service.seated_pages(self.table_id, [], pages)  # the pages close: their hands catch up

    async def _renew(self) -> None:
        while True:
            await self.service.seated_pages(self.table_id, [(f"telegram:{u}", "bench") for u in self.on_web])
            await asyncio.sleep(10.0)

    async def _render(self) -> None:
        version, data = await self.store.load(self.table_id)
        table = Table.load(data)
        state = from_json(table.state) if table.state else None
        for user in self.on_web:
            seat = table.seat_of(f"telegram:{user}")
            if state is not None and seat is not None:
                shown = hand_message(table, state, seat, version)
                self._pages[user] = WebPage([{"text": b.label, "callback_data": b.token}
                                             for row in shown.buttons for b in row])
        self.tg.touch()

    def _hand(self, user):
        return self._pages.get(user.id) if user.id in self.on_web else super()._hand(user)

    async def press(self, user, message, token: str) -> dict:
        if user.id not in self.on_web:
            return await super().press(user, message, token)
        who = UserRef("telegram", str(user.id), user.first_name)
        outs = await self.service.handle(Command(ChatRef("telegram", str(user.id), private=True), who, token=token))
        await self.after(outs)
        toast = next((o for o in outs if isinstance(o, Toast) and o.user.key == who.key), None)
        return {"text": toast.text} if toast else {}


def lags(tg, groups: dict[str, int], made: dict[tuple[str, str], int], end: float) -> list[tuple[float, float]]:
    """For every accepted press: when it was answered and the seconds until its group's table message showed
    the version it made.

    ``made`` maps (user key, token) of each move-log entry to that version: a card of a hand carries
    the version at which the hand last changed, not the table's, so the token alone does not say it.
    """
    shown: dict[int, list[tuple[float, int]]] = {g: [] for g in groups.values()}
    for t, m, p, status in tg.calls:
        if m in SENDS and status == 200 and int(p["chat_id"]) in shown:
            for row in (p.get("reply_markup") or {}).get("inline_keyboard", []):
                versions = [tok.version for b in row if (tok := tokens.parse(b.get("callback_data", "")))]
                if versions:
                    shown[int(p["chat_id"])].append((t, max(versions)))
                    break
    presses = []
    for t, m, p, status in tg.calls:
        if m != "answerCallbackQuery" or p.get("text") or p.get("url"):
            continue
        pressed = tg.pressed(p["callback_query_id"])
        tok = tokens.parse(pressed["data"])
        version = made.get((f"telegram:{pressed['user']}", pressed["data"]))
        if tok is not None and tok.verb == "act" and tok.table in groups and version is not None:
            presses.append((t, groups[tok.table], version))
    return behind(shown, presses, end)


async def bench(game: str, deals: int, scale: float, humans: int = 4, think: tuple[float, float] = (0.0, 0.0),
                tables: int = 1, global_per_s: int = 30, webhook: bool = False, trace: Path | None = None,
                seed: int | None = None, sensible: bool = False, web_share: float = 0.0) -> dict:
    """Play ``deals`` deals of ``game`` at ``tables`` tables at once, ``humans`` people each, computers in the rest
    (``trace``: a file that gets every call made while they played; ``seed``: the same cards and choices
    in every run, as far as the order of concurrent moves allows; ``sensible``: people choose as the game's
    heuristic would, else at random; ``web_share``: the share of each table's people on the web table)."""
    tuning = FAST.model_copy(update={"group_window_s": 60.0 * scale, "chat_window_s": 1.0 * scale,
                                     "global_messages": global_per_s, "global_window_s": 1.0 * scale,
                                     "slack_s": 0.02 * scale, "lazy_s": Tuning().lazy_s * scale,
                                     "table_lazy_s": Tuning().table_lazy_s * scale,
                                     "table_trick_s": Tuning().table_trick_s * scale,
                                     "hand_wait_s": Tuning().hand_wait_s * scale,
                                     "tick_interval_s": 1.0})
    think = (think[0] * scale, think[1] * scale)
    async with scratch_store() as (redis, prefix, store):
        async with fake_for(tuning, patience=600) as tg:
            seated = []
            for i in range(tables):
                group = tg.group(-100200300 - i, f"Stammtisch {i}")
                users = [tg.user(1000 + 10 * i + k, name, started=True) for k, name in enumerate(NAMES)]
                seated.append((group, users[:humans]))
            service = Service if seed is None else functools.partial(Service, rng=random.Random(seed))
            web = {"web_url": "https://example.org/web"} if web_share else {}
            async with running_bot(tg, store, redis, prefix, tuning, webhook=webhook, service=service, **web) as bot:
                opened = await asyncio.gather(*(open_table(tg, group, users[0], users[1:], game,
                                                           computers=4 - humans) for group, users in seated))
                ids = {table_id: group for table_id, (group, _) in zip(opened, seated)}
                await drained(redis, prefix, "telegram")  # every effect read from the outbox, then sent
                await bot.outbox.idle()
                first = len(tg.calls)
                stalls = Stalls()
                watcher = asyncio.ensure_future(stalls.watch())
                t0, cpu0 = time.monotonic(), time.process_time()

                async def play(i: int, table_id: str, users, ended: dict[str, float]) -> None:
                    on_web = {u.id for u in users[len(users) - round(len(users) * web_share):]}
                    players = OnWeb(tg, users, table_id, careful=True, think=think, sensible=sensible,
                                    seed=len(users) + int(table_id, 36) % 997 if seed is None else seed + i,
                                    on_web=on_web, service=bot.service, store=store)
                    await players.play(lambda: table_id in ended, timeout=7200)

                async with table_ends(store, list(ids), deals, tg.touch) as ended:
                    await asyncio.gather(*(play(i, tid, users, ended)
                                           for i, (tid, (_, users)) in enumerate(zip(ids, seated))))
                await drained(redis, prefix, "telegram")  # every effect read from the outbox, then sent
                await bot.outbox.idle()
                elapsed, cpu = time.monotonic() - t0, time.process_time() - cpu0
                watcher.cancel()
                table_of = {chat: tid for tid, (group, users) in zip(ids, seated)
                            for chat in (group, *(u.id for u in users))}
                grace = tuning.lazy_s / 2  # a hand held for a move nobody makes any more goes after lazy_s
                made, after = [], []
                for c in tg.calls[first:]:
                    if c[1] not in START_UP:
                        at_end = after_end(c[0], table_of.get(int(c[2].get("chat_id") or 0)), ended, grace)
                        (after if at_end else made).append(c)
                calls = [c for c in made if not c[2].get(VIA_REPLY)]
                replies = [c for c in made if c[2].get(VIA_REPLY)]
                cards, versions = 0, {}
                for table_id in ids:
                    entries = [json.loads(e) for e in await store.log(table_id)]
                    versions.update({(e["by"], e["cmd"]): e["v"] + 1 for e in entries})  # made on version v
                    cards += sum(1 for e in entries for m in e["moves"] if m.get("a", {}).get("action") == "play")
                behind = lags(tg, ids, versions, time.monotonic())
                if trace is not None:
                    write_trace(trace, made, t0, set(ids.values()), dict(behind), scale)
    def by_method(some: list) -> dict[str, int]:
        return {m: sum(1 for c in some if c[1] == m) for m in sorted({c[1] for c in some})}

    sends = [(t, int(p["chat_id"])) for t, m, p, status in calls if m in SENDS and status == 200]
    groups = set(ids.values())
    chats = {c for _, c in sends}
    return {
        "game": game, "mode": "webhook" if webhook else "long polling", "tables": tables, "humans": humans,
        "deals": deals, "choices": "sensible" if sensible else "random", "scale": scale, "web_share": web_share,
        "think_s": f"{think[0] / scale:g}-{think[1] / scale:g}",
        "seconds": round(elapsed, 1), "cards": cards,
        "api_calls": len(calls), "not_counted_after_end": len(after),
        "calls_per_card": round(len(calls) / max(cards, 1), 2),
        "by_method": by_method(calls),
        "reply_methods": by_method(replies),
        "calls_per_card_with_replies": round(len(made) / max(cards, 1), 2),
        "group_messages": sum(1 for _, c in sends if c in groups),
        "private_messages": sum(1 for _, c in sends if c not in groups),
        "peak_group_per_window": max((peak([t for t, c in sends if c == g], tuning.group_window_s) for g in groups),
                                     default=0),
        "group_limit": f"{tuning.group_messages} per {tuning.group_window_s:g} s",
        "peak_chat_per_window": max((peak([t for t, c in sends if c == chat], tuning.chat_window_s) for chat in chats),
                                    default=0),
        "chat_limit": f"{tuning.chat_messages} per {tuning.chat_window_s:g} s",
        "peak_global_per_window": peak([t for t, _ in sends], tuning.global_window_s),
        "global_limit": f"{global_per_s} per {tuning.global_window_s:g} s",
        "answers_429": len(tg.violations),
        "group_table_lag_s": spread([lag for _, lag in behind], scale),
        "group_table_lag_p99_s": round(sorted(lag for _, lag in behind)[int(0.99 * (len(behind) - 1))] / scale, 2)
        if behind else None,
        "process_cpu_share": round(cpu / elapsed, 2),
        "loop_stalls": {"count": len(stalls.spans), "max_s": round(max((b - a for a, b in stalls.spans), default=0.0)
                                                                   / scale, 2)},
        "group_table_lag_without_stalls_s": spread([lag - stalls.within(t, t + lag) for t, lag in behind], scale),
    }


def spread(values: list[float], scale: float) -> dict:
    """Median and maximum of ``values`` in seconds at scale 1."""
    values = sorted(values)
    return {"median": round(values[len(values) // 2] / scale, 2) if values else None,
            "max": round(values[-1] / scale, 2) if values else None}


def write_trace(path: Path, calls: list, t0: float, groups: set[int], lag_at: dict[float, float], scale: float) -> None:
    """One line per call: seconds since the play began, method (``+reply`` if it rode on a webhook
    reply), status, where (``group``/``private`` and the chat id), the text's first line and buttons,
    and for an accepted press the lag of its group's table (``lag_at``: by the answer's time; at scale 1)."""
    with path.open("w") as out:
        for t, method, p, status in calls:
            chat = int(p.get("chat_id") or 0)
            rows = (p.get("reply_markup") or {}).get("inline_keyboard", [])
            out.write(f"{t - t0:8.2f} {method}{'+reply' if p.get(VIA_REPLY) else ''} {status} "
                      f"{'group' if chat in groups else 'private'}:{chat} "
                      f"{(p.get('text') or '').splitlines()[0][:60] if p.get('text') else ''!r} "
                      f"{[b['text'] for row in rows for b in row]}"
                      f"{f' lag={lag_at[t] / scale:.2f}' if t in lag_at else ''}\n")


def counts(text: str) -> list[int]:
    """``"8,16,24"`` as [8, 16, 24]."""
    return [int(n) for n in text.split(",")]


def think_range(text: str) -> tuple[float, float]:
    """``"1-5"`` as (1.0, 5.0); ``"2"`` as (2.0, 2.0)."""
    lo, _, hi = text.partition("-")
    return float(lo), float(hi or lo)


def main() -> None:
    """Parse the arguments, run the benchmark, print the figures as JSON."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="bauerchen")
    p.add_argument("--deals", type=int, default=2)
    p.add_argument("--scale", type=float, default=0.25, help="window scale: 1 = Telegram's real limits")
    p.add_argument("--humans", type=int, default=4, choices=range(1, 5),
                   help="people at the table; computers sit in the other seats")
    p.add_argument("--think", type=think_range, default=(0.0, 0.0), help="seconds a person thinks per press: LO-HI")
    p.add_argument("--tables", type=counts, default=[1],
                   help="tables played at once, one group each; several (8,16,24): each in turn, and the most served")
    p.add_argument("--web-share", type=float, default=0.0,
                   help="the share of each table's people whose own seat's web page is open (they tap there)")
    p.add_argument("--global-per-s", type=int, default=30, help="messages per second per token in all chats")
    p.add_argument("--webhook", action="store_true", help="webhook mode: press answers ride on the HTTP reply")
    p.add_argument("--trace", type=Path, help="write every call made during the play to this file, one a line")
    p.add_argument("--seed", type=int, help="deal the same cards and make the same choices in every run")
    p.add_argument("--sensible", action="store_true",
                   help="people choose what the game's heuristic would (else any allowed button at random)")
    args = parse(p, deals=1, scale=0.01)
    runs = [asyncio.run(bench(args.game, args.deals, args.scale, args.humans, args.think, n, args.global_per_s,
                              args.webhook, args.trace, args.seed, args.sensible, args.web_share)) for n in args.tables]
    if len(runs) == 1:
        print(json.dumps(runs[0], indent=2))
        return
    served = [r["tables"] for r in runs if r["group_table_lag_p99_s"] is not None and r["group_table_lag_p99_s"] <= 5]
    print(json.dumps({"runs": runs, "most_tables_within_5s": max(served, default=0)}, indent=2))


if __name__ == "__main__":
    main()
