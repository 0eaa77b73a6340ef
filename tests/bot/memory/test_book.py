"""The book's keys: one hash tag per chat, malformed chat keys refused."""

from __future__ import annotations

import pytest

from bot.memory import Book


def test_a_chats_keys_share_one_hash_tag_and_bad_keys_are_refused(redis):
    book = Book(redis, "st")
    assert book.key("telegram:-100123", "h") == "st:{m:telegram:-100123}:h"
    assert book.key("discord:42", "r:2:bauer").startswith(book.base("discord:42"))
    for bad in ("", "a{b", "a b", "x" * 200):
        with pytest.raises(ValueError):
            book.key(bad, "h")
