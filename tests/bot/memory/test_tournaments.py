"""A finished tournament in the chat's memory: recorded once by its id, listed, and counted in each person's
figures (tournaments played and won), beside his matches."""

from __future__ import annotations

from bot.memory import SeatOutcome, TourneyOutcome, history, record_tournament, stats, tournaments, who_of
from bot.memory.absorb import TOURNEYS
from bot.words.evening import history_text
from bot.words.stats import person_text
from tests.bot.memory.kit import GROUP, people, played, save_all

G = GROUP.group


def erfweiler(tid: str = "TN1", at: float = 1_800_000_000.0) -> TourneyOutcome:
    """Three teams ranked Anna+Ben, Cleo with a computer partner, Dora+Emil."""
    seats = [SeatOutcome(user="test:u0", name="Anna"), SeatOutcome(user="test:u1", name="Ben"),
             SeatOutcome(user="test:u2", name="Cleo"), SeatOutcome(level="normal"),
             SeatOutcome(user="test:u3", name="Dora"), SeatOutcome(user="test:u4", name="Emil")]
    return TourneyOutcome(kind="tourney", table=tid, chat=G, game="bauernstoss", at=at, seats=seats,
                          sides=[[0, 1], [2, 3], [4, 5]], score=[], winners=[0])


async def test_recorded_once_listed_and_counted(book):
    assert await record_tournament(book, G, erfweiler())
    assert not await record_tournament(book, G, erfweiler())  # the timer's second try after a crash: nothing
    (found,) = await tournaments(book, G)
    assert (found.id, found.game, found.entrants) == ("TN1", "bauernstoss", 3)
    assert [[p.name or p.level for p in side] for side in found.top] == [["Anna", "Ben"], ["Cleo", "normal"],
                                                                         ["Dora", "Emil"]]
    assert await book.redis.llen(book.key(G, TOURNEYS)) == 1
    anna, cleo = await who_of(book, G, "test:u0"), await who_of(book, G, "test:u2")
    (won,) = (await stats(book, G, anna, season=0)).games
    assert (won.tourneys, won.tourneys_won, won.matches) == (1, 1, 0)
    assert "Turniere: 1, gewonnen 1" in person_text("de", await stats(book, G, anna))
    (lost,) = (await stats(book, G, cleo, season=0)).games
    assert (lost.tourneys, lost.tourneys_won) == (1, 0)
    assert "Tournaments: 1, won 0" in person_text("en", await stats(book, G, cleo))
    assert await tournaments(book, G, game="rams") == [] and await tournaments(book, G, limit=0) == []


async def test_history_lists_tournaments_among_the_matches(store, book):
    await save_all(store, book, played("bauer", people(4), seed=1, table_id="H1"))
    (match,) = await history(book, G)
    await record_tournament(book, G, erfweiler(at=match.at + 60))
    text = history_text("de", [match], "Europe/Berlin", await tournaments(book, G))
    lines = text.splitlines()
    assert lines[1].startswith("🏆 ") and "Turnier Bauernstoß · 3 Teams · 1. Anna+Ben 2. Cleo+🤖 3. Dora+Emil" in lines[1]
    assert lines[2].startswith("1. ")  # the match, played before the tournament ended


async def test_every_key_expires(book):
    await record_tournament(book, G, erfweiler())
    keys = [k async for k in book.redis.scan_iter(match=book.base(G) + "*")]
    ttls = [await book.redis.ttl(k) for k in keys]
    assert any(k.endswith(":tns") for k in keys) and all(0 < ttl <= book.ttl for ttl in ttls), dict(zip(keys, ttls))
