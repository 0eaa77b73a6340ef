"""A fake Discord (REST and gateway) for end-to-end tests of the Discord adapter."""

from .server import Call, FakeDiscord, Member, Msg

__all__ = ["Call", "FakeDiscord", "Member", "Msg"]
