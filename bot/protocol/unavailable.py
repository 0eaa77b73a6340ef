"""What a call to shared state raises while Redis is down, hung (a socket timeout), loading or read-only.

Both sides of the protocol meet it: the service answers such a command with a polite "try
again", and the adapters keep their queued sends and message refs until Redis is back.
"""

from __future__ import annotations

from redis.exceptions import RedisError

__all__ = ["UNAVAILABLE"]

UNAVAILABLE = (RedisError, OSError)
"""The exceptions of a call to Redis that failed because the server is not serving."""
