"""Telegram's markup: a press's answer is cut to what Telegram accepts."""

from __future__ import annotations

from adapters.telegram.markup import ANSWER_MAX, toast, utf16_len


def test_a_long_answer_is_cut_to_200_utf16_units_and_a_short_one_kept():
    assert toast("Du bist nicht dran.") == "Du bist nicht dran." and toast(None) is None
    cut = toast("🃏" * 150)
    assert utf16_len(cut) <= ANSWER_MAX and cut.endswith("🃏…")
    assert utf16_len(toast("x" * 300)) == ANSWER_MAX
