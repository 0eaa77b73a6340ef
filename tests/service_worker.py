"""A second OS process for the service tests.

``python -m tests.service_worker play URL PREFIX SEED TABLE:CHAT ...`` plays the given tables as all
four test users (:func:`tests.servicekit.hammer`) and prints the counts as JSON. It first says
``ready`` and waits for a line on standard input, so that several players start together
(:func:`play_together`).
``python -m tests.service_worker tick URL PREFIX NOW`` fires the timers due at NOW and prints the
notices it produced as JSON. ``URL`` may name a Redis Cluster (``redis+cluster://``).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

from bot.protocol.outgoing import ChatRef, Notice
from bot.store.connection import client_for
from bot.store.tables import Store
from tests.servicekit import hammer, service, user


async def main(mode: str, url: str, prefix: str, args: list[str]) -> None:
    client = client_for(url)
    try:
        store = Store(client, prefix=prefix)
        if mode == "play":
            print("ready", flush=True)
            sys.stdin.readline()  # the start shot: every player is loaded and connected
            seed = int(args[0])
            chat_of = {t: ChatRef("test", c) for t, c in (x.split(":") for x in args[1:])}
            print(json.dumps(await hammer(service(store, seed=seed), store, chat_of, [user(i) for i in range(4)], seed)))
        else:
            now = float(args[0])
            effects = await service(store, clock=lambda: now).tick(now)
            print(json.dumps([{"text": e.text, "mentions": [u.user_id for u in e.mentions]}
                              for e in effects if isinstance(e, Notice)]))
    finally:
        await client.aclose()


def play_together(url: str, prefix: str, seeds: tuple[int, ...], tables: list[str], timeout: float = 300) -> list[dict]:
    """Start one ``play`` process per seed, let them go at once when all are ready; their counts.

    Raises:
        AssertionError: a process failed (its standard error is the message).
    """
    procs = [subprocess.Popen([sys.executable, "-m", "tests.service_worker", "play", url, prefix, str(seed), *tables],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for seed in seeds]
    try:
        for p in procs:
            assert p.stdout.readline().strip() == "ready", p.communicate(timeout=timeout)[1]
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        outs = [p.communicate(timeout=timeout) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    for p, (_, err) in zip(procs, outs):
        assert p.returncode == 0, err
    return [json.loads(out) for out, _ in outs]


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]))
