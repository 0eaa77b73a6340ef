"""The web table's card pictures: one small SVG per card of the engine, the back, the CC0 licence.

The pictures are committed; ``scripts/make-cards`` draws them, and the committed files must be what
it draws (so a change to one without the other fails here).
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from engine.cards import ALL_CARDS, card_str

ROOT = Path(__file__).resolve().parents[3]
CARDS = ROOT / "adapters" / "web" / "static" / "cards"
PICTURES = sorted(f"{card_str(c)}.svg" for c in ALL_CARDS) + ["back.svg"]
SVG = "{http://www.w3.org/2000/svg}svg"


def test_one_picture_per_card_and_the_licence_beside_them():
    """Every card in the engine's notation has a picture, plus the back; nothing else but LICENSE."""
    assert sorted(p.name for p in CARDS.iterdir()) == sorted(PICTURES + ["LICENSE"])
    licence = (CARDS / "LICENSE").read_text(encoding="utf-8")
    assert "CC0 1.0 Universal" in licence and "scripts/make-cards" in licence


def test_pictures_are_small_standalone_svg():
    """Each picture is an SVG document with its own viewBox and a title, under 2.5 KB, the deck under 60 KB."""
    sizes = {}
    for name in PICTURES:
        data = (CARDS / name).read_bytes()
        root = ElementTree.fromstring(data)
        assert root.tag == SVG and root.get("viewBox") == "0 0 100 140", name
        assert root.find("{http://www.w3.org/2000/svg}title").text, name
        assert b"http" not in data.replace(b"http://www.w3.org/2000/svg", b""), f"{name} fetches something"
        sizes[name] = len(data)
    assert max(sizes.values()) < 2500, sizes
    assert sum(sizes.values()) < 60_000, sum(sizes.values())


def test_committed_pictures_are_the_scripts(tmp_path):
    """``scripts/make-cards`` draws exactly the committed files, byte for byte."""
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make-cards"), "--out", str(tmp_path)], check=True)
    drawn = sorted(p.name for p in tmp_path.iterdir())
    assert drawn == PICTURES
    changed = [name for name in drawn if (tmp_path / name).read_bytes() != (CARDS / name).read_bytes()]
    assert changed == []
