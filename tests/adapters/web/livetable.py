"""A web table of four people served from a thread of its own, and its page driven in browser windows.

Selenium blocks; the server, the service and their Redis client live on an event loop in a thread
of :class:`LiveTable`, so the windows' pushes go on while a test waits in a window. The table is a
real one (the service on real Redis, :func:`~tests.adapters.web.webkit.table_of_four`), each window
opens the page with its own credential, and everything is done by clicking what the page shows.
Used by the browser tests, ``bench/web.py`` and ``scripts/screens``.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import quote

import redis.asyncio as aioredis

import engine
from adapters.common.webauth import WATCH, sign
from adapters.web import Tuning
from bot.store.tables import Store
from bot.table.record import Table
from tests.adapters.web.browser import wait_for
from tests.adapters.web.webkit import GROUP, SECRET, person, started, table_of_four
from tests.servicekit import Players, button, press, say, service, table_msg

__all__ = ["LiveTable", "table_with_computers", "SHORT", "play_out_for_him", "Seen", "seen", "moves_of", "click", "tap_once", "play_deal", "PREFERRED"]

START_S = 30.0
"""The longest the table may take to be ready (or to stop)."""


SHORT = {
    "bauernstoss": ("target=4", None),
    "alter_schafkopf": ("target=3", None),
    "bauerchen": ("", {"score": [9, 9], "knoddel": [1, 1], "steine": [0, 0]}),
    "bauer": ("short_deck=1", {"score": [2, 2], "brote": [2, 2]}),
    "rams": ("target=2", None),
}
"""A short match of each game, as ``LiveTable(options=..., match=...)``: small targets, or a match near its end (a
Bauerchen round at 9 : 9 with a Knoddel each, Bauer's third Brot at 2 : 2); with :data:`LiveTable`'s seed 5 and one
person, each lasts more than one deal."""


async def play_out_for_him(live: "LiveTable") -> None:
    """The person's moves from another device (the service, as a chat's buttons) until the match is over."""
    players = Players(live.service, GROUP, [person(0)], seed=7)
    await players.send(say(GROUP, person(0), "karten"))
    await players.play_out()


async def table_with_computers(svc, game: str, people: int, options: str = "") -> str:
    """A started table in :data:`GROUP` of ``game`` (typed ``options``): :func:`person` 0 to ``people - 1`` and
    computers in the other seats; its id."""
    users = [person(i) for i in range(people)]
    players = Players(svc, GROUP, users)
    table = table_msg(await players.send(say(GROUP, users[0], f"neu {game} {options}".strip())))
    for u in users[1:]:
        table = table_msg(await players.send(press(GROUP, u, button(table, "join").token)))
    for _ in range(engine.game_class(game).DEFAULT_PLAYERS - people):
        await players.send(say(GROUP, users[0], "computer"))
    await players.send(say(GROUP, users[0], "los"))
    return table.table_id


class LiveTable:
    """People (:func:`~tests.adapters.web.webkit.person` 0..3) at a started table, served on 127.0.0.1.

    Use as a context manager; :meth:`page` is a seat's page URL with a link token of his.

    Args:
        redis_url: the Redis server.
        prefix: the key prefix of the table's keys (deleted afterwards).
        game: the game of the table.
        seed: the shuffle's seed.
        tuning: the web table's limits.
        lang: the group's language (``sprache``), which the table speaks.
        people: how many people sit at it (the first seats); computers take the others.
        options: the table's options as typed after ``neu GAME`` (``target=2``).
        match: the match as it stands before the first deal, in a replay file's shape (``{"score": [10, 10]}``):
            a match near its end, short to play.
        settings: the service's settings besides (``review_samples=2``).
    """

    def __init__(self, redis_url: str, prefix: str, game: str = "bauerchen", seed: int = 5,
                 tuning: Tuning | None = None, lang: str = "de", people: int = 4, options: str = "",
                 match: dict | None = None, **settings) -> None:
        self._redis_url, self._prefix, self._game, self._seed = redis_url, prefix, game, seed
        self._settings = settings
        self._tuning, self._lang = tuning, lang
        self.people, self._options, self._match = people, options, match
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="web-table", daemon=True)
        self.table = ""
        self.port = 0
        self.service = None
        self.server = None

    def __enter__(self) -> LiveTable:
        self._thread.start()
        self.run(self._start())
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.run(self._stop())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(START_S)
            self._loop.close()

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = START_S) -> Any:
        """Run ``coro`` on the table's event loop and return its result."""
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    async def _start(self) -> None:
        self._redis = aioredis.Redis.from_url(self._redis_url, decode_responses=True)
        self.service = service(Store(self._redis, prefix=self._prefix), seed=self._seed, reminder_after="off",
                               autoplay_after="off", **self._settings)
        if self._lang != "de":
            await self.service.handle(say(GROUP, person(0), f"sprache {self._lang}"))
        if self.people == 4 and not self._options:
            self.table = await table_of_four(self.service, self._game)
        else:
            self.table = await table_with_computers(self.service, self._game, self.people, self._options)
        if self._match is not None:
            await self._set_match(self._match)
        self.server = await started(self.service, self._tuning)
        self.port = self.server.port

    async def _set_match(self, match: dict) -> None:
        """Let the running deal start from ``match`` (checked as a replay file's ``match`` is)."""
        store = self.service.store
        version, data = await store.load(self.table)
        table = Table.load(data)
        state = engine.from_json(table.state)
        state.match = type(state).read_match(state.options, state.n, match)
        table.state = engine.to_json(state)
        saved = await store.save(self.table, version, table.dump(), user_keys=table.user_keys(),
                                 chat_key=table.chat.key)
        assert saved, "the table moved while its match was set"

    async def _stop(self) -> None:
        if self.server is not None:
            await self.server.stop()
        keys = [key async for key in self._redis.scan_iter(match=f"{self._prefix}:*", count=1000)]
        for start in range(0, len(keys), 500):
            await self._redis.unlink(*keys[start:start + 500])
        await self._redis.aclose()

    @property
    def base(self) -> str:
        """The server's address (``http://127.0.0.1:<port>``)."""
        return f"http://127.0.0.1:{self.port}"

    def page(self, seat: int, now: float | None = None, secret: bytes = SECRET) -> str:
        """The page of person ``seat`` with a link token of his (signed at ``now`` with ``secret``)."""
        token = sign(secret, self.table, "telegram", person(seat).user_id, time.time() if now is None else now)
        return f"{self.base}/?t={token}"

    def watch_page(self) -> str:
        """The page of a channel's link to watch: the table's public view (a watch token)."""
        return f"{self.base}/?t={sign(SECRET, self.table, 'discord', 'c42', time.time(), access=WATCH)}"

    def open_pages(self, open_one: Callable[[], Any]) -> list:
        """Open each seat's page in a window of its own (``open_one()`` makes one) and wait until each shows
        his hand; the windows by seat."""
        pages = []
        for seat in range(self.people):
            pages.append(open_one())
            pages[-1].get(self.page(seat))
        for window in pages:
            wait_for(window, lambda w: seen(w)["hand"], "the hand to show")
        return pages

    def stored(self) -> Table:
        """The table as it is stored now."""
        return Table.load(self.run(self.service.store.load(self.table))[1])

    def mini_app(self, init_data: str) -> str:
        """The page as Telegram opens a Mini App: the init data in the ``#tgWebAppData`` fragment."""
        return f"{self.base}/?table={self.table}#tgWebAppData={quote(init_data, safe='')}"


PREFERRED = ("let_pass", "nt", "ph", "pl", "ex", "gv", "pa", "an")
"""What a scripted player taps, best first (a verb or an action's code): »Weiter«, naming trump, playing his
Rams hand, a card of his hand he may play, give or discard, passing, and a bid only where he may not pass (never
a meld, doubling or going alone)."""

_SEEN = """
const cards = (box) => [...document.querySelectorAll(box + ' [data-card]')].map(e => e.dataset.card);
const seat = document.querySelector('#seats .seat.me');
return {version: Number(document.body.dataset.version || -1),
        me: seat ? Number(seat.dataset.seat) : -1,
        turn: !!document.querySelector('#seats .seat.me.turn'),
        hand: [...document.querySelectorAll('#hand button.card')].map(b => [b.dataset.card, !b.disabled, b.dataset.arg]),
        offers: [...document.querySelectorAll('#hand button.offer')].map(b => [b.dataset.verb, b.dataset.arg, b.textContent]),
        trick: cards('#trick'), last: cards('#last-trick'),
        notice: document.getElementById('notice').textContent,
        html: document.documentElement.outerHTML};
"""


class Seen(dict):
    """What one window shows (from its DOM): ``version``, ``me``, ``turn``, ``hand`` (card, enabled, arg),
    ``offers`` (verb, arg, label), ``trick``, ``last``, ``notice`` and the page's ``html``."""


def seen(window) -> Seen:
    """Read what ``window`` shows now."""
    return Seen(window.execute_script(_SEEN))


def moves_of(shown: Seen) -> list[tuple[str, str]]:
    """The taps ``shown`` offers that a scripted player makes, as (verb, arg), best first (see :data:`PREFERRED`)."""
    taps = [("act", arg) for _, enabled, arg in shown["hand"] if enabled]
    taps += [(verb, arg) for verb, arg, _ in shown["offers"] if verb == "let_pass" or _code(arg) in PREFERRED]
    return sorted(taps, key=lambda tap: PREFERRED.index(_code(tap[1]) or tap[0]))


def _code(arg: str) -> str:
    """The action code of a tap's argument (``pl`` of ``pl.AS``), ``""`` for none; a meld (``pl.KH.m``) has none here."""
    return "" if arg.endswith(".m") else arg.split(".")[0]


def click(window, verb: str, arg: str) -> None:
    """Click the card or offer of ``window`` that sends (``verb``, ``arg``)."""
    from selenium.webdriver.common.by import By

    window.find_element(By.CSS_SELECTOR, f'#hand button[data-verb="{verb}"][data-arg="{arg}"]').click()


def _synced(windows: list, version: int) -> Callable:
    """A condition: every window shows ``version`` or later."""
    return lambda _: all(seen(w)["version"] >= version for w in windows)


def tap_once(windows: list, rng: random.Random, clicker: Callable[[list, int, str, str], None] | None = None
             ) -> tuple[int, str, str] | None:
    """Make the next tap of the table by clicking in its player's window; ``(seat, verb, arg)``, or ``None``.

    ``windows[i]`` is seat ``i``'s page. The tap is »Weiter« where a window offers it, else a tap of the
    player to act (naming trump, or a card he may play, chosen by ``rng``); none when nobody has one.
    ``clicker(windows, seat, verb, arg)`` clicks instead of :func:`click` (to time it). Returns once every
    window shows the version the tap made.
    """
    shown = [seen(w) for w in windows]
    taps = {i: moves_of(s) for i, s in enumerate(shown)}
    mover = next((i for i, m in taps.items() if m and m[0][0] == "let_pass"), None)
    if mover is None:
        mover = next((i for i, s in enumerate(shown) if s["turn"] and taps[i]), None)
    if mover is None:
        return None
    best = _code(taps[mover][0][1])
    verb, arg = rng.choice([tap for tap in taps[mover] if _code(tap[1]) == best])
    version = max(s["version"] for s in shown)
    if clicker is None:
        click(windows[mover], verb, arg)
    else:
        clicker(windows, mover, verb, arg)
    wait_for(windows[0], _synced(windows, version + 1), f"the tap {arg or verb} of seat {mover} in every window")
    return mover, verb, arg


def play_deal(windows: list, rng: random.Random, on_card: Callable[[int, str, list[Seen]], None] = lambda *a: None,
              limit: int = 200) -> int:
    """Play the deal in the windows to its end by :func:`tap_once`; the number of cards played.

    ``on_card(seat, card, shown)`` is told each card played, with what every window shows once it has
    the move. The deal is over when the page's title (which names the deal) changes or nobody has a tap.
    """
    title = windows[0].title
    played = 0
    for _ in range(limit):
        if windows[0].title != title:
            return played
        tapped = tap_once(windows, rng)
        if tapped is None:
            return played
        seat, _, arg = tapped
        if arg.startswith("pl."):
            played += 1
            on_card(seat, arg.split(".")[1], [seen(w) for w in windows])
    raise AssertionError("the deal did not end")
