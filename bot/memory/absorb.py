"""Counting a chat's inbox into its history, statistics and ratings, each entry exactly once.

The saves that finish deals and matches append them to the chat's inbox (:mod:`bot.memory.journal`).
:func:`absorb` reads the first entries, plans every change they make (history records, the figures of
each person and computer, partners and head to head, ratings and their history, new person numbers and
names) and commits the plan in one script that first checks the inbox still starts with those entries
and then drops them: two processes counting at once count each entry once (the loser plans again), a
crash before the commit leaves the entries to be counted next time. The service absorbs after every
save that recorded something, and every query absorbs first.

A person who opted out (:mod:`bot.memory.privacy`) is recorded as nobody: no figures, no rating, no
name; his seat in the history stays empty.
"""

from __future__ import annotations

import json
import logging
import time
from collections import defaultdict
from dataclasses import dataclass, field

from bot.memory import scripts
from bot.memory.book import CHATS_PER_USER, RATING_POINTS, SHEETS, Book
from bot.memory.journal import INBOX, decode
from bot.memory.outcome import (TEAM_GAMES, AbortedOutcome, DealOutcome, MatchOutcome, Outcome, SeatOutcome,
                                TourneyOutcome)
from bot.memory.ratings import Rating, rate
from bot.memory.seasons import META, season_at, starts

__all__ = ["absorb", "BATCH", "ident", "HISTORY", "SHEET_LIST", "WHO", "NAMES", "OPTED_OUT", "TOURNEYS",
           "TOURNEYS_KEPT", "TOURNEY_TOP", "RUNNING_KEPT_S", "figures_key", "ratings_key", "history_key",
           "running_key", "running_tables"]

log = logging.getLogger(__package__)

BATCH = 200
"""Inbox entries counted per step."""
HISTORY, SHEET_LIST, WHO, NAMES, OPTED_OUT = "h", "sh", "who", "nm", "out"
"""Parts of the chat's keys: the history, the last score sheets, user key -> number, number -> name, opted out."""
TOURNEYS = "tn"
"""The part of the chat's list of finished tournaments (one compact record each)."""
TOURNEYS_KEPT = 1_000
"""How many finished tournaments the chat's list keeps (the oldest go first; their counts stay)."""
TOURNEY_TOP = 3
"""How many of a tournament's first places its record names."""
RUNNING_KEPT_S = 60 * 86400
"""How long the deals of a match that neither finished nor was aborted stay counted as running after its last
deal (a table given up without an abort): longer than any turn timer, so a slow match stays."""
_ATTEMPTS = 50


def figures_key(season: int, game: str, who: str) -> str:
    """The part of the key of ``who``'s figures in ``season`` (0: all seasons) and ``game``."""
    return f"a:{season}:{game}:{who}"


def ratings_key(season: int, game: str) -> str:
    """The part of the key of the ratings of ``season`` and ``game``."""
    return f"r:{season}:{game}"


def history_key(season: int, game: str) -> str:
    """The part of the key of the rating history of ``season`` and ``game``."""
    return f"rh:{season}:{game}"


def running_key(who: str) -> str:
    """The part of the key of ``who``'s running matches: per table ``<table>:<figure>`` counts, ``<table>:g`` its
    game and ``<table>:at`` its last deal's time; moved into his figures when the match ends."""
    return f"run:{who}"


def running_tables(stored: dict[str, str], now: float) -> dict[str, tuple[str, dict[str, int]]]:
    """A running hash (:func:`running_key`) as table -> (game, figures), without the tables stale at ``now``."""
    found: dict[str, dict[str, str]] = defaultdict(dict)
    for name, value in stored.items():
        table, _, figure = name.partition(":")
        found[table][figure] = value
    return {table: (f.get("g", ""), {k: int(v) for k, v in f.items() if k not in ("g", "at")})
            for table, f in found.items() if float(f.get("at") or 0) > now - RUNNING_KEPT_S}


def ident(seat: SeatOutcome, numbers: dict[str, str]) -> str:
    """The seat's identity in the chat's memory: the person's number, ``cpu-<level>``, or ``""`` (not recorded)."""
    if seat.level is not None:
        return f"cpu-{seat.level}"
    return numbers.get(seat.user, "")


@dataclass
class _Plan:
    """The changes counting some inbox entries makes, gathered before they are committed together."""

    incr: defaultdict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    sets: dict[tuple[str, str], str] = field(default_factory=dict)
    pushes: list[tuple[str, str]] = field(default_factory=list)
    trims: dict[str, int] = field(default_factory=dict)
    drops: set[tuple[str, str]] = field(default_factory=set)
    users: set[str] = field(default_factory=set)

    def add(self, part: str, counts: dict[str, int]) -> None:
        """Count ``counts`` (field -> n) into the hash ``part``."""
        for name, n in counts.items():
            if n:
                self.incr[(part, name)] += n

    def push(self, part: str, value: str, keep: int) -> None:
        """Append ``value`` to the list ``part``, which keeps its last ``keep``."""
        self.pushes.append((part, value))
        self.trims[part] = keep

    def args(self) -> list[str | int]:
        """The operations as the commit script takes them."""
        out: list[str | int] = []
        for (part, name), n in self.incr.items():
            out += ["I", part, name, n]
        for (part, name), value in self.sets.items():
            out += ["S", part, name, value]
        for part, value in self.pushes:
            out += ["R", part, value]
        for part, keep in self.trims.items():
            out += ["T", part, keep]
        for part, name in sorted(self.drops):  # last: a field counted and dropped in one batch goes
            out += ["H", part, name]
        return out


class _Counter:
    """Plans the counting of a batch of entries of one chat, with what it read of the chat's memory."""

    def __init__(self, book: Book, group: str, meta: dict[str, str], numbers: dict[str, str],
                 opted_out: set[str], running: dict[str, dict[str, str]]) -> None:
        self.book, self.group = book, group
        self.begun = starts(meta)
        self.matches = int(meta.get("matches") or 0)
        self.people = int(meta.get("people") or 0)
        self.numbers = numbers
        self.opted_out = opted_out
        self.ratings: dict[str, dict[str, Rating]] = {}
        self.running = running
        """Who -> his running hash as stored (read for the identities of the batch's ended matches), and as
        this batch's deals add to it."""
        self.plan = _Plan()

    def number(self, seat: SeatOutcome) -> None:
        """Give a recorded person his number on his first record, and keep the name he shows now."""
        if not seat.user or seat.user in self.opted_out:
            return
        if seat.user not in self.numbers:
            self.people += 1
            self.numbers[seat.user] = str(self.people)
            self.plan.sets[(WHO, seat.user)] = str(self.people)
            self.plan.sets[(META, "people")] = str(self.people)
        self.plan.sets[(NAMES, self.numbers[seat.user])] = seat.name[:64]
        self.plan.users.add(seat.user)

    def count(self, outcome: Outcome, ratings: dict[str, dict[str, Rating]]) -> None:
        """Plan what one deal or match changes."""
        for seat in outcome.seats:
            self.number(seat)
        season = season_at(self.begun, outcome.at)
        whos = ["" if seat.user in self.opted_out else ident(seat, self.numbers) for seat in outcome.seats]
        if isinstance(outcome, DealOutcome):
            self._deal(outcome, whos)
        elif isinstance(outcome, TourneyOutcome):
            self._tourney(outcome, season, whos)
        elif isinstance(outcome, AbortedOutcome):
            for who in outcome.seat_of_each(whos):
                self._ended(outcome.table, who, outcome.at)
        else:
            self._match(outcome, season, whos, ratings)

    def _tourney(self, tourney: TourneyOutcome, season: int, whos: list[str]) -> None:
        """The tournament's record (who took the first places) and each person's tournaments played (``tn``)
        and won (``tnw``)."""
        record = {"id": tourney.table, "g": tourney.game, "at": round(tourney.at), "n": len(tourney.sides),
                  "top": [[whos[s] for s in side] for side in tourney.sides[:TOURNEY_TOP]]}
        self.plan.push(TOURNEYS, json.dumps(record, separators=(",", ":"), ensure_ascii=False), TOURNEYS_KEPT)
        for i, who in enumerate(whos):
            if who and not tourney.seats[i].computer:
                for s in (season, 0):
                    self.plan.add(figures_key(s, tourney.game, who), {"tn": 1, "tnw": int(tourney.won(i))})

    def _deal(self, deal: DealOutcome, whos: list[str]) -> None:
        """A deal counts as running until its match ends (:meth:`_ended`): a finished match's figures hold its
        deals, a running match's are shown apart."""
        total = sum(deal.score)
        for who, i in deal.seat_of_each(whos).items():
            side = deal.side_of(i)
            counts = {"d": 1, "dw": int(side in deal.winners), "pf": deal.score[side], "pt": total,
                      **deal.seats[i].figures}
            part, mine = running_key(who), self.running.setdefault(who, {})
            for name, n in counts.items():
                if n:
                    field_name = f"{deal.table}:{name}"
                    self.plan.add(part, {field_name: n})
                    mine[field_name] = str(int(mine.get(field_name, 0)) + n)
            for name, value in (("g", deal.game), ("at", str(round(deal.at)))):
                self.plan.sets[(part, f"{deal.table}:{name}")] = mine[f"{deal.table}:{name}"] = value

    def _ended(self, table: str, who: str, at: float) -> dict[str, int]:
        """The running deals' figures of ``who`` at ``table``, whose match ended; dropped from his running hash,
        with every stale table's (:data:`RUNNING_KEPT_S`)."""
        mine = self.running.get(who, {})
        kept = running_tables(mine, at)
        for name in list(mine):
            if name.partition(":")[0] == table or name.partition(":")[0] not in kept:
                self.plan.drops.add((running_key(who), name))
                del mine[name]
        return kept.get(table, ("", {}))[1]

    def _match(self, match: MatchOutcome, season: int, whos: list[str],
               ratings: dict[str, dict[str, Rating]]) -> None:
        self.matches += 1
        no = self.matches
        self.plan.sets[(META, "matches")] = str(no)
        if match.title:
            self.plan.sets[(META, "title")] = match.title
        record = {"no": no, "t": match.table, "g": match.game, "at": round(match.at), "w": whos,
                  "sc": match.score, "win": match.winners, "d": match.deals}
        if match.started:
            record["st"] = round(match.started)
        if match.places:
            record.update(pl=match.places, mo=match.money, cu=match.currency)
        hinted = [i for i, seat in enumerate(match.seats) if seat.hinted]
        if hinted:
            record["h"] = hinted
        self.plan.push(HISTORY, json.dumps(record, separators=(",", ":"), ensure_ascii=False), self.book.cap)
        self.plan.push(SHEET_LIST, json.dumps({"no": no, "sheet": match.sheet}, separators=(",", ":")), SHEETS)
        team = match.game in TEAM_GAMES
        for who, i in match.seat_of_each(whos).items():
            counts = {**self._ended(match.table, who, match.at), "m": 1, "mw": int(match.won(i))}
            for name, n in match.seats[i].figures.items():
                counts[name] = counts.get(name, 0) + n
            met = {("p" if match.side_of(j) == match.side_of(i) else "h", other)
                   for j, other in enumerate(whos) if team and other and other != who}
            for tag, other in met:
                counts[f"{tag}:{other}"] = 1
                counts[f"{tag}w:{other}"] = int(match.won(i))
            for s in (season, 0):
                self.plan.add(figures_key(s, match.game, who), counts)
        self._rate(match, season, whos, no, ratings.setdefault(ratings_key(season, match.game), {}))

    def _rate(self, match: MatchOutcome, season: int, whos: list[str], no: int, ratings: dict[str, Rating]) -> None:
        sides = [[whos[s] for s in side] for side in match.sides]
        if match.places:
            ranks = [match.places.index(side[0]) + 1 if side[0] in match.places else len(match.places) + 1
                     for side in match.sides]
        else:
            ranks = [1 if i in match.winners else 2 for i in range(len(match.sides))]
        moved = rate(sides, ranks, ratings, unrated={whos[i] for i, seat in enumerate(match.seats) if seat.hinted})
        ratings.update(moved)
        part = ratings_key(season, match.game)
        for who, rating in moved.items():
            self.plan.sets[(part, who)] = rating.encode()
            self.plan.push(history_key(season, match.game), f"{no} {who} {rating.mu:.3f} {rating.sigma:.3f}",
                           RATING_POINTS)


async def _plan(book: Book, group: str, texts: list[str]) -> _Counter:
    """Read what counting ``texts`` needs and plan it."""
    r = book.redis
    found = []
    for text in texts:
        try:
            found.append(decode(text))
        except ValueError:  # written by another version, or damaged: dropped with the batch, not counted
            log.warning("an entry of the memory of %s could not be read and is dropped", group)
    users = sorted({seat.user for o in found for seat in o.seats if seat.user})
    async with r.pipeline(transaction=False) as pipe:
        pipe.hgetall(book.key(group, META))
        pipe.smembers(book.key(group, OPTED_OUT))
        if users:
            pipe.hmget(book.key(group, WHO), users)
        got = await pipe.execute()
    meta, opted_out = got[0], set(got[1])
    numbers = {u: n for u, n in zip(users, got[2]) if n is not None} if users else {}
    ended = sorted({ident(seat, numbers) for o in found if isinstance(o, MatchOutcome | AbortedOutcome)
                    for seat in o.seats} - {""})
    async with r.pipeline(transaction=False) as pipe:
        for who in ended:
            pipe.hgetall(book.key(group, running_key(who)))
        running = dict(zip(ended, await pipe.execute()))
    counter = _Counter(book, group, meta, numbers, opted_out, running)
    wanted = sorted({ratings_key(season_at(counter.begun, o.at), o.game) for o in found
                     if isinstance(o, MatchOutcome)})
    ratings: dict[str, dict[str, Rating]] = {}
    if wanted:
        async with r.pipeline(transaction=False) as pipe:
            for part in wanted:
                pipe.hgetall(book.key(group, part))
            for part, stored in zip(wanted, await pipe.execute()):
                ratings[part] = {who: Rating.decode(text) for who, text in stored.items()}
    for outcome in found:
        counter.count(outcome, ratings)
    return counter


async def absorb(book: Book, group: str) -> int:
    """Count the chat's inbox in; return how many entries this call counted (others may count some)."""
    r, inbox, counted = book.redis, book.key(group, INBOX), 0
    for _ in range(_ATTEMPTS):
        texts = await r.lrange(inbox, 0, BATCH - 1)
        if not texts:
            return counted
        counter = await _plan(book, group, texts)
        done = await r.eval(scripts.COMMIT, 1, inbox, texts[0], len(texts), book.ttl, book.base(group),
                            *counter.plan.args())
        if done:
            counted += len(texts)
            await _index_users(book, group, counter.plan.users)
    return counted


async def _index_users(book: Book, group: str, users: set[str]) -> None:
    """Note the chat in the index of each person it recorded (for his own figures across chats)."""
    if not users:
        return
    now = time.time()
    async with book.redis.pipeline(transaction=False) as pipe:
        for user in users:
            key = book.user_key(user)
            pipe.zadd(key, {group: now})
            pipe.zremrangebyrank(key, 0, -CHATS_PER_USER - 1)
            pipe.expire(key, book.ttl)
        await pipe.execute()
