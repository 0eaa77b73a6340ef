"""Every message the bot renders for a table, at the longest names: for the platform-limit test and bench.

A table of each size is opened by players with the longest names a platform gives (Telegram's
first names have up to 64 characters, here plain letters or emoji of two UTF-16 units each) and
played to its end with random legal moves; every text and button label it shows on the way is
yielded, and :func:`over_limit` says which of them a platform would refuse.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import engine
from bot.protocol.outgoing import ChatRef, UserRef
from bot.table.match import Match
from bot.table.record import Seat, Table
from bot.words import story
from bot.words.hand import hand_message
from bot.words.i18n import t
from bot.words.render import result_text, table_message
from bot.words.rules import rules_text
from bot.words.textcmd import games_text

__all__ = ["NAMES", "sizes", "match_messages", "fixed_messages", "over_limit"]

NAMES = {"letters": "W" * 64, "emoji": "🃏" * 64}
"""The longest names: 64 characters (each player's differs in its first)."""
_DISCORD, _TELEGRAM, _LABEL = 2000, 4096, 80
_OFFER_CHANCE = 0.3
_CHAT = ChatRef("telegram", "-1001", title="T" * 128)


def sizes(game: str) -> range:
    """Every table size of ``game``."""
    lo, hi = engine.game_class(game).PLAYERS
    return range(lo, hi + 1)


def _table(game: str, n: int, lang: str, name: str) -> Table:
    table = Table(id="T1", chat=_CHAT, game=game, n=n, lang=lang, status="lobby", opener="telegram:0",
                  seats=[Seat() for _ in range(n)])
    for i in range(n):
        table.join(UserRef("telegram", str(i), f"{i}{name[1:]}"))
    return table


def _shown(kind: str, message) -> Iterator[tuple[str, str]]:
    yield kind, message.text
    yield from (("label", b.label) for row in message.buttons for b in row)


def _move(state, rng: random.Random) -> tuple[int, engine.Action]:
    """A random move: an offer out of turn (a doubling, playing alone) now and then, else the seat to act's."""
    offers = engine.offers(state)
    if offers and rng.random() < _OFFER_CHANCE:
        seat = rng.choice(sorted(offers))
        return seat, rng.choice(offers[seat])
    return state.to_act, rng.choice(engine.legal_actions(state))


def match_messages(game: str, n: int, lang: str, name: str, rng: random.Random) -> Iterator[tuple[str, str]]:
    """(kind, text) of every message of one match played with random moves, offers out of turn among them."""
    table = _table(game, n, lang, name)
    for opts in (False, True):
        table.show_opts = opts
        yield from _shown("lobby", table_message(table, None, 1, 0))
    match = Match(table, rng, 0.0)
    match.start()
    moves = 0
    while table.status == "playing":
        match.news = []
        match.act(*_move(match.state, rng), "cpu")
        match.save()
        moves += 1
        for ev in match.news:
            if ev["type"] == "deal_over":
                yield "result", result_text(table, ev["record"], ev["no"])
        yield from _shown("table", table_message(table, match.state, moves, 3600.0, match.news))
        yield "sheet", story.sheet_text(table)
        if table.status == "playing":
            for seat in range(n):
                yield from _shown("hand", hand_message(table, match.state, seat, moves, turn=True))


def fixed_messages(lang: str) -> Iterator[tuple[str, str]]:
    """(kind, text) of the texts no table changes: every game's rules at every size, the help."""
    for game in engine.game_ids():
        for n in sizes(game):
            yield "rules", rules_text(game, {}, lang, n)
    yield "help", t(lang, "help", games=games_text())


def over_limit(kind: str, text: str) -> list[str]:
    """The platform limits ``text`` breaks: Discord's 2,000 characters, Telegram's 4,096 UTF-16 units, a label's 80."""
    if kind == "label":
        return ["label > 80"] if len(text) > _LABEL else []
    out, units = [], len(text.encode("utf-16-le")) // 2
    if len(text) > _DISCORD:
        out.append(f"Discord {len(text)} > {_DISCORD}")
    if units > _TELEGRAM:
        out.append(f"Telegram {units} > {_TELEGRAM}")
    return out
