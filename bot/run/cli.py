"""The ``stammtisch`` command: the composition root that wires settings, store and adapters."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import shlex
import shutil
import signal
import sys

from bot.run import offline
from bot.run.arguments import fail, json_options, language
from bot.run.arguments import settings as _settings

__all__ = ["main"]


INTRO = """Stammtisch: regional card games (Bauernstoß, Alter Schafkopf, Bauerchen, Bauer, Rams) in group chats.

No chat token is configured, so there is no chat bot to run yet. You can:
  play a table in this terminal against computer players:  {command} play bauerchen
  go on with the table you left with "quit":               {command} play --resume
  see what the chat bot reads from the environment:        {command} run --help

To serve Telegram: get a token from @BotFather, then TELEGRAM_TOKEN=... {command} run
To serve Discord: create an application and its bot, then DISCORD_TOKEN=... {command} run
Data lives in an embedded Redis under ./data (STAMMTISCH_DATA_DIR), or set REDIS_URL."""
"""What ``stammtisch`` without a command and without a token prints; ``{command}`` is how it was started."""


def adapter(name: str):
    """The adapter package ``adapters.<name>``, loaded by name: the bot layer never imports adapters."""
    return importlib.import_module(f"adapters.{name}")


async def _serve(settings, use) -> int:
    """Connect to Redis, build the store and the service, and run ``use(service, store, redis)``.

    With ``STAMMTISCH_METRICS_LISTEN`` set, the metrics and health check server runs alongside.
    """
    from bot.ops import metrics
    from bot.service import Service
    from bot.store.connection import connect
    from bot.store.counts import TableCounts
    from bot.store.outbox import Outbox
    from bot.store.tables import Store

    redis = await connect(settings)
    try:
        store = Store(redis, abandoned_ttl=settings.abandoned_ttl)
        counts = TableCounts(redis, abandoned_ttl=settings.abandoned_ttl) if settings.metrics_listen else None

        async def sample(now: float) -> tuple[dict[str, int], int]:
            return await counts.counts(now), await store.count_due(now)
        async with metrics.serving(settings.metrics_listen, redis.ping, sample):
            return await use(Service(store, settings, counts=counts, outbox=Outbox(redis, store.prefix)), store, redis)
    finally:
        await redis.aclose()


def _play(args: argparse.Namespace) -> int:
    from bot.ops.settings import SettingsError
    from bot.run.stats import console_user
    from bot.store.connection import RedisUnavailable
    from bot.words.textcmd import game_id, games_text

    game = game_id(args.game) if args.game else None
    if args.game and game is None:
        return fail(f"unknown game {args.game[:40]!r}; the games: {games_text()}")
    try:
        options = json_options(args.options, game)
        settings = _settings()
        if game and args.players is not None:
            _players(game, args.players)
        name, level, lang = _name(args.name), _level(args.level), language(args.lang)
    except (ValueError, SettingsError) as exc:
        return fail(str(exc))
    if args.game is None and not args.resume:
        return fail("which game? stammtisch play GAME (or --resume)")
    console = adapter("console")

    async def use(service, store, redis) -> int:
        return await console.play(service, game, args.players, options, args.resume, user=console_user(name),
                                  lang=lang or settings.lang, name=name, level=level, lang_chosen=lang is not None, command=_command(),
                                  files_dir=settings.data_dir / "exports")
    try:
        return asyncio.run(_serve(settings, use))
    except RedisUnavailable as exc:
        return fail(str(exc))
    except KeyboardInterrupt:  # the console said the table is kept
        return 130


def _stats(args: argparse.Namespace) -> int:
    """``stammtisch stats``: the terminal player's matches (:mod:`bot.run.stats`)."""
    from bot.ops.settings import SettingsError
    from bot.store.connection import RedisUnavailable
    from bot.words.textcmd import game_id, games_text

    game = game_id(args.game) if args.game is not None else None
    if args.game is not None and game is None:
        return fail(f"unknown game {args.game[:40]!r}; the games: {games_text()}")
    try:
        settings, lang, name = _settings(), language(args.lang), _name(args.name)
    except (ValueError, SettingsError) as exc:
        return fail(str(exc))

    async def use(service, store, redis) -> int:
        from bot.run.stats import console_user, report

        text, data = await report(service.tables.book, console_user(name), game, lang or settings.lang)
        print(json.dumps(data, ensure_ascii=False) if args.json else text)
        return 0
    try:
        return asyncio.run(_serve(settings, use))
    except RedisUnavailable as exc:
        return fail(str(exc))


def _web(args: argparse.Namespace) -> int:
    from bot.ops.settings import SettingsError
    from bot.store.connection import RedisUnavailable
    from bot.words.textcmd import game_id, games_text

    game = game_id(args.game or "bauerchen")
    if game is None:
        return fail(f"unknown game {args.game[:40]!r}; the games: {games_text()}")
    port = int(args.port) if args.port.isascii() and args.port.isdecimal() and len(args.port) < 6 else -1
    if not 0 <= port < 65536:
        return fail(f"--port must be 0 to 65535, not {args.port[:20]!r}")
    try:
        options = json_options(args.options, game)
        settings = _settings()
        if args.players is not None:
            _players(game, args.players)
        name, lang = _name(args.name), language(args.lang)
    except (ValueError, SettingsError) as exc:
        return fail(str(exc))

    async def use(service, store, redis) -> int:
        return await adapter("web").home(service, game, port, lang=lang or settings.lang, name=name,
                                         players=args.players, options=options)
    try:
        return asyncio.run(_serve(settings, use))
    except RedisUnavailable as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return 130


class _OneLineErrors(argparse.ArgumentParser):
    """A parser whose bad arguments are told in one line (exit status 2), for commands scripts call."""

    def error(self, message: str) -> None:
        """Print ``stammtisch <command>: <message>`` and exit with status 2."""
        self.exit(2, f"{self.prog}: {message}\n")


NAME_MAX = 48
"""The longest name ``--name`` takes (the chats cut names to this too)."""


def _name(text: str | None) -> str | None:
    """``--name`` with its spaces tidied; ``ValueError`` if it is empty, too long or not printable."""
    if text is None:
        return None
    name = " ".join(text.split())
    if not name or len(name) > NAME_MAX or not name.isprintable():
        raise ValueError(f"--name must be 1 to {NAME_MAX} printable characters")
    return name


def _level(text: str | None) -> str | None:
    """``--level`` as one of the computer players' levels; ``ValueError`` for anything else."""
    from bot.table.computer import LEVELS, level_from
    from bot.table.refused import Refused

    if text is None:
        return None
    try:
        return level_from(text[:20])
    except Refused:
        raise ValueError(f"--level must be {', '.join(LEVELS[:-1])} or {LEVELS[-1]}, not {text[:20]!r}") from None


def _command() -> str:
    """How the user starts this program again in his shell, as he would type it.

    ``scripts/run`` says how it was called (``STAMMTISCH_COMMAND``); else ``stammtisch`` when that
    name on the PATH is this program, else the path it was started by, else ``python -m``.
    """
    from bot.run.environment import COMMAND

    if os.environ.get(COMMAND):
        return os.environ[COMMAND]
    started = sys.argv[0]
    if os.path.basename(started) == "stammtisch":
        on_path = shutil.which("stammtisch")
        if on_path and os.path.realpath(on_path) == os.path.realpath(started):
            return "stammtisch"
        return shlex.quote(started)
    return f"{shlex.quote(sys.executable)} -m bot.run.cli"


def _players(game: str, n: int) -> None:
    """``ValueError`` unless ``game`` is played by ``n`` players."""
    import engine

    lo, hi = engine.game_class(game).PLAYERS
    if not lo <= n <= hi:
        raise ValueError(f"{game} is played by {lo} players, not {n}" if lo == hi
                         else f"{game} is played by {lo} to {hi} players, not {n}")


def _run(args: argparse.Namespace) -> int:
    from bot.ops.settings import SettingsError
    from bot.protocol.rejected import TokenRejected
    from bot.store.connection import RedisUnavailable
    from bot.store.outbox_reader import reading
    from bot.store.ratelimit import Limiter

    try:
        settings = _settings()
    except SettingsError as exc:
        return fail(str(exc))
    if settings.telegram_token is not None or settings.discord_token is not None:
        _log_to_stderr(settings)

    async def use(service, store, redis) -> int:
        chats = [name for name, token in (("telegram", settings.telegram_token), ("discord", settings.discord_token))
                 if token is not None]
        if not chats and settings.web_listen is None:
            return await adapter("console").play(service, None, lang=settings.lang, command=_command(),
                                                 files_dir=settings.data_dir / "exports")
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        deliveries: dict = {}  # each running chat adapter's delivery, for what its outbox reader takes
        await asyncio.gather(*(adapter(name).serve(settings, service, store, Limiter(redis), stop=stop,
                                                   deliveries=deliveries) for name in chats),
                             *(reading(service.outbox, name, deliveries, stop) for name in chats),
                             adapter("web").serve(settings, service, stop=stop, ticks=not chats))
        return 0
    try:
        return asyncio.run(_serve(settings, use))
    except (RedisUnavailable, TokenRejected) as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return 130


def _log_to_stderr(settings) -> None:
    """Log as the settings say, never writing the configured secrets."""
    from urllib.parse import urlsplit

    from bot.run.logs import configure

    secrets = [s.get_secret_value() for s in (settings.telegram_token, settings.telegram_webhook_secret,
                                              settings.discord_token) if s]
    password = urlsplit(settings.redis_url).password if settings.redis_url else None
    configure(settings.log_format, settings.log_level, secrets + ([password] if password else []))


class _RunHelp(argparse.Action):
    """``run --help``: the usage and every environment variable ``run`` reads (the adapters load only then)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show this help and the environment variables it reads, and exit")

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from bot.run.environment import describe

        parser.epilog = describe({"Telegram": adapter("telegram").Tuning, "Discord": adapter("discord").Tuning,
                                  "Web table": adapter("web").Tuning})
        parser.print_help()
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    p = argparse.ArgumentParser(prog="stammtisch", description="Regional card games in group chats.")
    sub = p.add_subparsers(dest="command")
    r = sub.add_parser("replay", help="replay one deal from a JSON file (- for stdin) and print the state")
    r.add_argument("file")
    r.set_defaults(func=offline.replay)
    rv = sub.add_parser("review", help="every decision of a replayed deal beside the strong player's, its cost and "
                        "a mark on the clear mistakes (FILE: a replay file, - for stdin)")
    rv.add_argument("file")
    rv.add_argument("--seat", help="only this seat's decisions (the replay's seat number, from 0)")
    rv.add_argument("--seed", default="0", help="the sampled deals' seed (default 0)")
    rv.add_argument("--samples", help="sampled deals per decision (default: the game's, engine.review.SAMPLES)")
    rv.add_argument("--json", action="store_true", help="print one JSON object")
    rv.add_argument("--lang", help="de or en (default: STAMMTISCH_LANG)")
    rv.set_defaults(func=offline.review)
    s = sub.add_parser("simulate", help="computer players play deals or matches; prints statistics as JSON")
    s.add_argument("--game", required=True)
    s.add_argument("--players", type=int)
    s.add_argument("--deals", type=int, help="how many deals (default 100)")
    s.add_argument("--matches", type=int, help="play whole matches instead of a number of deals")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--options", help="the game's options as a JSON object")
    s.add_argument("--kind", default="random",
                   help="the computer players: random (default), leicht, normal (heuristic) or stark (strong)")
    s.set_defaults(func=offline.simulate)
    a = sub.add_parser("arena", help="computer player kinds against each other on paired deals; prints JSON")
    a.add_argument("--game", required=True)
    a.add_argument("--players", type=int)
    a.add_argument("--deals", type=int, default=100, help="paired deals (Rams: matches), default 100")
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--seats", required=True,
                   help="kinds round the table, e.g. strong,heuristic (random, leicht, heuristic, strong)")
    a.add_argument("--options", help="the game's options as a JSON object")
    a.add_argument("--samples", type=int, help="sampled deals per strong decision (default: the game's)")
    a.add_argument("--jobs", type=int, default=1, help="processes to spread the deals over (default 1)")
    a.set_defaults(func=offline.arena)
    t = sub.add_parser("tournament", help="a whole tournament of computer teams; prints the final standings as a table")
    t.__class__ = _OneLineErrors  # bad arguments: one line and status 2, as the issue asks
    t.add_argument("--game", required=True)
    t.add_argument("--format", required=True, help="round-robin, groups-ko or swiss")
    t.add_argument("--teams", required=True, help="how many teams, 2 to 64 (Rams: players, 3 to 64)")
    t.add_argument("--seed", default="0", help="the draw's and the matches' seed (default 0)")
    t.add_argument("--options", help="every match's table options as a JSON object")
    t.add_argument("--format-options", help='the format\'s options as a JSON object, e.g. {"legs": 2}, {"groups": 3, '
                   '"knockout": 4}, {"rounds": 5}, {"table_size": 5}')
    t.add_argument("--kind", default="normal",
                   help="the computer players: normal (heuristic, default), leicht, stark (strong) or random")
    t.add_argument("--json", action="store_true", help="print one JSON object (for scripts)")
    t.add_argument("--lang", help="the table's language, de or en (default: STAMMTISCH_LANG)")
    t.set_defaults(func=offline.tournament)
    pl = sub.add_parser("play", help="play a table in this terminal against computer players",
                        description="Deals a table in this terminal against computer players, or goes on with the "
                        "one you left with quit. Your login and --name keep a table each: two people at one machine "
                        "play side by side in two terminals, e.g. play bauerchen --name Kurt and play bauer --name "
                        "Lena, and each goes on with play --resume --name NAME.")
    pl.add_argument("game", nargs="?", help="bauernstoss, alter_schafkopf, bauerchen, bauer or rams")
    pl.add_argument("--players", type=int)
    pl.add_argument("--options", help="the game's options as a JSON object")
    pl.add_argument("--resume", action="store_true", help="go on with the table left with quit")
    pl.add_argument("--name", help=f"your name at the table (default: your login name; at most {NAME_MAX} characters);"
                    " each name keeps a table of its own")
    pl.add_argument("--level", help="the computer players: leicht, normal (default) or stark")
    pl.add_argument("--lang", help="de or en (default: STAMMTISCH_LANG)")
    pl.set_defaults(func=_play)
    st = sub.add_parser("stats", help="the matches you played in this terminal (stammtisch play), as text or JSON")
    st.__class__ = _OneLineErrors  # add_parser makes every subparser of one class; this one tells errors in a line
    st.add_argument("--game", help="one game only: bauernstoss, alter_schafkopf, bauerchen, bauer or rams")
    st.add_argument("--json", action="store_true", help="print one JSON object")
    st.add_argument("--lang", help="de or en (default: STAMMTISCH_LANG)")
    st.add_argument("--name", help="the matches played with play --name NAME (default: without --name)")
    st.set_defaults(func=_stats)
    w = sub.add_parser("web", help="play a table against computer players in your browser (on 127.0.0.1)",
                       description="Opens a table against computer players (or takes up the one you left) and "
                       "serves it on 127.0.0.1; the first line printed is its URL, with a token for this run. "
                       "Ctrl-C stops (the table is kept).")
    w.add_argument("game", nargs="?", help="bauernstoss, alter_schafkopf, bauerchen (default), bauer or rams")
    w.add_argument("--port", default="8765", help="the port on 127.0.0.1 (default 8765; 0: a free one)")
    w.add_argument("--players", type=int)
    w.add_argument("--options", help="the game's options as a JSON object")
    w.add_argument("--name", help=f"your name at the table (default: your login name; at most {NAME_MAX} characters)")
    w.add_argument("--lang", help="de or en (default: STAMMTISCH_LANG)")
    w.set_defaults(func=_web)
    ru = sub.add_parser("run", help="the chat bot with TELEGRAM_TOKEN and/or DISCORD_TOKEN set, else a table in this terminal",
                        description="The chat bot: Telegram with TELEGRAM_TOKEN, Discord with DISCORD_TOKEN (both "
                        "in one process when both are set), else a table in this terminal against computer players.",
                        formatter_class=argparse.RawDescriptionHelpFormatter, add_help=False)
    ru.add_argument("-h", "--help", action=_RunHelp)
    ru.set_defaults(func=_run)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run ``stammtisch`` with ``argv`` (default: the process arguments); return the exit status."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        scripted = {_stats: "stats", offline.tournament: "tournament"}.get(getattr(args, "func", None))
        if extra and scripted:  # the commands scripts call tell their bad arguments in one line too
            return fail(f"{scripted}: unrecognized arguments: {' '.join(extra)[:80]}")
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        if os.environ.get("TELEGRAM_TOKEN") or os.environ.get("DISCORD_TOKEN"):
            parser.print_help()
        else:
            print(INTRO.format(command=_command()))
        return 0
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
