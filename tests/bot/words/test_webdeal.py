"""What the web table's view says of finished tricks and deals: each deal's result in the story's words (with a
whole match's summary at its end, and the final score), the last trick with its players, leader, winner and eyes,
the trick in play's leader, the sheet as ``zettel`` shows it, and Rams' turned cards as cards to picture."""

from __future__ import annotations

import engine
from bot.table.record import Table
from bot.words import render, story
from bot.words.i18n import game_name, t
from tests.servicekit import GROUP, Players, say, service, user


async def _table(svc, store, game: str, options: str = "") -> tuple[Players, str]:
    """A started table of ``game`` in the group: user 0 and three computers."""
    players = Players(svc, GROUP, [user(0)], seed=4)
    await players.send(say(GROUP, user(0), f"neu {game} {options}".strip()))
    for _ in range(3):
        await players.send(say(GROUP, user(0), "computer"))
    effects = await players.send(say(GROUP, user(0), "los"))
    return players, next(e.table_id for e in effects if hasattr(e, "table_id"))


async def _stored(store, table_id: str) -> tuple[Table, engine.State]:
    table = Table.load((await store.load(table_id))[1])
    return table, engine.from_json(table.state)


async def test_a_deals_result_its_named_trick_and_the_sheet_until_the_match_ends(store):
    svc = service(store, seed=2, reminder_after="off", autoplay_after="off")
    players, table_id = await _table(svc, store, "bauernstoss", "target=3")
    leaders = 0
    while True:
        view = await svc.web_view(table_id, user(0))
        table, state = await _stored(store, table_id)
        if view["trick"]:  # the trick in play: who led it
            assert view["trick_leader"] == view["trick"][0]["seat"] and view["trick"][0]["name"]
            leaders += 1
        else:
            assert view["trick_leader"] is None
        last = view["last_trick"]
        if last is not None:  # each card's player, who led, who took it and its eyes
            assert [c["name"] for c in last["cards"]] == [story.seat_name(table, c["seat"]) for c in last["cards"]]
            assert last["leader"] == last["cards"][0]["seat"] and last["winner_name"] == story.seat_name(table, last["winner"])
            eyes = sum(engine.cards.EYES[engine.cards.parse_card(c["card"])] for c in last["cards"])
            assert last["eyes"] == eyes and last["took"] == t("de", "st.took", name=last["winner_name"]) + t(
                "de", "st.eyes", eyes=eyes)
        if not table.sheet:
            assert view["result"] is None and view["sheet"] == []
        else:
            result, record = view["result"], table.sheet[-1]
            assert result["no"] == len(table.sheet) and result["lines"] == story.result_lines(table, record)
            assert result["title"] == t("de", "st.deal_title", game=game_name("bauernstoss", "de"), no=result["no"])
            assert [c["card"] for c in result["trick"]["cards"]] == record["trick"]["cards"]
            assert view["sheet"] == story.sheet_text(table).split("\n")  # the zettel's rows
            if table.status == "finished":
                break
            assert result["fresh"] == (not engine.view(state, None)["tricks"]) and result["final"] == []
            assert not set(result["lines"]) & set(view["story"]), "»Bisher« tells the result once, as the result"
        await players.step()
    assert leaders and view["score"] == render.score_lines(table, engine.view(state, None)), "»Stand« at the end"
    assert view["result"]["final"] == render.summary(table, state.match) and view["result"]["fresh"]


async def test_rams_turned_cards_are_cards_to_picture_and_its_counts_say_whose_they_are(store):
    svc = service(store, seed=2, reminder_after="off", autoplay_after="off")
    _, table_id = await _table(svc, store, "rams")
    view = await svc.web_view(table_id, user(0))
    table, state = await _stored(store, table_id)
    turned = engine.view(state, None)["public"]["turned"]
    assert [c["card"] for c in view["turned"]] == turned and view["turned"][-1]["role"] == "Kehrer"
    assert "Kehrer" not in view["info"], "the page pictures the Kehrer: the info line need not say it"
    assert "Kehrer" in render.info_line(table, engine.view(state, None)), "the chats still say it"
    assert view["score"][0].startswith("Stiche bis 21, in Klammern dieses Spiel: ")
    assert f"{story.seat_name(table, 1)}: 0" in view["score"][0]
