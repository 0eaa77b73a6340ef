"""Finding people by name in a chat's memory."""

from __future__ import annotations

import pytest

from bot.memory import UnknownPerson, find, who_of
from bot.memory.people import names
from bot.table.record import Seat
from tests.bot.memory.kit import GROUP, people, played, save_all

G = GROUP.group


async def test_a_name_finds_its_person_a_clash_or_nobody_does_not(store, book):
    seats = people(3) + [Seat(user="test:u9", name="Annabell", auto=True)]
    await save_all(store, book, played("bauer", seats, seed=3))
    assert (await find(book, G, "  anna ")).who == await who_of(book, G, "test:u0")
    assert (await find(book, G, "Annab")).name == "Annabell"
    assert (await find(book, G, "cle")).name == "Cleo"
    for bad in ("Zora", "", "A" * 500):
        with pytest.raises(UnknownPerson):
            await find(book, G, bad)
    with pytest.raises(UnknownPerson):
        await find(book, G, "an")  # Anna and Annabell


async def test_names_tell_people_from_computers(book):
    found = await names(book, G, ["cpu-stark", "5"])
    assert found["cpu-stark"].computer and found["cpu-stark"].level == "stark"
    assert not found["5"].computer and found["5"].name == ""
