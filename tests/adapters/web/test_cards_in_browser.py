"""The card pictures as a real browser draws them: every one loads and has the card's shape."""

from __future__ import annotations

from tests.adapters.web.browser import wait_for
from tests.adapters.web.test_cards import CARDS, ENGLISH, PICTURES


def test_chromium_draws_every_card_picture(windows, tmp_path):
    """A page with all 45 pictures as ``<img>``: each decodes, 100×140 as its viewBox says."""
    images = "".join(f'<img alt="{name}" src="{(CARDS / name).as_uri()}" style="width:60px">'
                     for name in PICTURES + ENGLISH)
    page = tmp_path / "deck.html"
    page.write_text(f"<!doctype html><body>{images}</body>", encoding="utf-8")
    window = windows()
    window.get(page.as_uri())
    wait_for(window, lambda w: w.execute_script(
        "return [...document.images].every(i => i.complete)"), "every picture to load")
    sizes = window.execute_script(
        "return Object.fromEntries([...document.images].map(i => [i.alt, [i.naturalWidth, i.naturalHeight]]))")
    assert sizes == {name: [100, 140] for name in PICTURES + ENGLISH}
