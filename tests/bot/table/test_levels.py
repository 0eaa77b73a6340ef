"""Computer levels at a table: chosen with the table or when a computer is added, shown, set by a table option."""

from __future__ import annotations

from dataclasses import replace

from bot.protocol import tokens
from bot.protocol.outgoing import Toast
from tests.servicekit import GROUP, Players, of, press, say, service, table_msg, user


def level_button(msg, level: str):
    """The lobby button that adds a computer of ``level``."""
    for row in msg.buttons:
        for b in row:
            tok = tokens.parse(b.token)
            if tok.verb == "bot" and tok.arg == level:
                return b
    raise AssertionError(f"no button for a {level} computer")


async def test_levels_chosen_shown_and_set_for_the_table(store):
    svc = service(store)
    anna, ben = user(0), user(1)
    table = table_msg(await svc.handle(say(GROUP, anna, "neu bauer")))
    table = table_msg(await svc.handle(say(GROUP, anna, "computer stark")))
    assert "2 Computer 2 (stark)" in table.text
    table = table_msg(await svc.handle(press(GROUP, anna, level_button(table, "leicht").token)))
    assert "3 Computer 3 (leicht)" in table.text
    table = table_msg(await svc.handle(say(GROUP, anna, "computer")))
    assert "4 Computer 4 (" not in table.text and "4 Computer 4" in table.text  # normal: no label
    refused = await svc.handle(say(GROUP, anna, "computer genial"))
    assert of(refused, Toast)[0].text == "Computer gibt es leicht, normal, stark."
    refused = await svc.handle(say(GROUP, ben, "option level stark"))  # Ben has no seat: no say
    assert of(refused, Toast)[0].text == "Du sitzt nicht an diesem Tisch."
    table = table_msg(await svc.handle(say(GROUP, anna, "option level strong")))
    assert all(f"{i} Computer {i} (stark)" in table.text for i in (2, 3, 4))
    table = table_msg(await svc.handle(say(GROUP, anna, "computer weg 4")))
    table = table_msg(await svc.handle(say(GROUP, anna, "sprache en")))
    assert "2 Computer 2 (strong)" in table.text


async def test_a_new_table_takes_its_computers_level(store):
    svc = service(store)
    anna, ben, cleo = user(0), user(1), user(2)
    table = table_msg(await svc.handle(say(GROUP, anna, "neu bauer level=stark short_deck=an")))
    table = table_msg(await svc.handle(say(GROUP, anna, "computer")))
    assert "2 Computer 2 (stark)" in table.text
    other = replace(GROUP, chat_id="g2")
    table = table_msg(await svc.handle(say(other, ben, 'neu rams {"level": "leicht"}')))
    table = table_msg(await svc.handle(say(other, ben, "computer")))
    assert "Computer 2 (leicht)" in table.text
    third = replace(GROUP, chat_id="g3")
    for bad in ("neu bauer level=genial", 'neu bauer {"level": 3}'):
        refused = await svc.handle(say(third, cleo, bad))
        assert of(refused, Toast)[0].text == "Computer gibt es leicht, normal, stark."


async def test_forged_level_button_is_refused(store):
    svc = service(store)
    anna = user(0)
    table = table_msg(await svc.handle(say(GROUP, anna, "neu bauer")))
    tok = tokens.parse(level_button(table, "stark").token)
    forged = tokens.make(tok.table, tok.version, "bot", "genial")
    refused = await svc.handle(press(GROUP, anna, forged))
    assert of(refused, Toast) and "genial" not in table_msg([table]).text


async def test_a_match_against_strong_computers_runs_to_its_end(store):
    svc = service(store, seed=5)
    anna = user(0)
    players = Players(svc, GROUP, [anna], seed=2)
    await players.send(say(GROUP, anna, "neu bauer short_deck=an target_brote=1"))
    await players.send(say(GROUP, anna, "option level stark"))
    await players.send(say(GROUP, anna, "los"))
    final = await players.play_out()
    assert "\n🏆 " in final.text
