"""The fake Discord refuses a message, and slash commands, over Discord's limits as Discord does: 400, code 50035."""

from __future__ import annotations

import aiohttp
import pytest

from tests.fakes.discord import FakeDiscord

GUILD = 84_000_000_000_000_000
CHANNEL = 84_000_000_000_000_100


def _button(label: str = "Mitspielen", custom_id: str = "st1:t:1:join:") -> dict:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


@pytest.fixture
async def rest():
    """POST a message body to the fake's channel: (status, JSON answer)."""
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        fake.guild(GUILD, "Stammtisch Lautern", {CHANNEL: "karten"})

        async def post(body: dict) -> tuple[int, dict]:
            async with http.post(f"{fake.base_url}/channels/{CHANNEL}/messages", json=body,
                                 headers={"Authorization": f"Bot {fake.token}"}) as resp:
                return resp.status, await resp.json()
        yield post


async def test_content_of_2000_characters_is_posted_and_of_2001_refused(rest):
    assert (await rest({"content": "🃏" * 2000}))[0] == 200
    status, answer = await rest({"content": "x" * 2001})
    assert status == 400 and answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
    assert answer["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"


@pytest.mark.parametrize("button, field", [(_button(label="x" * 81), "label"),
                                           (_button(custom_id="x" * 101), "custom_id"),
                                           (_button(custom_id=""), "custom_id")])
async def test_a_button_over_its_limits_is_refused(rest, button, field):
    status, answer = await rest({"content": "Tisch", "components": [{"type": 1, "components": [_button(), button]}]})
    assert status == 400 and answer["code"] == 50035
    assert field in answer["errors"]["components"]["0"]["components"]["1"]


async def test_at_most_five_rows_of_five_buttons(rest):
    row = {"type": 1, "components": [_button(custom_id=f"b{i}") for i in range(5)]}
    assert (await rest({"content": "Tisch", "components": [row] * 5}))[0] == 200
    assert (await rest({"content": "Tisch", "components": [row] * 6}))[1]["code"] == 50035
    wide = {"type": 1, "components": [_button(custom_id=f"b{i}") for i in range(6)]}
    assert (await rest({"content": "Tisch", "components": [wide]}))[1]["code"] == 50035


def _command(name: str = "urlaub", description: str = "Urlaub: z. B. 7d, aus", **more) -> dict:
    return {"name": name, "description": description, "type": 1, **more}


@pytest.mark.parametrize("commands, where", [
    ([_command(name="Urlaub")], ["0", "name"]),
    ([_command(name="x" * 33)], ["0", "name"]),
    ([_command(name_localizations={"de": "mein urlaub"})], ["0", "name"]),
    ([_command(description="")], ["0", "description"]),
    ([_command(description_localizations={"de": "x" * 101})], ["0", "description"]),
    ([_command(options=[{"type": 3, "name": "worte", "description": "d", "max_length": 6001}])],
     ["0", "options", "0", "max_length"]),
    ([_command(options=[{"type": 3, "name": "w", "description": "d",
                         "choices": [{"name": f"c{i}", "value": str(i)} for i in range(26)]}])],
     ["0", "options", "0", "choices"]),
    ([_command(options=[{"type": 5, "name": f"o{i}", "description": "d"} for i in range(26)])], ["0", "options"]),
    ([_command(name=f"c{i}") for i in range(101)], ["_errors"]),
])
async def test_slash_commands_over_their_limits_are_refused(commands, where):
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        url = f"{fake.base_url}/applications/{fake.app_id}/commands"
        headers = {"Authorization": f"Bot {fake.token}"}
        async with http.put(url, json=[_command(name=f"c{i}") for i in range(100)], headers=headers) as resp:
            assert resp.status == 200
        async with http.put(url, json=commands, headers=headers) as resp:
            status, answer = resp.status, await resp.json()
        assert status == 400 and answer["code"] == 50035
        found = answer["errors"]
        for key in where:
            found = found[key]
        assert len(fake.commands[None]) == 100  # the refused overwrite changed nothing


async def test_an_enforced_nonce_brings_back_the_message_made_with_it(rest):
    """With ``enforce_nonce`` a nonce the bot used lately answers with that message and makes none; without it
    (or with another nonce) a message is made; a nonce over 25 characters is refused."""
    status, made = await rest({"content": "Anna ist dran", "nonce": "n" * 25, "enforce_nonce": True})
    assert status == 200 and made["nonce"] == "n" * 25
    again = (await rest({"content": "Anna ist dran", "nonce": "n" * 25, "enforce_nonce": True}))[1]
    other = (await rest({"content": "Anna ist dran", "nonce": "m" * 25, "enforce_nonce": True}))[1]
    loose = (await rest({"content": "Anna ist dran", "nonce": "n" * 25}))[1]
    assert again["id"] == made["id"] and len({made["id"], other["id"], loose["id"]}) == 3
    status, answer = await rest({"content": "Anna ist dran", "nonce": "n" * 26, "enforce_nonce": True})
    assert status == 400 and answer["code"] == 50035 and "nonce" in answer["errors"]


async def _session(http: aiohttp.ClientSession, fake: FakeDiscord, shard: list[int]):
    """A gateway session identified as ``shard``, once its READY came."""
    ws = await http.ws_connect(fake.gateway_url)
    assert (await ws.receive_json())["op"] == 10
    await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "shard": shard, "properties": {}}})
    assert (await ws.receive_json())["t"] == "READY"
    return ws


async def _next_interaction(ws) -> str:
    while (event := await ws.receive_json())["t"] != "INTERACTION_CREATE":
        pass
    return event["d"]["id"]


async def test_every_session_of_a_shard_gets_its_interactions_and_with_none_an_interaction_is_lost():
    guild = (7 << 22) | 5  # shard 1 of 2
    async with FakeDiscord(ack_window_s=0.05) as fake, aiohttp.ClientSession() as http:
        fake.guild(guild, "Stammtisch Kusel", {guild + 1: "karten"})
        member = fake.member(41, "Anna")
        async with http.post(f"{fake.base_url}/channels/{guild + 1}/messages",
                             headers={"Authorization": f"Bot {fake.token}"},
                             json={"content": "Tisch", "components": [{"type": 1, "components": [_button()]}]}) as resp:
            message = fake.messages[int((await resp.json())["id"])]
        old, new, other = [await _session(http, fake, shard) for shard in ([1, 2], [1, 2], [0, 2])]
        pressed = member.press(message, "st1:t:1:join:")
        assert [await _next_interaction(old), await _next_interaction(new)] == [pressed, pressed] and not fake.lost
        await old.close()
        await new.close()
        await fake.wait_for(lambda: len(fake.sessions) == 1, "the shard's sessions gone")
        lost = member.press(message, "st1:t:1:join:")
        assert fake.lost == [int(lost)]
        assert await fake.answer(lost) == {"type": None, "error": None}  # "This interaction failed"
        await other.close()
