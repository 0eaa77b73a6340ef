"""The memory's commands: ``statistik``, ``rangliste``, ``bild``, ``verlauf``, ``abend``, ``export``, ``saison`` and
``vergessen``, typed anywhere or pressed on a finished table (its »Rangliste«, »Der Abend«, »Meine Statistik«).

What a chat remembers is read in that chat only: a group's commands read the group's memory (all its
topics together), a private chat's read the private chat's own (its tables against the computer), and
only there does ``statistik`` show the sender's own figures from every chat that counts him. A name,
game or season the chat does not know is answered in the chat's words; nothing of another chat is
reached from here. Every answer fits one message; in a group each command is counted against its sender's
answers a minute before the bot reads anything (:func:`bot.service.budget.charge`). The export and the chart
are sent at most once a minute each per chat, the chart drawn in a thread (:data:`CHARTS_AT_ONCE` at a time).
``vergessen`` forgets only the sender, once he said it twice within a minute.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot import memory
from bot.protocol import tokens
from bot.protocol.outgoing import FILES_MAX_BYTES, Attachment, ChatRef, Command, FileMessage, Notice, Outgoing
from bot.service import budget
from bot.service.change import Tables
from bot.table import pace
from bot.table.record import Table
from bot.table.refused import Refused
from bot.words import evening as evening_words
from bot.words import stats as stats_words
from bot.words.buttons import MEMORY_BUTTONS
from bot.words.i18n import game_name, t, tn
from bot.words.textcmd import Parsed, game_id, games_text

__all__ = ["typed", "pressed", "needs_admin", "BUTTONS", "FILES_WINDOW_S", "CHARTS_AT_ONCE", "HISTORY_SHOWN"]

BUTTONS = frozenset(MEMORY_BUTTONS)
"""The verbs of a finished table's memory buttons."""
FILES_WINDOW_S = 60.0
"""A chat gets one export and one chart per this many seconds."""
CHARTS_AT_ONCE = 2
"""Charts drawn at the same time in one process (each some 100 ms of CPU in a thread)."""
HISTORY_SHOWN = 10
"""Matches ``verlauf`` lists."""
_NAME_MAX = 48
"""The most characters of a name asked for (the chats cut names to this too)."""
_OFF, _ON = frozenset({"aus", "off", "nein", "no"}), frozenset({"an", "on", "ja", "yes"})
_NEW = frozenset({"neu", "new", "neue", "start"})
_ALL = frozenset({"alle", "all", "gesamt", "total"})
_CHART = frozenset({"bild", "chart", "kurve", "grafik"})
_charts = asyncio.Semaphore(CHARTS_AT_ONCE)


def needs_admin(cmd: Command, parsed: Parsed) -> bool:
    """Whether ``parsed`` (a memory command) is for a group's admins only: starting a new season in a group."""
    return parsed.name == "season" and not cmd.chat.private and bool(parsed.args) and parsed.args[0].lower() in _NEW


async def typed(tables: Tables, cmd: Command, parsed: Parsed, lang: str) -> list[Outgoing]:
    """Carry out the typed memory command ``parsed`` in the command's chat, answering in ``lang``."""
    args = tuple(a[:_NAME_MAX] for a in parsed.args[:6])
    if not cmd.chat.private and (held := await budget.charge(tables.store, tables.settings, cmd)) is not None:
        return held  # counted before the work: a person held back makes the bot read nothing
    try:
        return await _run(tables, cmd, parsed.name, args, lang, None)
    except memory.Unknown as exc:
        raise _refusal(exc) from None


async def pressed(tables: Tables, cmd: Command, tok: tokens.Token) -> list[Outgoing]:
    """A memory button of a finished table, for the table's game; only in the table's own chat."""
    loaded = await tables.store.load(tok.table)
    if loaded is None:
        raise Refused("table_closed")
    table = Table.load(loaded[1])
    if table.chat.key != cmd.chat.key or tok.verb not in BUTTONS:
        raise Refused("forged")
    if not cmd.chat.private and (held := await budget.charge(tables.store, tables.settings, cmd)) is not None:
        return held  # a press posts in the group: bounded too, and counted before the work
    try:
        return await _run(tables, cmd, tok.verb, (), table.lang, table.game)
    except memory.Unknown as exc:
        raise _refusal(exc) from None


def _refusal(exc: memory.Unknown) -> Refused:
    if isinstance(exc, memory.UnknownPerson):
        return Refused("mem.unknown_person", name=exc.what)
    if isinstance(exc, memory.UnknownSeason):
        return Refused("mem.unknown_season", word=exc.what)
    return Refused("unknown_game", word=exc.what, games=games_text())


async def _run(tables: Tables, cmd: Command, name: str, args: tuple[str, ...], lang: str,
               game: str | None) -> list[Outgoing]:
    chat, group, book = cmd.chat, cmd.chat.group, tables.book
    if name == "stats":
        return [Notice(chat, await _stats(tables, cmd, args, lang, game))]
    if name in ("ranking", "chart"):
        words, season = _season_arg(args)
        chart = name == "chart" or bool(_CHART & {w.lower() for w in words})
        game = game or await _game(book, group, [w for w in words if w.lower() not in _CHART])
        if chart:
            return [await _chart(tables, chat, game, season, lang)]
        return [Notice(chat, stats_words.ranking_text(lang, await memory.ranking(book, group, game, season)))]
    zone = await pace.chat_zone(tables.store, chat.key, tables.settings)
    if name == "history":
        return [Notice(chat, await _history(book, group, args, lang, zone))]
    if name == "tonight":
        evening = await memory.evening(book, group, tables.clock(), zone)
        if not evening.matches:
            raise Refused("mem.nothing_tonight")
        return [Notice(chat, evening_words.tonight_text(lang, evening))]
    if name == "season":
        return [Notice(chat, await _season(tables, group, args, lang, zone))]
    if name == "export":
        return await _export(tables, chat, lang)
    if name == "forget":
        return [Notice(chat, await _forget(book, cmd, args, lang))]
    raise Refused("unknown_command", verb=name)


def _season_arg(args: tuple[str, ...]) -> tuple[list[str], int | None]:
    """The words of ``args`` and the season a last word names (a number; ``alle``: 0), ``None`` if none."""
    words = list(args)
    if words and words[-1].isascii() and words[-1].isdecimal():
        return words[:-1], int(words[-1][:6])
    if words and words[-1].lower() in _ALL:
        return words[:-1], 0
    return words, None


def _named_game(words: list[str] | tuple[str, ...]) -> str | None:
    """The game ``words`` (or their first) name, or ``None``."""
    return game_id(" ".join(words)) or game_id(words[0])


async def _game(book: memory.Book, group: str, words: list[str]) -> str:
    """The game ``words`` name; none: the game of the chat's last match."""
    if words:
        found = _named_game(words)
        if found is None:
            raise Refused("unknown_game", word=" ".join(words), games=games_text())
        return found
    last = await memory.history(book, group, limit=1)
    if not last:
        raise Refused("mem.empty")
    return last[0].game


async def _stats(tables: Tables, cmd: Command, args: tuple[str, ...], lang: str, game: str | None) -> str:
    """``statistik``: his own (here; in his private chat from every chat), someone's by name, or ``aus``/``an``."""
    book, group, user = tables.book, cmd.chat.group, cmd.user
    if args and args[0].lower() in _OFF | _ON:
        if len(args) > 1:  # »statistik aus Anna«: nobody switches another off
            raise Refused("mem.which_stats")
        recorded = args[0].lower() in _ON
        await memory.set_recorded(book, group, user.key, recorded)
        return t(lang, "mem.opted_in" if recorded else "mem.opted_out", name=user.name or user.user_id)
    words, season = _season_arg(args)
    if words:
        person, season = await _named(book, group, args, words, season)
        return stats_words.person_text(lang, await memory.stats(book, group, person.who, game, season))
    if cmd.chat.private and season is None:
        return stats_words.own_text(lang, user.name or user.user_id, await memory.own_figures(book, user.key, game))
    who = await memory.who_of(book, group, user.key)
    if who is None:
        label = stats_words.season_label(lang, season if season is not None else (await memory.current(book, group)).no)
        return t(lang, "mem.no_matches", name=user.name or user.user_id, season=label)
    return stats_words.person_text(lang, await memory.stats(book, group, who, game, season))


async def _named(book: memory.Book, group: str, args: tuple[str, ...], words: list[str],
                 season: int | None) -> tuple[memory.Person, int | None]:
    """The person ``args`` name with no season (if someone is called »Person 3«), else the one ``words`` name in
    ``season``."""
    if len(words) < len(args):
        try:
            return await memory.find(book, group, " ".join(args)), None
        except memory.UnknownPerson:
            pass
    return await memory.find(book, group, " ".join(words)), season


async def _chart(tables: Tables, chat: ChatRef, game: str, season: int | None, lang: str) -> FileMessage:
    """The season's ratings of ``game`` as a PNG, drawn in a thread; one chart a minute per chat."""
    series = await memory.rating_series(tables.book, chat.group, game, season)
    words = stats_words.chart_words(lang, game, series.season)
    if not series.lines:
        raise Refused("mem.no_chart", game=game_name(game, lang), least=memory.RANKED_AFTER,
                      season=stats_words.season_label(lang, series.season))
    await _files_allowed(tables, chat, "chart")
    async with _charts:
        png = await asyncio.to_thread(memory.rating_png, series, **words)
    caption = t(lang, "mem.chart_caption", game=game_name(game, lang),
                            season=stats_words.season_label(lang, series.season))
    return FileMessage(chat, (Attachment(f"wertung-{game}-{series.season}.png", png, picture=True),), caption)


async def _files_allowed(tables: Tables, chat: ChatRef, kind: str) -> None:
    """One ``kind`` of file (``export``, ``chart``) a minute per chat, whoever asks."""
    if await tables.store.limiter.wait_time(f"memfiles:{kind}:{chat.group}", 1, FILES_WINDOW_S) > 0:
        raise Refused("mem.files_later")


async def _history(book: memory.Book, group: str, args: tuple[str, ...], lang: str, zone: str) -> str:
    """``verlauf``: the last matches; ``verlauf NR``: that match's score sheet; ``verlauf SPIEL``: of one game."""
    if args and args[0].isascii() and args[0].isdecimal():
        no = int(args[0][:9])
        kept = await memory.history(book, group, limit=memory.SHEETS, sheets=True)
        match = next((m for m in kept if m.no == no), None)
        if match is None or not match.sheet:
            newest = kept[0].no if kept else 0
            if 0 < no <= newest:
                raise Refused("mem.sheet_gone", no=no, kept=memory.SHEETS)
            raise Refused("mem.unknown_match", word=args[0])
        return evening_words.sheet_text(lang, match, zone)
    game = _named_game(args) if args else None
    if args and game is None:
        raise Refused("mem.history_word", word=" ".join(args), games=games_text())
    matches = await memory.history(book, group, limit=HISTORY_SHOWN, game=game)
    tourneys = await memory.tournaments(book, group, limit=HISTORY_SHOWN, game=game)
    if len(matches) == HISTORY_SHOWN:  # the tournaments that ended while those matches were played
        tourneys = [tn for tn in tourneys if tn.at >= matches[-1].at]
    if not matches and not tourneys:
        raise Refused("mem.empty")
    return evening_words.history_text(lang, matches, zone, tourneys)


async def _season(tables: Tables, group: str, args: tuple[str, ...], lang: str, zone: str) -> str:
    """``saison``: which season runs since when; ``saison neu``: begin the next (admins: checked before)."""
    book = tables.book
    if args and args[0].lower() in _NEW:
        started = await memory.new_season(book, group, tables.clock())
        return t(lang, "mem.season_new", no=started.no)
    if args:
        raise Refused("mem.season_word")
    now = await memory.current(book, group)
    if now.no == 1:
        return t(lang, "mem.season_first")
    return t(lang, "mem.season_now", season=stats_words.season_label(lang, now.no),
                         since=evening_words.when(lang, now.started, zone))


async def _export(tables: Tables, chat: ChatRef, lang: str) -> list[Outgoing]:
    """The chat's history as CSV and JSON documents: one message, or one each if together they are too big."""
    book, group = tables.book, chat.group
    if not await memory.history(book, group, limit=1):
        raise Refused("mem.empty")
    await _files_allowed(tables, chat, "export")
    made = await memory.export(book, group, stats_words.seat_namer(lang))
    csv_bytes, json_bytes = made.csv, made.json
    day = datetime.fromtimestamp(tables.clock(), UTC).date().isoformat()
    caption = evening_words.export_caption(lang, chat.title, made.matches)
    files = (Attachment(f"stammtisch-{day}.csv", csv_bytes), Attachment(f"stammtisch-{day}.json", json_bytes))
    if len(csv_bytes) + len(json_bytes) <= FILES_MAX_BYTES:
        return [FileMessage(chat, files, caption)]
    return [FileMessage(chat, files[:1], caption), FileMessage(chat, files[1:])]


async def _forget(book: memory.Book, cmd: Command, args: tuple[str, ...], lang: str) -> str:
    """``vergessen``: remove the sender from this chat's memory; in his private chat from every chat's.

    Only himself (a name given must be his own), and only when he says it a second time within a minute.
    """
    user, name = cmd.user, cmd.user.name or cmd.user.user_id
    if args and " ".join(args).casefold() not in {name.casefold(), user.user_id.casefold()}:
        raise Refused("mem.forget_own", name=name)
    if not await memory.confirmed(book, cmd.chat.group, user.key):
        return t(lang, "mem.forget_all_confirm" if cmd.chat.private else "mem.forget_confirm", name=name,
                 seconds=memory.CONFIRM_S)
    if not cmd.chat.private:
        found = await memory.forget(book, cmd.chat.group, user.key)
        return t(lang, "mem.forgotten" if found else "mem.not_recorded", name=name)
    chats = {own.chat for own in await memory.own_figures(book, user.key)} | {cmd.chat.group}
    forgotten = [group for group in sorted(chats) if await memory.forget(book, group, user.key)]
    if not forgotten:
        return t(lang, "mem.not_recorded", name=name)
    if forgotten == [cmd.chat.group]:  # only here (the terminal's table is its private chat)
        return t(lang, "mem.forgotten", name=name)
    return tn(lang, "mem.forgotten_all", len(forgotten), name=name)
