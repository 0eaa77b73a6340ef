"""What a call to shared state raises while Redis is down, hung (a socket timeout), loading or read-only.

Both sides of the protocol meet it: the service answers such a command with a polite "try
again", and the adapters keep their queued sends and message refs until Redis is back.

Only the store's failures count: Redis's own errors (redis-py wraps a socket's failure in them), a
cluster without a node for a slot, and a socket refused, reset or timed out. Any other ``OSError``
(a file, a directory: ``zoneinfo`` reading ``Europe`` raises ``IsADirectoryError``) is no outage.
"""

from __future__ import annotations

from redis.exceptions import RedisClusterException, RedisError

__all__ = ["UNAVAILABLE"]

UNAVAILABLE = (RedisError, RedisClusterException, ConnectionError, TimeoutError)
"""The exceptions of a call to Redis that failed because the server is not serving."""
