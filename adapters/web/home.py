"""``stammtisch web``: a table against computer players in the browser at home, served on 127.0.0.1.

The player's table is kept under his login name in a private chat of the ``web`` platform, as the
console keeps his terminal table: an open one is taken up again, else a new one of the game is
opened and started (the free seats get computer players). The server's link key is made fresh
for each run, so the printed URL, whose token names the player and the table, holds for this run
only (and 12 hours at most): a URL of an earlier run is refused. When a match ends, the page offers
»Revanche« and »Neuer Tisch«; the table either opens is handed to the page with a token of its own.
The second line is a watch link for a second window (a screen everyone at home looks at): the
table's public view, never his cards; it follows the match to the next table as well.
"""

from __future__ import annotations

import asyncio
import getpass
import json
import re
import secrets
import signal
import sys
import time
from typing import TextIO

from adapters.common.running import Ticker
from adapters.common.webauth import WATCH, sign
from bot.ops.settings import HostPort
from bot.protocol import tokens
from bot.protocol.outgoing import ChatRef, Command, Outgoing, TableMessage, Toast, UserRef
from bot.words import web_text

from .server import WebServer
from .tuning import Tuning

__all__ = ["home", "PLATFORM", "TICK_S"]

PLATFORM = "web"
TICK_S = 0.5
"""How often the turn timers are checked (the people's wait before the first lead, a computer going on)."""
_USER_ID = re.compile(r"[^0-9A-Za-z_-]")


def _user(name: str | None) -> UserRef:
    login = getpass.getuser() or "player"
    user_id = _USER_ID.sub("", login)[:32] or "player"
    return UserRef(PLATFORM, user_id, name or login)


async def _table(service, chat: ChatRef, user: UserRef, game: str, players: int | None, options: dict | None,
                 lang: str) -> tuple[str, list[Outgoing]]:
    """The id of the player's open table, else of a new one just started; with what the start said."""
    ask = lambda verb, *args: service.handle(Command(chat, user, verb=verb, args=args, lang=lang))  # noqa: E731
    if await service.open_game(chat) is None:
        args = (game,) + ((str(players),) if players else ()) + ((json.dumps(options),) if options else ())
        said = await ask("neu", *args)
        if any(tokens.parse(b.token).verb == "start" for o in said if isinstance(o, TableMessage)
               for row in o.buttons for b in row if b.token):  # a lobby (a private table starts at once)
            said = await ask("start")
    else:
        said = await ask("tisch")
    tables = [o.table_id for o in said if isinstance(o, TableMessage)]
    if not tables:
        raise RuntimeError(" ".join(o.text for o in said if isinstance(o, Toast)) or "no table")
    return tables[-1], said


async def home(service, game: str, port: int, lang: str = "de", name: str | None = None, players: int | None = None,
               options: dict | None = None, out: TextIO = sys.stdout, stop: asyncio.Event | None = None,
               tuning: Tuning | None = None) -> int:
    """Open (or take up) the player's table, print its URL as the first line and serve until Ctrl-C.

    Args:
        service: the bot layer's service.
        game: the game of a new table (an open one goes on whatever it is).
        port: the port on 127.0.0.1 (0: a free one).
        lang: the language of a new table.
        name: the name the table shows (default: the login name).
        players: how many seats a new table has (default: the game's).
        options: the game's options of a new table.
        out: where the URL and the notes go.
        stop: set it to stop (default: Ctrl-C or SIGTERM).
        tuning: the web table's limits.

    Returns:
        The exit status: 0 when stopped, 2 when the port is taken.
    """
    user = _user(name)
    chat = ChatRef(PLATFORM, user.user_id, title=user.name, private=True)
    secret = secrets.token_bytes(32)

    async def after(outs: list[Outgoing]) -> None:
        """The computers answer a tap at once (the console does the same after each command), at a new table too."""
        for table in {table_id} | {o.table_id for o in outs if isinstance(o, TableMessage)}:
            while await service.tick(table=table):
                pass

    server = WebServer(service, HostPort("127.0.0.1", port), secret, tuning=tuning, lang=lang, after=after)
    table_id, _ = await _table(service, chat, user, game, players, options, lang)
    try:
        await server.start()
    except OSError as exc:
        print(f"stammtisch: cannot listen on 127.0.0.1:{port}: {exc.strerror}", file=sys.stderr)
        await server.stop()
        return 2
    token = sign(secret, table_id, PLATFORM, user.user_id, time.time())
    watch = sign(secret, table_id, PLATFORM, user.user_id, time.time(), access=WATCH)
    print(f"http://127.0.0.1:{server.port}/?t={token}", file=out, flush=True)
    print(web_text(lang, "watch_link", url=f"http://127.0.0.1:{server.port}/?t={watch}"), file=out, flush=True)
    ticker = Ticker(service, lambda outs: None, TICK_S)
    ticker.start()
    if stop is None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
    try:
        await after([])
        await stop.wait()
    finally:
        await ticker.stop()
        await server.stop()
    return 0
