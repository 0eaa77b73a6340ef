"""The web table's limits per connection and per process, from the environment."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from adapters.common.slowclients import BODY_TIMEOUT_S, HEADER_TIMEOUT_S

__all__ = ["Tuning"]


class Tuning(BaseSettings):
    """Bounds of the web table's live feed (``STAMMTISCH_WEB_*`` environment variables).

    Every one is a hard bound: a message over the size closes its connection, taps over the rate
    are answered "not so fast" and dropped, a connection over the counts is refused before it opens.
    A connection that is not (yet) a live feed (the page, its files, ``/api/view``, the feed's
    opening request) is counted per client address and in all, and has its time for its headers
    and body.
    """

    model_config = SettingsConfigDict(env_prefix="STAMMTISCH_WEB_", extra="ignore")

    messages_per_second: float = Field(5.0, gt=0, le=1000, description="taps a connection may send per second "
                                       "(twice as many in a burst)")
    views_per_second: float = Field(1.0, gt=0, le=1000, description="requests of /api/view and /api/tables one "
                                    "person may make per second (twice as many in a burst)")
    message_bytes: int = Field(1024, ge=128, le=65536, description="the largest message a connection may send")
    connections_per_user: int = Field(8, ge=1, le=1000, description="open connections of one person, all tables")
    watchers_per_link: int = Field(500, ge=1, le=100_000, description="open connections of one watch link (a "
                                   "channel's link to watch, the second window at home)")
    watchers_renew_s: float = Field(10.0, gt=0, le=60, description="how often a process renews its watchers in "
                                    "Redis and tells its pages another process's count")
    connections: int = Field(2000, ge=1, le=1_000_000, description="open connections this process holds at most")
    waiting_per_ip: int = Field(64, ge=1, le=1_000_000, description="connections one client address (an IPv6 "
                                "one's /64) may hold that are not live feeds")
    waiting: int = Field(1000, ge=1, le=1_000_000, description="connections that are not live feeds, all clients")
    header_timeout_s: float = Field(HEADER_TIMEOUT_S, gt=0, le=300, description="how long a client may take to "
                                    "send a request's headers, or keep a connection idle between requests")
    body_timeout_s: float = Field(BODY_TIMEOUT_S, gt=0, le=300, description="how long a client may take to send "
                                  "a request's body")
    tick_interval_s: float = Field(5.0, gt=0, le=300, description="how often the turn timers are checked where no "
                                   "chat adapter runs in the process")
    send_timeout_s: float = Field(10.0, gt=0, le=300, description="how long a view may take to reach a slow "
                                  "client before its connection is closed")
