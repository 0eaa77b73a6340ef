"""Test doubles for the Telegram adapter: a fake Bot API server and the harness that runs the bot on it.

:mod:`.server` is the fake Telegram (real HTTP on 127.0.0.1); :mod:`.harness` wires a real
store on a real Redis, the real service and the real adapter to it, in this process or as
worker processes.
"""

from .server import VIA_REPLY, ApiError, FakeTelegram, FakeUser, Sent, Violation

__all__ = ["ApiError", "FakeTelegram", "FakeUser", "Sent", "Violation", "VIA_REPLY"]
