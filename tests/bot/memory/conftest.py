"""The memory's tests share a book on the test's key prefix."""

from __future__ import annotations

import pytest

from bot.memory import Book


@pytest.fixture
def book(redis, key_prefix) -> Book:
    """The chats' memory on the test's key prefix."""
    return Book(redis, key_prefix)
