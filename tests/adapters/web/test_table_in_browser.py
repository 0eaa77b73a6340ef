"""The web table as a whole table, in one real headless chromium window per module, at a phone's 390×844 and a
desktop's 1280×800 (the window resized, not a second browser): in every game a whole deal clicked, then the
match played to its end. The page shows each deal's result in the story's words until he plays on (and keeps it in
»Bisher«), the last trick with every card's player, who led and who took it, the score (on the desktop in sight
without scrolling), the sheet as ``zettel`` shows it, his hand in one row, Rams' turned cards as pictures, and no
sign that needs an emoji font.

One person plays against three computers, which answer in the same save; after the first deal his moves go to the
service as from another device and the page follows. A match is short: small targets, or a match near its end.
"""

from __future__ import annotations

import random
import re

import pytest

import engine
from bot.table.record import Table
from bot.words import render, story
from bot.words.i18n import game_name, t
from tests.adapters.web.browser import DESKTOP, PHONE, resize, wait_for
from tests.adapters.web.livetable import SHORT, LiveTable, click, moves_of, play_out_for_him

pytestmark = pytest.mark.timeout(240)

HAND_MAX = {"bauernstoss": 8, "alter_schafkopf": 8, "bauerchen": 5, "bauer": 5, "rams": 5}
"""The cards dealt to a hand, checked in one row as the hand shrinks (Bauer's short deck deals 5; its long deck 8 as
Bauernstoß does, the most of any game and of any player count)."""
_EMOJI = re.compile("[\U0001F000-\U0001FFFF\u27A1\uFE0F]")

_READ = """
const rect = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const texts = (sel) => [...document.querySelectorAll(sel)].map(e => e.textContent);
const trick = (box) => ({names: texts(box + ' figcaption'), cards: [...document.querySelectorAll(box + ' figure')]
                           .map(e => e.dataset.card), won: texts(box + ' figure.won figcaption'),
                         led: [...document.querySelectorAll(box + ' figure')].findIndex(e => e.querySelector('.tag')
                           .textContent)});
const result = document.getElementById('result');
return {version: Number(document.body.dataset.version || -1), state: document.body.dataset.state || "",
        width: innerWidth, height: innerHeight, scrolled: scrollY,
        turn: !!document.querySelector('#seats .seat.me.turn'),
        hand: [...document.querySelectorAll('#hand button.card')].map(b => [b.dataset.card, !b.disabled, b.dataset.arg]),
        hand_rects: [...document.querySelectorAll('#hand button.card')].map(rect),
        offers: [...document.querySelectorAll('#hand button.offer')].map(b => [b.dataset.verb, b.dataset.arg, b.textContent]),
        result: result.hidden ? null : {title: document.getElementById('result-title').textContent,
                                        lines: texts('#result-lines li'), final: texts('#result-final li'),
                                        trick: trick('#result-trick'), took: document.getElementById('result-took').textContent,
                                        rect: rect(result)},
        last: trick('#last-trick'), last_took: document.getElementById('last-took').textContent,
        score: texts('#score p'), score_rect: rect(document.getElementById('score-box')),
        deal_in_story: texts('#story li.deal div'),
        turned: [...document.querySelectorAll('#turned figure')].map(e => [e.dataset.card, e.textContent]),
        trophy: !!document.querySelector('#result-final .sign.trophy'),
        text: document.body.textContent};
"""


def read(window) -> dict:
    """What the page shows now (:data:`_READ`)."""
    return window.execute_script(_READ)


def at(window, key: str) -> str:
    """One of the page's ``body`` data (``version``, ``state``): a cheap read while waiting."""
    return window.execute_script(f"return document.body.dataset.{key} || ''")


def sized(window, size: tuple[int, int]) -> dict:
    """Make the window's page ``size`` CSS pixels; what it shows then."""
    resize(window, size)
    shown = read(window)
    assert (shown["width"], shown["height"]) == size
    return shown


def one_row(shown: dict) -> int:
    """Check that his hand lies in one row within a phone's width; how many cards it holds."""
    rects = shown["hand_rects"]
    assert len({round(r[1]) for r in rects}) <= 1 and all(0 <= r[0] and r[2] <= shown["width"] for r in rects), rects
    return len(rects)


def plain(text: str) -> str:
    """``text`` without its signs (the page draws them as pictures), spaces as the page's text has them."""
    return " ".join(_EMOJI.sub("", text).split())


def tap(window, rng: random.Random) -> dict:
    """His next tap, clicked (»Weiter«, naming trump, playing, passing, as :func:`moves_of` prefers); what the
    page shows once the table moved."""
    shown = read(window)
    taps = moves_of(shown)
    assert taps, f"nothing to tap: {shown['offers']}"
    best = taps[0][1].split(".")[0]
    verb, arg = rng.choice([tp for tp in taps if tp[1].split(".")[0] == best])
    click(window, verb, arg)
    wait_for(window, lambda w: int(at(w, "version") or -1) > shown["version"], f"the tap {verb} {arg}")
    return read(window)


def expected_result(table: Table, no: int) -> dict:
    """The result of deal ``no`` as the story tells it, from the stored table."""
    record = table.sheet[no - 1 - table.sheet_dropped]
    trick = record["trick"]
    took = t(table.lang, "st.took", name=story.seat_name(table, trick["winner"]))
    if table.game in ("bauernstoss", "alter_schafkopf", "bauerchen"):
        took += t(table.lang, "st.eyes", eyes=sum(engine.cards.EYES[engine.cards.parse_card(c)] for c in trick["cards"]))
    return {"title": plain(t(table.lang, "st.deal_title", game=game_name(table.game, table.lang), no=no)),
            "lines": story.result_lines(table, record),
            "trick": {"names": [story.seat_name(table, s) for s in trick["seats"]], "cards": trick["cards"],
                      "won": [story.seat_name(table, trick["winner"])], "led": 0},
            "took": took}


def check_result(shown: dict, table: Table, no: int) -> None:
    """The page shows deal ``no``'s result in the story's words, its last trick named, and the score."""
    want = expected_result(table, no)
    got = shown["result"]
    assert got is not None, "the deal's result is not on the page"
    assert plain(got["title"]) == want["title"]
    assert [plain(line) for line in got["lines"]] == [plain(line) for line in want["lines"]]
    assert got["trick"] == want["trick"] and got["took"] == want["took"]
    assert shown["score"] and all(shown["score"]), "»Stand« is empty"
    assert not _EMOJI.search(shown["text"]), "a sign the page left to an emoji font"


def check_sizes(window, table: Table, no: int, sizes: tuple[tuple[int, int], ...]) -> None:
    """At both ``sizes`` (the window left at the last): the result, its named trick and the score; on the desktop
    the score in sight unscrolled."""
    for size in sizes:
        shown = sized(window, size)
        check_result(shown, table, no)
        left, top, right, bottom = shown["result"]["rect"]
        assert right <= size[0] + 0.5, f"the result runs off a {size} screen"
        if size == DESKTOP:
            left, top, right, bottom = shown["score_rect"]
            assert shown["scrolled"] == 0 and 0 <= top and bottom <= size[1] and right <= size[0], shown["score_rect"]


@pytest.mark.parametrize("game", list(SHORT))
def test_a_deal_and_a_match_show_their_result_the_named_trick_and_the_score(redis_url, key_prefix, window, game):
    options, match = SHORT[game]
    with LiveTable(redis_url, key_prefix, game, seed=5, people=1, options=options, match=match) as live:
        window.get("about:blank")
        window.get(live.page(0))
        wait_for(window, lambda w: int(at(w, "version") or -1) >= 0, "his table")
        shown = sized(window, PHONE)
        most = one_row(shown)
        if game == "rams":
            assert shown["turned"] and shown["turned"][-1][1] == t("de", "web.kehrer"), "the Kehrer is not pictured"
        rng = random.Random(3)
        while shown["result"] is None:  # the first deal, clicked
            shown = tap(window, rng)
            most = max(most, one_row(shown))
            if shown["last"]["cards"] and not shown["result"]:  # a trick of this deal: its players, leader, winner
                assert len(shown["last"]["names"]) == len(shown["last"]["cards"]) and shown["last"]["led"] == 0
                assert len(shown["last"]["won"]) == 1 and shown["last"]["won"][0] in shown["last_took"]
        assert most == HAND_MAX[game], "his hand never held a whole deal's cards"
        table = live.stored()
        assert shown["version"] == live.run(live.service.store.load(live.table))[0]
        check_sizes(window, table, 1, (PHONE, DESKTOP))
        assert shown["state"] == "playing", "the match ended with its first deal: a longer one"
        # until he plays on; »Bisher« keeps it, and a tap there shows it again
        window.find_element("id", "result-close").click()
        shown = read(window)
        assert shown["result"] is None, "the result stays after »Weiter spielen«"
        assert [plain(x) for x in shown["deal_in_story"]] == [plain(x) for x in expected_result(table, 1)["lines"]]
        window.find_element("css selector", "#story li.deal button").click()
        assert read(window)["result"]["lines"] == shown["deal_in_story"], "a tap in »Bisher« shows the result again"
        assert moves_of(read(window)), "the next deal waits for him"
        assert tap(window, rng)["result"] is None, "his next decision did not put it away"
        live.run(play_out_for_him(live), timeout=120)
        wait_for(window, lambda w: at(w, "state") == "finished", "the match's end")
        table = live.stored()
        check_sizes(window, table, table.sheet_dropped + len(table.sheet), (DESKTOP, PHONE))
        shown = read(window)
        assert shown["trophy"] and plain(shown["result"]["final"][0]) == plain(render.summary(
            table, engine.view(engine.from_json(table.state), None)["match"])[0])
        assert shown["score"] == render.score_lines(table, engine.view(engine.from_json(table.state), None))
        window.find_element("id", "sheet-open").click()
        sheet = wait_for(window, lambda w: w.execute_script(
            "const d = document.getElementById('sheet-box'); return d.open && [...d.querySelectorAll('li')]"
            ".map(e => e.textContent)"), "the sheet")
        assert [plain(line) for line in sheet] == [plain(line) for line in story.sheet_text(table).split("\n")]
