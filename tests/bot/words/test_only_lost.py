"""Which hand changes only take choices away (:func:`bot.words.hand.only_lost`): those keep their buttons
valid and may wait for the hand's next change; which only add some (:func:`bot.words.hand.only_gained`): their
older buttons stay valid too; every other change renews the buttons."""

from __future__ import annotations

from bot.words.hand import only_gained, only_lost
from engine.actions import Action

LEDIG, SPRITZ, RETOUR = Action("ledig"), Action("spritz"), Action("spritz", size="retour")
GIVE = Action("give", card=3)


def sig(choices=(), declaring=False, cards=(1, 2, 3), levels=None) -> tuple:
    out = ("playing", list(cards), (True,) * 4, tuple(choices), declaring)
    return out if levels is None else out + levels


def test_choices_or_the_window_going_away_only_lose():
    assert only_lost(sig([LEDIG, SPRITZ], declaring=True), sig([SPRITZ], declaring=True))
    assert only_lost(sig([LEDIG], declaring=True), sig([LEDIG]))


def test_a_card_a_choice_added_a_relabelled_or_a_card_naming_choice_gone_renews_the_buttons():
    assert not only_lost(sig([LEDIG]), sig([LEDIG], cards=(1, 2))), "a card played"
    assert not only_lost(sig([LEDIG]), sig([LEDIG, SPRITZ])), "a choice added"
    assert not only_lost(sig([LEDIG]), sig([LEDIG], declaring=True)), "his window opened"
    assert not only_lost(sig([SPRITZ, RETOUR], levels=(1, 0)), sig([RETOUR], levels=(2, 0))), "Retour ×4 now ×8"
    assert not only_lost(sig([GIVE, LEDIG]), sig([LEDIG])), "the card buttons gave, now they play"
    assert not only_lost(("lobby",), sig()), "no deal before"


def test_choices_added_keep_the_buttons_shown_unless_one_names_a_card_or_a_label_or_card_changed():
    assert only_gained(sig([LEDIG]), sig([LEDIG, SPRITZ])), "a choice added"
    assert only_gained(sig([LEDIG]), sig([LEDIG, RETOUR], levels=(1, 0))), "Retour came (×4)"
    assert only_gained(sig([LEDIG]), sig([LEDIG], declaring=True)), "his window opened"
    assert not only_gained(sig([LEDIG, SPRITZ]), sig([SPRITZ])), "one gone"
    assert not only_gained(sig([RETOUR], levels=(1, 0)), sig([RETOUR], levels=(2, 0))), "Retour ×4 now ×8"
    assert not only_gained(sig([LEDIG]), sig([LEDIG, SPRITZ], cards=(1, 2))), "a card played"
    assert not only_gained(sig([LEDIG]), sig([LEDIG, GIVE])), "the card buttons would give"
    assert not only_gained(("lobby",), sig()), "no deal before"


def test_its_own_seat_going_out_only_loses_where_the_hand_names_no_partners():
    passed = ("playing", [1, 2, 3], (True,), (), False)
    assert only_lost(passed, ("playing", [1, 2, 3], (False,), (), False)), "a Rams seat that passed sits out"
    assert not only_lost(("playing", [1, 2, 3], (False,), (), False), passed), "a seat back in play"
    robbing = ("playing", [1, 2, 3], (True,), (GIVE, Action("pass")), False)
    assert only_lost(robbing, ("playing", [1, 2, 3], (False,), (), False)), "a dealer who could rob passed"
    assert not only_lost(sig(), ("playing", [1, 2, 3], (True, False, True, True), (), False)), "partners named"
