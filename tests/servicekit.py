"""Helpers for the service tests: players that press buttons, and the move-log audit."""

from __future__ import annotations

import asyncio
import json
import random
import time
import weakref
from collections.abc import Awaitable, Callable

from redis.exceptions import RedisError

import engine
from bot.ops.settings import load_settings
from bot.protocol import actarg, tokens
from bot.protocol.outgoing import ChatRef, Command, HandMessage, TableMessage, Toast, UserRef
from bot.service import Service
from bot.store.tables import Store
from bot.table import computer, window
from bot.table.record import Table
from bot.words import render
from bot.words.cards import card_label
from engine.actions import Action
from engine.cards import ALL_CARDS, card_str, cards_in, mask_of

GROUP = ChatRef("test", "g1", title="Stammtisch Lautern")
NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Gerd"]


def user(i: int) -> UserRef:
    """Test user number ``i``."""
    return UserRef("test", f"u{i}", NAMES[i % len(NAMES)])


def private(u: UserRef) -> ChatRef:
    """The private chat of ``u``."""
    return ChatRef(u.platform, u.user_id, title=u.name, private=True)


def hurried(since: float | None = None, factor: float = 60.0) -> Callable[[], float]:
    """A wall clock that runs ``factor`` times fast from ``since`` (default: now): a turn timer of
    minutes, the shortest the settings allow, runs out in seconds of real time."""
    start = time.time() if since is None else since
    return lambda: start + (time.time() - start) * factor


def service(store: Store, seed: int = 0, clock=time.time, **settings) -> Service:
    """A service with a seeded shuffle (tests only) and default settings."""
    return Service(store, load_settings(**settings), rng=random.Random(seed), clock=clock)


def say(chat: ChatRef, u: UserRef, text: str) -> Command:
    """A typed command."""
    verb, *args = text.split()
    return Command(chat, u, verb=verb, args=tuple(args))


def press(chat: ChatRef, u: UserRef, token: str, update: str = "") -> Command:
    """A button press."""
    return Command(chat, u, token=token, update_id=update)


def of(effects: list, kind: type) -> list:
    """The effects of one type."""
    return [e for e in effects if isinstance(e, kind)]


def table_msg(effects: list) -> TableMessage:
    """The one table message among ``effects``."""
    (msg,) = of(effects, TableMessage)
    return msg


def button(msg, verb: str):
    """The first button of ``msg`` whose token has ``verb``."""
    for row in msg.buttons:
        for b in row:
            tok = tokens.parse(b.token)
            if tok and tok.verb == verb:
                return b
    raise AssertionError(f"no {verb} button in {msg.text!r}")


def act_buttons(msg, allowed: frozenset[str] | None = None) -> list:
    """The buttons of ``msg`` that apply an engine action (with ``allowed``: only those whose action is one of
    these args, e.g. :func:`playable`'s)."""
    return [b for row in msg.buttons for b in row
            if ":act:" in b.token and (allowed is None or tokens.parse(b.token).arg in allowed)]


def typed(action: Action) -> str:
    """The typed command for an engine action (the text path of the service)."""
    words = {"pass": "weg", "let_partner_name": "partner", "die_letzte": "dieletzte", "spritz": "spritzen",
             "stoss": "stoßen", "ledig": "ledig", "karten_weg": "kartenweg", "take_blind": "blind"}
    d = action.to_dict()
    if action.kind == "play":
        return f"{'melde' if action.meld else 'spiel'} {d['card']}"
    if action.kind == "play_hand":
        return "spielen"
    if action.kind in ("give", "exchange"):
        return f"{'gib' if action.kind == 'give' else 'rauben'} {d['card']}"
    if action.kind in ("announce", "name_trump"):
        return f"{'ansagen' if action.kind == 'announce' else 'trumpf'} {d['suit']}"
    if action.kind == "solo":
        return f"solo {'klein' if action.size == 'small' else 'groß'}"
    return words[action.kind]


def playable(table: Table | None) -> tuple[str | None, frozenset[str]]:
    """The user key of the person to act at ``table`` (``None``: nobody, a computer, or people may still declare
    before the first lead) and the action args of the buttons he may press now: what a person who knows the
    rules sees on the table."""
    state = engine.from_json(table.state) if table and table.status == "playing" and table.state else None
    seat = state.to_act if state else None
    if seat is None or table.seats[seat].computer or table.declare:  # others may still declare: he waits
        return None, frozenset()
    return table.seats[seat].user, frozenset(actarg.encode(a) for a in engine.legal_actions(state))


class _Saves:
    """One feed of a store's saves shared by every :func:`on_saves` of the event loop (a feed holds a connection of
    the store's pool while it runs: fifty simulated tables watched three times each would take them all)."""

    def __init__(self, store: Store):
        self.news: dict[str, set[asyncio.Event]] = {}
        self.feed = store.feed(self._saved, self._gap)
        self.started = asyncio.Lock()

    def _saved(self, table_id: str, _version: int) -> None:
        for news in self.news.get(table_id, ()):
            news.set()

    def _gap(self) -> None:
        for each in self.news.values():
            for news in each:
                news.set()

    async def join(self, table_id: str, news: asyncio.Event) -> None:
        """Tell ``news`` of the saves of ``table_id`` from now on. A loaded Redis may time out the subscription: it is
        tried again (a watcher that gave up would leave its people waiting for a table that moves on)."""
        async with self.started:
            for wait in (0.1, 0.5, 1.0, 2.0, 0.0):
                try:
                    if not self.news:
                        await self.feed.start()
                    break
                except (RedisError, OSError, asyncio.TimeoutError):
                    if not wait:
                        raise
                    await asyncio.sleep(wait)
            self.news.setdefault(table_id, set()).add(news)

    async def leave(self, table_id: str, news: asyncio.Event) -> None:
        """Tell ``news`` nothing more; the last watcher to leave ends the subscription."""
        async with self.started:
            self.news[table_id].discard(news)
            if not self.news[table_id]:
                del self.news[table_id]
            if not self.news:
                await self.feed.stop()


_shared: weakref.WeakKeyDictionary[Store, _Saves] = weakref.WeakKeyDictionary()


async def on_saves(store: Store, table_id: str, look: Callable[[], Awaitable[None]]) -> None:
    """``await look()`` now and again whenever the store's feed tells a save of the table (or a break of
    the feed, after which saves may have gone untold), until cancelled; a look that Redis timed out is made again."""
    news = asyncio.Event()
    saves = _shared.get(store) or _shared.setdefault(store, _Saves(store))
    await saves.join(table_id, news)
    try:
        while True:
            news.clear()
            try:
                await look()
            except (RedisError, OSError, asyncio.TimeoutError):  # a loaded Redis timed the read out: look again
                await asyncio.sleep(0.1)
                continue
            await news.wait()
    finally:
        await saves.leave(table_id, news)


async def watched(watch: Awaitable[None], people: list[Awaitable[None]]) -> None:
    """Run ``people`` to their end with ``watch`` (a :meth:`TurnWatch.run`) beside them, cancelled after them. A watch
    that fails fails them at once: they would wait for a table they no longer see (until their deadline, silently)."""
    watcher = asyncio.ensure_future(watch)
    pending = {asyncio.ensure_future(p) for p in people}
    try:
        while pending:
            done, _ = await asyncio.wait(pending | {watcher}, return_when=asyncio.FIRST_COMPLETED)
            if watcher in done:
                watcher.result()
                raise AssertionError("the table's watch ended while people played")
            for task in done:
                task.result()
            pending -= done
    finally:
        for task in (watcher, *pending):
            task.cancel()
        await asyncio.gather(watcher, *pending, return_exceptions=True)  # none still reads the store when it closes


class TurnWatch:
    """What a person who knows the rules reads off a table as it goes: whose turn it is and what he may do.

    Read from the store (as a person reads the group's table message and knows which cards he may
    play); :meth:`run` keeps it current for simulated people who press buttons.
    """

    def __init__(self, store: Store, table_id: str):
        self.store = store
        self.table_id = table_id
        self.version = -1
        self.to_act: str | None = None
        self.since = 0
        self.allowed: frozenset[str] = frozenset()
        self.state: engine.State | None = None
        self.declaring: frozenset[str] = frozenset()
        """The platform ids of the people whose window before the first lead is open."""

    async def look(self) -> None:
        """Read the table once: its version, the user key of the person to act, the version his hand's
        buttons carry at least (:meth:`Table.hand_since`), the action args he may press and the game's
        state (all of it: what a sensible player makes of the table and his hand)."""
        loaded = await self.store.load(self.table_id)
        table = Table.load(loaded[1]) if loaded else None
        self.to_act, self.allowed = playable(table)
        self.declaring = frozenset(table.seats[s].user.partition(":")[2] for s in table.declare or ()) if table else \
            frozenset()
        self.state = engine.from_json(table.state) if self.to_act else None
        self.since = table.hand_since(table.seat_of(self.to_act)) if self.to_act else 0
        self.version = loaded[0] if loaded else -1

    async def run(self, changed: Callable[[], None] = lambda: None) -> None:
        """Look again after every save of the table (:func:`on_saves`) until cancelled; ``changed()`` after
        each look that found a new version."""
        async def look() -> None:
            seen = self.version
            await self.look()
            if self.version != seen:
                changed()
        await on_saves(self.store, self.table_id, look)

    def turn_of(self, user_id: object) -> bool:
        """Whether the person with platform id ``user_id`` is to act (or to declare before the first lead)."""
        return self.to_act is not None and self.to_act.partition(":")[2] == str(user_id) or self.declares(user_id)

    def declares(self, user_id: object) -> bool:
        """Whether the window before the first lead of the person with platform id ``user_id`` is open."""
        return str(user_id) in self.declaring

    def choices(self, user_id: object, shown: list[tokens.Token], careful: bool) -> list[tokens.Token]:
        """What a person presses among the ``shown`` buttons of his hand at his turn: in his window before the
        first lead "Weiter", else a card or choice (a ``careful`` one only those he may play)."""
        if self.declares(user_id):
            return [t for t in shown if t.verb == "let_pass"]
        out = [t for t in shown if t.verb == "act"]
        return [t for t in out if t.arg in self.allowed] if careful else out

    def pick(self, choices: list[tokens.Token], rng: random.Random, sensible: bool = False) -> tokens.Token:
        """The button a person presses among ``choices``: with ``sensible`` the game's heuristic computer
        player's choice if it is one of them (as people who mean to win play), else any at random."""
        state = self.state
        if sensible and state is not None:
            want = actarg.encode(computer.act("normal", state, state.to_act, rng))
            found = [t for t in choices if t.arg == want]
            if found:
                return found[0]
        return rng.choice(choices)


DECLARE_CHANCE = 0.02
"""How often a scripted person declares playing alone when his window before the first lead is open."""


def awaited_press(table: Table | None, hands: dict[str, HandMessage], rng: random.Random,
                  shown: TableMessage | None = None) -> tuple[str, object] | None:
    """The press ``table`` waits for, as ``(user key, button)``, by people who know the rules and hold ``hands``
    (the last hand message each was sent, by user key; ``shown``: the table message, whose offers they see too).

    Before the first lead a person whose window is open lets it pass (»Weiter«), now and then declares instead;
    else the person to act presses a button he may, chosen at random. ``None``: none of them can press (the
    table waits for a computer or a timer, or for someone whose hand is not among ``hands``).
    """
    if table is not None and table.declare:  # before the first lead: now and then declare, mostly let it pass
        key = table.seats[table.declare[0]].user
        if key not in hands:
            return None
        hand = hands[key]
        let_pass = next(b for row in hand.buttons for b in row if tokens.parse(b.token).verb == "let_pass")  # »Weiter«
        declare = [b for row in hand.buttons for b in row
                   if (a := actarg.decode(tokens.parse(b.token).arg)) and a.kind in window.DECLARE_KINDS]
        return key, (rng.choice(declare) if rng.random() < DECLARE_CHANCE else let_pass)
    key, allowed = playable(table)
    if key not in hands:
        return None
    buttons = act_buttons(hands[key], allowed) + (act_buttons(shown, allowed) if shown else [])
    return (key, rng.choice(buttons)) if buttons else None


async def let_windows_pass(svc: Service, store: Store, table_id: str, chat: ChatRef) -> list:
    """Every person whose window before the first lead is open lets it pass (``weiter``); the effects."""
    table = Table.load((await store.load(table_id))[1])
    return [e for seat in list(table.declare or ()) for e in await svc.handle(say(chat, table.user(seat), "weiter"))]


class Players:
    """Scripted people at one table: each keeps the last hand he was sent and presses its buttons."""

    def __init__(self, svc: Service, chat: ChatRef, users: list[UserRef], seed: int = 0, typing: float = 0.0):
        self.svc = svc
        self.chat = chat
        self.users = {u.key: u for u in users}
        self.hands: dict[str, HandMessage] = {}
        self.table: TableMessage | None = None
        self.rng = random.Random(seed)
        self.typing = typing
        self.effects: list = []

    def take(self, effects: list) -> list:
        """Remember the latest table and hands of ``effects``; check each hand goes to a player here."""
        self.effects += effects
        for e in effects:
            if isinstance(e, HandMessage):
                assert e.user.key in self.users, "a hand went to someone not at the table"
                self.hands[e.user.key] = e
            elif isinstance(e, TableMessage):
                self.table = e
        return effects

    async def send(self, cmd: Command) -> list:
        """Hand a command to the service and remember what came back."""
        return self.take(await self.svc.handle(cmd))

    async def sit_down(self, game: str) -> str:
        """The first of these people opens a table of ``game`` in their chat, the others join, he deals; its id."""
        first, *others = self.users.values()
        table = table_msg(await self.send(say(self.chat, first, f"neu {game}")))
        for u in others:
            table = table_msg(await self.send(press(self.chat, u, button(table, "join").token)))
        await self.send(press(self.chat, first, button(table, "start").token))
        return table.table_id

    async def to_act(self) -> tuple[UserRef, object] | None:
        """The person to act with a button he may press now, chosen at random: a card or decision of the
        last hand he was sent, or an offer of the table message (he knows the rules and sees the table)."""
        shown = [self.table] if self.table else list(self.hands.values())
        if not shown:
            return None
        loaded = await self.svc.store.load(shown[0].table_id)
        found = awaited_press(Table.load(loaded[1]) if loaded else None, self.hands, self.rng, self.table)
        return (self.users[found[0]], found[1]) if found else None

    async def step(self) -> list:
        """One move by the player to act (a pressed button, or the same action typed), or a tick of the
        turn timers while the computers are to act (they play one deal per command)."""
        mover = await self.to_act()
        if mover is None:
            return self.take(await self.svc.tick())
        u, b = mover
        if self.rng.random() < self.typing and ":act:" in b.token:
            action = actarg.decode(tokens.parse(b.token).arg)
            chat = self.chat
            return await self.send(say(chat, u, typed(action)))
        return await self.send(press(self.chat, u, b.token))

    async def play_out(self, limit: int = 5000) -> TableMessage:
        """Play until the match is over; return the final table message."""
        for _ in range(limit):
            if self.table is not None and "🏆" in self.table.text:
                return self.table
            effects = await self.step()
            assert not of(effects, Toast), [t.text for t in of(effects, Toast)]
        raise AssertionError("the match did not end")


async def audit(store: Store, table_id: str) -> dict:
    """Check a table's move log: versions 1, 2, 3 ... once each, every move legal, deals only after a
    finished deal, and the stored state is what the log replays to. Returns counts."""
    entries = [json.loads(e) for e in await store.log(table_id)]
    versions = [e["v"] for e in entries]
    assert versions == list(range(1, len(entries) + 1)), versions
    state = None
    moves = deals = 0
    for entry in entries:
        for m in entry["moves"]:
            if "deal" in m:
                assert state is None or engine.is_over(state), "a new deal before the last one ended"
                state = engine.from_json(m["deal"])
                deals += 1
            else:
                state, _ = engine.apply(state, m["s"], Action.from_dict(m["a"]))
                moves += 1
    version, data = await store.load(table_id)
    assert version == len(entries) + 1
    table = Table.load(data)
    if state is not None:
        assert engine.to_json(state) == table.state
    return {"moves": moves, "deals": deals, "saves": len(entries), "table": table}


async def hammer(svc: Service, store: Store, chat_of: dict[str, ChatRef], users: list[UserRef], seed: int,
                 max_presses: int = 100_000) -> dict:
    """Every user of every table as a task of its own: at his turn ask for the hand, press a legal button
    (sometimes twice, sometimes an old one) until the tables are finished. Returns what was applied and refused."""

    counts = {"applied": 0, "refused": 0, "presses": 0}

    async def one(table_id: str, u: UserRef, rng: random.Random) -> None:
        chat = chat_of[table_id]
        old: list[str] = []
        while counts["presses"] < max_presses:
            loaded = await store.load(table_id)
            if loaded is None or Table.load(loaded[1]).status != "playing":
                return
            table = Table.load(loaded[1])
            if table.seat_of(u.key) in (table.declare or ()):  # before the first lead: he lets it pass
                await svc.handle(say(chat, u, "weiter"))
                continue
            to_act, allowed = playable(table)
            hands = of(await svc.handle(Command(chat, u, verb="hand")), HandMessage) if to_act == u.key else []
            buttons = act_buttons(hands[0], allowed) if hands else []
            if not buttons:
                await asyncio.sleep(0.001 * rng.random())
                continue
            token = rng.choice(buttons).token
            for t in [token] * (2 if rng.random() < 0.3 else 1) + old[-1:] * (rng.random() < 0.2):
                counts["presses"] += 1
                effects = await svc.handle(press(chat, u, t))
                if of(effects, Toast):
                    counts["refused"] += 1
                else:
                    assert of(effects, TableMessage)
                    counts["applied"] += 1
            old.append(token)

    rng = random.Random(seed)
    await asyncio.gather(*(one(t, u, random.Random(rng.random())) for t in chat_of for u in users))
    return counts


def labels(mask: int) -> set[str]:
    """The German and English labels of the cards in ``mask``."""
    return {card_label(card_str(c), lang) for c in cards_in(mask) for lang in ("de", "en")}


def shown(message) -> str:
    """All a message shows: its text and its buttons' labels."""
    return message.text + " " + " ".join(b.label for row in getattr(message, "buttons", ()) for b in row)


def public_text(message, data: Table) -> str:
    """What a public message shows of the running deal: :func:`shown` less the last finished deal's
    history (its last trick and result, on the table message and in its result notice), whose cards
    were played in the open. The history must show exactly that deal's last trick."""
    text = shown(message)
    history = render.last_deal_lines(data)
    if data.sheet and data.sheet[-1].get("trick"):
        assert all(card_label(c, "de") in history[1] for c in data.sheet[-1]["trick"]["cards"]), history
    for line in history:
        text = text.replace(line, "")
    return text


def leaks(text: str, secret: set[str]) -> set[str]:
    """The labels of ``secret`` that ``text`` shows."""
    return {label for label in secret if label in text}


def secrets_of(data: Table) -> tuple:
    """What is hidden at a table: ``(state, known, hidden, secret)``.

    ``known`` is the mask of cards every player has seen (the engine's public view: turned cards,
    a meld's partner ...), ``hidden[s]`` the unknown cards in seat ``s``'s hand, and ``secret`` the
    labels no public message may show while the table plays: hands and cards set aside, less ``known``.
    """
    state = engine.from_json(data.state)
    public_view = json.dumps(engine.view(state, None))
    known = state.known_cards() | mask_of(c for c in ALL_CARDS if f'"{card_str(c)}"' in public_view)
    hidden = [state.hands[s] & ~known for s in range(state.n)]
    secret = labels(0 if data.status != "playing" else (sum(hidden) | state.set_aside()) & ~known)
    return state, known, hidden, secret
