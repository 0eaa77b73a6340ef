"""Helpers for the web table's tests: Telegram init data as a client would get it, and a table of four
people at a running web table (also for the browser tests)."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode

from adapters.common.webauth import sign
from adapters.web import Tuning, WebServer
from bot.ops.settings import HostPort
from bot.protocol.outgoing import ChatRef, UserRef
from bot.service import Service
from tests.servicekit import Players

BOT_TOKEN = "123456:TEST-token-of-the-fake-bot"
SECRET = b"s" * 32
GROUP = ChatRef("telegram", "-100777", title="Stammtisch Lautern")
NAMES = ["Anna", "Ben", "Cleo", "Dora"]


def person(i: int) -> UserRef:
    """Telegram user number ``i`` (ids 1001 ...)."""
    return UserRef("telegram", str(1001 + i), NAMES[i % 4])


def init_data(user_id: int, auth_date: float | None = None, start_param: str = "", bot_token: str = BOT_TOKEN,
              **extra: str) -> str:
    """The ``initData`` a Telegram client hands a Mini App opened by ``user_id``, signed with ``bot_token``."""
    fields = {"query_id": "AAH-test", "user": json.dumps({"id": user_id, "first_name": "Anna", "language_code": "de"}),
              "auth_date": str(int(time.time() if auth_date is None else auth_date)), **extra}
    if start_param:
        fields["start_param"] = start_param
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


async def table_of_four(svc: Service, game: str = "bauerchen", players: Players | None = None) -> str:
    """A started table of :func:`person` 0 to 3 in :data:`GROUP` (or of ``players``, in their chat); its id."""
    return await (players or Players(svc, GROUP, [person(i) for i in range(4)])).sit_down(game)


@dataclass
class Clock:
    """A wall clock a test sets forward."""

    now: float = field(default_factory=time.time)

    def __call__(self) -> float:
        return self.now


async def started(svc: Service, tuning: Tuning | None = None, clock: Clock | None = None) -> WebServer:
    """A web table serving ``svc`` on a free port of 127.0.0.1, subscribed to the saves."""
    server = WebServer(svc, HostPort("127.0.0.1", 0), SECRET, BOT_TOKEN, tuning, clock=clock or time.time)
    await server.start()
    return server


def link(server: WebServer, table: str, user: UserRef, path: str = "/api/view", now: float | None = None) -> str:
    """The URL of ``path`` with a link token for ``user`` at ``table``."""
    token = sign(SECRET, table, user.platform, user.user_id, time.time() if now is None else now)
    return f"http://127.0.0.1:{server.port}{path}?t={token}"
