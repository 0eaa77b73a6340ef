"""A Fernspiel turn's rising deadlines, and how a vacation moves them (pure: a table record and a clock)."""

from __future__ import annotations

from bot.protocol.outgoing import ChatRef
from bot.table import deadlines, vacation
from bot.table.record import Seat, Table

HOUR, DAY = 3600.0, 86400.0
T0 = 1_800_039_600.0
ANNA = "test:1"


def table(pace: str = "fernspiel", remind: int = 86400, auto: int = 3 * 86400) -> Table:
    """A playing table of Anna and three computers whose turn began at ``T0``."""
    seats = [Seat(user=ANNA, name="Anna"), *[Seat(bot=True, name=f"C{i}") for i in range(3)]]
    return Table(id="Tbl00001", chat=ChatRef("test", "g"), game="bauernstoss", n=4, opener=ANNA, seats=seats,
                 status="playing", state={"to_act": 0}, pace=pace, remind=remind, auto=auto, since=T0)


def test_a_turn_gets_two_reminders_then_the_automatic_move():
    assert deadlines.stages(table(), 0) == [("remind", T0 + 36 * HOUR), ("remind_last", T0 + 64.8 * HOUR),
                                            ("auto", T0 + 72 * HOUR)]
    short = table(auto=2 * 3600)  # the last tenth is the last hour: one reminder at half is all
    assert deadlines.stages(short, 0) == [("remind", T0 + HOUR), ("auto", T0 + 2 * HOUR)]
    assert deadlines.next_timer(table(), 0, T0 + 36 * HOUR) == ("remind_last", T0 + 64.8 * HOUR)
    assert deadlines.next_timer(table(), 0, T0 + 80 * HOUR) == ("auto", T0 + 80 * HOUR)
    assert not deadlines.rising(table(pace="normal")) and not deadlines.rising(table(auto=0))


def test_a_vacation_stops_the_clock_and_what_came_before_it_stays_past():
    tb = table()
    assert vacation.hold(tb, ANNA, T0 + 40 * HOUR, T0 + 40 * HOUR + 2 * DAY, "Europe/Berlin")
    assert not vacation.hold(tb, ANNA, T0 + 40 * HOUR, T0 + 40 * HOUR + 2 * DAY, "Europe/Berlin")
    assert deadlines.stages(tb, 0) == [("remind", T0 + 36 * HOUR), ("remind_last", T0 + 64.8 * HOUR + 2 * DAY),
                                       ("auto", T0 + 72 * HOUR + 2 * DAY)]
    assert vacation.running(tb, ANNA, T0 + 41 * HOUR) is not None
    assert vacation.release(tb, ANNA, T0 + 40 * HOUR + DAY) and not vacation.release(tb, ANNA, T0 + 50 * HOUR)
    assert vacation.running(tb, ANNA, T0 + 41 * HOUR) is None  # ended early: a day
    assert deadlines.stages(tb, 0)[1:] == [("remind_last", T0 + 64.8 * HOUR + DAY), ("auto", T0 + 72 * HOUR + DAY)]


def test_a_second_vacation_in_one_turn_keeps_the_first_ones_pause_and_the_move_waits_a_day_after_it():
    tb = table()
    vacation.hold(tb, ANNA, T0, T0 + DAY, "")
    vacation.release(tb, ANNA, T0 + DAY)
    vacation.hold(tb, ANNA, T0 + 30 * HOUR, T0 + 30 * HOUR + 2 * DAY, "")
    assert deadlines.stages(tb, 0) == [("remind", T0 + 36 * HOUR + 3 * DAY), ("remind_last", T0 + 64.8 * HOUR + 3 * DAY),
                                       ("auto", T0 + 72 * HOUR + 3 * DAY)]
    late = table()
    vacation.hold(late, ANNA, T0 + 71 * HOUR, T0 + 72 * HOUR, "")
    assert deadlines.stages(late, 0)[-1] == ("auto", T0 + 72 * HOUR + DAY)  # at least a reminder interval after it


def test_an_ended_vacation_is_forgotten_once_the_turn_passes_and_only_fernspiel_tables_hold():
    tb = table()
    vacation.hold(tb, ANNA, T0, T0 + DAY, "")
    vacation.release(tb, ANNA, T0 + DAY)
    tb.since = T0 + 2 * DAY
    vacation.hold(tb, "test:9", T0, T0 + DAY, "")  # any change prunes: Anna's entry can move no deadline now
    assert ANNA not in tb.away and "test:9" not in tb.away  # nor one of somebody not seated
    assert vacation.holds(table()) and not vacation.holds(table(pace="schnell"))
    assert not vacation.holds(table().model_copy(update={"tourney": "T1:1.1"}))
