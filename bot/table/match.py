"""Moves on a table: engine actions applied one by one, deal after deal, with a move log.

:class:`Match` wraps a :class:`~bot.table.record.Table` and its decoded engine state for the span of
one command. The public events of every applied action go to the table's story and to ``news``
(what this command showed the table, for the narrative of :mod:`bot.words.story`). Every applied
action goes to ``log`` (``{"s", "a", "by"}``) and every new deal too
(``{"deal": <engine JSON>}``), so the store's move log alone replays the table. When a deal
ends the match deals on with the given ``rng`` (``secrets``-grade in the service), or finishes
the table when the match is decided.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.table import window
from bot.table.stakes import STAKES
from bot.table.record import Table
from engine.bauerchen import BauerchenOptions, round_end
from engine.cards import EYES
from engine.state import State

__all__ = ["Match", "EYE_GAMES", "STORY_EVENTS", "SHEET_MAX", "trick_event", "deal_record", "round_total"]

EYE_GAMES = frozenset({"bauernstoss", "alter_schafkopf", "bauerchen"})
"""The games whose tricks count eyes (a "best trick" is worth telling)."""
STORY_EVENTS = frozenset({"passed", "announced", "trump_named", "let_partner_name", "solo", "gave",
                          "die_letzte", "spritz", "ledig", "meld", "stoss", "karten_weg", "decision", "robbed"})
"""The engine events a table's story keeps (all public: counts, named suits, shown cards, never a hand)."""
SHEET_MAX = 100
"""How many finished deals a table's score sheet keeps (the oldest are dropped first)."""


def trick_event(state: State, event: dict) -> dict:
    """A completed trick's engine event with the seat that played each card (for the story)."""
    seats, s = [], event["leader"]
    for _ in event["cards"]:
        seats.append(s)
        s = state.next_active(s)
    return {"type": "trick", "seats": seats, "cards": event["cards"], "winner": event["winner"]}


def round_total(options: BauerchenOptions, before: list[int], points: list[int], winner: int,
                ledig: bool) -> list[int]:
    """A won Bauerchen round's final score, from the score before its last deal and that deal's points.

    Points over the round's end are dropped (kept with ``weiterschreiben``). A round won by Ledig gives its
    winner the round's end (the seed: "bekommt automatisch 12 Punkte und beendet die Runde").
    """
    score = [before[0] + points[0], before[1] + points[1]]
    if ledig:
        score[winner] = round_end(options)
    elif not options.weiterschreiben:
        score = [min(x, round_end(options)) for x in score]
    return score


def deal_record(before: State, final: State, story: list[dict]) -> dict:
    """What the story and the score sheet keep of a finished deal: result, the public facts, the match
    before and after, the deal's story and its last trick."""
    view = engine.view(final, None)
    last = view["tricks"][-1] if view["tricks"] else None
    record: dict[str, Any] = {"result": final.result or {}, "public": view["public"], "trump": view["trump"],
                              "before": before.match, "after": final.match, "story": story,
                              "tricks_played": len(view["tricks"])}
    if last is not None:
        record["trick"] = trick_event(final, last)
    alone = view["public"].get("ledig", view["public"].get("karten_weg"))
    if alone is not None:  # Ledig, Karten weg: the sheet's row names who played alone
        record["alone"] = alone
    return record


class Match:
    """The engine side of one table during one command.

    Args:
        table: the table to change in place.
        rng: shuffles new deals (``secrets.SystemRandom()`` in the service).
        now: the clock reading for turn timestamps.
        state: ``table.state`` already decoded, if the caller has it (engine states are never
            changed in place, so one decoded state may serve many commands).
    """

    def __init__(self, table: Table, rng, now: float, state: State | None = None) -> None:
        self.table = table
        self.rng = rng
        self.now = now
        if state is None and table.state:
            state = engine.from_json(table.state)
        self.state: State | None = state
        self.log: list[dict[str, Any]] = []
        self.news: list[dict[str, Any]] = []
        self.moves = 0
        self.dealt = 0

    # ----------------------------------------------------------- life cycle
    def start(self) -> None:
        """Fill the free seats with computer players and deal the first deal."""
        table = self.table
        table.fill()
        table.status = "playing"
        table.votes = []
        dealer = self.rng.randrange(table.n)
        self._deal(engine.new_match(table.game, self.rng, table.n, table.options, dealer))

    def _deal(self, state: State) -> None:
        self.state = state
        self.dealt += 1
        self.table.since = self.now
        self.table.story = []
        self.table.declare = None
        window.update(self.table, state, self.now)
        self.log.append({"deal": engine.to_json(state)})

    def save(self) -> None:
        """Write the engine state back into the table."""
        if self.state is not None:
            self.table.state = engine.to_json(self.state)

    # ----------------------------------------------------------- queries
    @property
    def running(self) -> bool:
        """Whether a deal is running (someone must act)."""
        return self.table.status == "playing" and self.state is not None and self.state.to_act is not None

    def to_act(self) -> int | None:
        """The seat to act, ``None`` when nobody must."""
        return self.state.to_act if self.running else None

    # ----------------------------------------------------------- moves
    def act(self, seat: int, action: engine.Action, by: str, why: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Apply ``action`` for ``seat`` (raises :class:`engine.Rejected`); deal on when the deal ends.

        ``by`` says who acted: the user key, ``"cpu"`` or ``"timer"``. ``why``: a strong computer's reason
        for a stake (:mod:`bot.table.stakes`), kept with the story's event of it. Returns the engine events.
        """
        if self.table.status != "playing" or self.state is None:
            raise engine.Rejected(engine.Code.DEAL_OVER, "no deal is running")
        before = self.state
        state, events = engine.apply(before, seat, action)
        self.moves += 1
        self.log.append({"s": seat, "a": action.to_dict(), "by": by})
        self.state = state
        if why is not None:
            for ev in events:
                if ev["type"] in STAKES:  # the event's type is the stake's kind
                    ev["why"] = why
        self._tell(state, events)
        if state.to_act != before.to_act:
            self.table.since = self.now
        window.update(self.table, state, self.now)
        if engine.is_over(state):
            self._deal_over(before, state)
        return events

    def declined(self, seat: int, why: dict[str, Any]) -> None:
        """A strong computer let the stake ``why["kind"]`` pass where the heuristic would have taken it: the
        story tells it once per seat and stake in a deal (such offers are asked again before every card)."""
        if any(ev["type"] == "declined" and ev["seat"] == seat and ev["why"]["kind"] == why["kind"]
               for ev in self.table.story):
            return
        ev = {"type": "declined", "seat": seat, "why": why}
        self.table.story.append(ev)
        self.news.append(ev)

    def _tell(self, state: State, events: list[dict[str, Any]]) -> None:
        """Keep the public events in the deal's story and in this command's news."""
        for ev in events:
            if ev["type"] in STORY_EVENTS:
                self.table.story.append(ev)
                self.news.append(ev)
            elif ev["type"] == "trick":
                self.news.append(trick_event(state, ev))

    def _keep_record(self, before: State, state: State) -> None:
        """Write the finished deal on the score sheet; older records keep only what the sheet shows."""
        table = self.table
        record = deal_record(before, state, table.story)
        if table.sheet:
            table.sheet[-1] = {k: v for k, v in table.sheet[-1].items() if k in ("result", "before", "after", "alone")}
        table.sheet.append(record)
        if len(table.sheet) > SHEET_MAX:
            del table.sheet[0]
            table.sheet_dropped += 1
        self.news.append({"type": "deal_over", "record": record, "no": table.sheet_dropped + len(table.sheet)})

    def _deal_over(self, before: State, state: State) -> None:
        table = self.table
        result = state.result or {}
        self._keep_record(before, state)
        if not result.get("thrown_in"):
            table.deals += 1
        table.last = result
        if table.game in EYE_GAMES:
            for _, cards, winner in state.tricks:
                eyes = sum(EYES[c] for c in cards)
                if not table.best or eyes > table.best[1]:
                    table.best = [winner, eyes]
        if table.game == "bauerchen" and result.get("round_winner") is not None:
            score = round_total(state.options, before.match["score"], result["points"], result["round_winner"],
                                state.ledig is not None)
            table.marks.append(score + [result["round_winner"]])
        if engine.match_over(state):
            table.status = "finished"
        else:
            self._deal(engine.next_deal(state, self.rng))
