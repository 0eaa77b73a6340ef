"""What a group reads of its tournament: whole result lines, rows in the game's own words, the options by name."""

from __future__ import annotations

import re

from bot.protocol.outgoing import Notice
from tests.bot.service.tourney.kit import T0, load, opened, person, tourney_msg
from tests.servicekit import GROUP, of, say, service


async def test_a_forfeit_and_the_final_ranking_read_in_full(store):
    now = [T0]
    svc = service(store, clock=lambda: now[0])
    tid = await opened(svc, store, 2, "bauernstoss target=3 runde=1h regel=wertung")
    await svc.handle(say(GROUP, person(0), "turnier los"))
    now[0] = (await load(store, tid)).round_end + 1
    out = await svc.tick(now[0])
    texts = [n.text for n in of(out, Notice)]
    (result,) = [x for x in texts if x.startswith("🏆 Ergebnis")]
    assert result.endswith(" (gewertet, nicht zu Ende gespielt)"), result  # not cut at a name's length
    (final,) = [x for x in texts if "Endwertung" in x]
    first, second = final.splitlines()[1:]
    assert re.fullmatch(r"🥇 1\. Spieler\d\+Spieler\d: Partien 0 · Striche 0:0", first), first
    assert re.fullmatch(r"🥈 2\. Spieler\d\+Spieler\d: Partien 0 · Striche 0:0 \(Los\)", second), second
    headline = tourney_msg(out).text.splitlines()[0]  # the standings message, edited to the final standings
    assert headline == "🏆 Turnier: Bauernstoß · jeder gegen jeden · Ziel 3", headline


async def test_rows_count_in_the_games_own_words(store):
    svc = service(store, clock=lambda: T0)
    tid = await opened(svc, store, 2, "bauer target_brote=2 runde=1h")
    await svc.handle(say(GROUP, person(0), "turnier los"))
    text = tourney_msg(await svc.handle(say(GROUP, person(0), "turnier"))).text
    assert "Brote zum Sieg 2" in text.splitlines()[0] and "target_brote" not in text
    assert all(re.search(r": Brote 0:0 · Siege 0( \(.+\))?$", row) for row in text.splitlines()[2:]), text
