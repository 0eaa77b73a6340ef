"""The book's keys: one hash tag per chat, whatever characters the chat's key holds."""

from __future__ import annotations

import pytest

from bot.memory import Book


def test_a_chats_keys_share_one_hash_tag_whatever_its_key_holds(redis):
    book = Book(redis, "st")
    assert book.key("telegram:-100123", "h") == "st:{m:telegram:-100123}:h"
    assert book.key("discord:42", "r:2:bauer").startswith(book.base("discord:42"))
    odd = {"console:a{b}", "console:a b", "console:a%7Bb}", "console:" + "x" * 300, "console:" + "x" * 301}
    bases = {book.base(g) for g in odd}
    assert len(bases) == len(odd)
    for base in bases:
        tag = base.removeprefix("st:{").removesuffix("}:")
        assert "{" not in tag and "}" not in tag and " " not in tag and len(tag) <= 122
    with pytest.raises(ValueError):
        book.key("", "h")
