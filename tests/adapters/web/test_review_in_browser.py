"""»Nachbesprechung« on the web table: after a deal he opens his review from the result and steps through its tricks,
on a phone and on a desktop; a watcher has none."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest

import engine
from bot.table.deal_log import finished_deal
from bot.table.record import Table
from bot.words.cards import card_label
from engine.cards import card_str
from tests.adapters.web.browser import DESKTOP, PHONE, resize, wait_for
from tests.adapters.web.livetable import LiveTable
from tests.adapters.web.webkit import GROUP, person
from tests.servicekit import Players, say

pytestmark = pytest.mark.timeout(120)

CARD = re.compile(r"(?:10|[2-9AKDB])[♣♠♥♦]")
_READ = """
const box = document.getElementById('review-box');
return {open: box.open, title: document.getElementById('review-title').textContent,
        step: document.getElementById('review-step').textContent, at: document.getElementById('review-at').textContent,
        cards: [...document.querySelectorAll('#review-trick figure')].map(e => e.dataset.card),
        lines: [...document.querySelectorAll('#review-lines li')].map(e => [e.className, e.textContent]),
        back: document.getElementById('review-back').disabled, next: document.getElementById('review-next').disabled,
        rect: (r => [r.left, r.right, r.bottom])(box.getBoundingClientRect()), width: innerWidth, height: innerHeight};
"""


async def _first_deal(live: LiveTable) -> None:
    """His moves of the first deal from another device, until it ended."""
    players = Players(live.service, GROUP, [person(0)], seed=7)
    await players.send(say(GROUP, person(0), "karten"))
    while Table.load((await live.service.store.load(live.table))[1]).deals_over < 1:
        await players.step()


def test_he_steps_through_his_review_of_the_deal_marks_and_all(redis_url, key_prefix, window):
    with LiveTable(redis_url, key_prefix, "bauer", seed=5, people=1, options="short_deck=1", review_samples=2) as live:
        live.run(_first_deal(live), timeout=60)
        window.get("about:blank")
        window.get(live.page(0))
        resize(window, PHONE)
        wait_for(window, lambda w: w.execute_script("return document.body.dataset.version"), "his table")
        if not window.find_element("id", "result").is_displayed():  # the next deal went on: »Bisher« keeps it
            window.find_element("css selector", "#story li.deal button").click()
        window.find_element("id", "result-review").click()
        shown = wait_for(window, lambda w: (r := w.execute_script(_READ))["open"] and r["title"] and r, "his review")
        deal = finished_deal(live.run(live.service.store.log(live.table)), 1)
        states = _states(deal)
        tricks = [[card_str(c) for c in cards] for _, cards, _ in states[-1].tricks]
        own = {card_label(c, "de") for state in states for c in engine.view(state, 0)["hand"]}
        assert shown["title"].strip() == "Nachbesprechung · Bauer · Spiel 1 (deine Sicht)", shown["title"]  # no 🔍 here
        opened_at = int(shown["at"].split(" / ")[0])
        while not shown["back"]:
            window.find_element("id", "review-back").click()
            shown = window.execute_script(_READ)
        steps, size = [], PHONE
        while True:
            if shown["step"] == "Vor dem Spiel":
                assert not steps and not shown["cards"], "his decisions before the play come first, with no trick"
            else:
                no = int(shown["step"].removesuffix(". Stich"))
                assert shown["cards"] == tricks[no - 1], "the trick as the table saw it"
            named = {c for _, text in shown["lines"] for c in CARD.findall(text)}
            assert named <= own, f"a card he never held: {named - own}"
            assert shown["rect"][1] <= shown["width"] + 0.5 and shown["rect"][2] <= shown["height"] + 0.5, size
            steps.append([kind for kind, _ in shown["lines"]])
            if shown["next"]:
                break
            size = DESKTOP if size == PHONE else PHONE  # each step at the other size
            resize(window, size)
            window.find_element("id", "review-next").click()
            shown = window.execute_script(_READ)
        assert len([s for s in steps if s != []]) >= 1 and len(steps) >= len(tricks), "every trick, his decisions in them"
        first = next((i for i, kinds in enumerate(steps, 1) if "mark" in kinds), None) or \
            next((i for i, kinds in enumerate(steps, 1) if "other" in kinds), 1)
        assert opened_at == first, "it opens at his first mistake, else where the strong player chose otherwise"
        window.find_element("id", "review-close").click()
        assert not window.execute_script(_READ)["open"]


def test_a_watcher_gets_no_review(redis_url, key_prefix):
    with LiveTable(redis_url, key_prefix, "bauer", seed=5, people=1, options="short_deck=1", review_samples=2) as live:
        live.run(_first_deal(live), timeout=60)
        url = live.watch_page().replace("/?", "/api/review?")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url, timeout=10)
        assert refused.value.code == 403 and refused.value.read().decode().strip() == \
            "Eine Nachbesprechung gibt es nur für die Spieler."
        with urllib.request.urlopen(live.page(0).replace("/?", "/api/review?") + "&no=1", timeout=10) as answer:
            assert answer.status == 200 and b'"steps"' in answer.read()


def _states(deal) -> list:
    """The deal's states, as dealt and after each action."""
    states = [deal.start]
    for seat, action, _ in deal.actions:
        states.append(engine.apply(states[-1], seat, action)[0])
    return states
