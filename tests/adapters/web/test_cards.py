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
ENGLISH = sorted(f"en/{card_str(c)}.svg" for c in ALL_CARDS if card_str(c)[0] in "JQ")
"""The English corner letters of the cards whose German ones differ (Bube B → J, Dame D → Q)."""
SVG = "{http://www.w3.org/2000/svg}svg"


def files(folder: Path) -> list[str]:
    """The files below ``folder``, as paths relative to it."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_one_picture_per_card_and_the_licence_beside_them():
    """Every card in the engine's notation has a picture, plus the back and the English J and Q; else LICENSE only."""
    assert files(CARDS) == sorted(PICTURES + ENGLISH + ["LICENSE"])
    licence = (CARDS / "LICENSE").read_text(encoding="utf-8")
    assert "CC0 1.0 Universal" in licence and "scripts/make-cards" in licence


def test_pictures_are_small_standalone_svg():
    """Each picture is an SVG document with its own viewBox and a title, under 2.5 KB, the deck under 60 KB."""
    sizes = {}
    for name in PICTURES + ENGLISH:
        data = (CARDS / name).read_bytes()
        root = ElementTree.fromstring(data)
        assert root.tag == SVG and root.get("viewBox") == "0 0 100 140", name
        assert root.find("{http://www.w3.org/2000/svg}title").text, name
        assert b"http" not in data.replace(b"http://www.w3.org/2000/svg", b""), f"{name} fetches something"
        sizes[name] = len(data)
    assert max(sizes.values()) < 2500, sizes
    assert sum(sizes.values()) < 60_000, sum(sizes.values())


def test_corner_letters_speak_each_language():
    """The German pictures carry B and D, the English ones J and Q, at both corners."""
    for name in ENGLISH:
        rank = name[3]
        german, english = (CARDS / name[3:]).read_text(), (CARDS / name).read_text()
        assert f">{'B' if rank == 'J' else 'D'}</text>" in german and f">{rank}</text>" in english
        assert german.replace(f">{'B' if rank == 'J' else 'D'}</text>", "") != english


def test_committed_pictures_are_the_scripts(tmp_path):
    """``scripts/make-cards`` draws exactly the committed files, byte for byte."""
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make-cards"), "--out", str(tmp_path)], check=True)
    drawn = files(tmp_path)
    assert drawn == sorted(PICTURES + ENGLISH)
    changed = [name for name in drawn if (tmp_path / name).read_bytes() != (CARDS / name).read_bytes()]
    assert changed == []
