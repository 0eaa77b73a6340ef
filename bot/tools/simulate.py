"""Computer-only matches for statistics and speed: ``stammtisch simulate``."""

from __future__ import annotations

import random
import time
from typing import Any

import engine
from bot.table.computer import OFFER_CHANCE, act, kind_of, offer
from engine.cards import card_strs, cards_in
from engine.deal import shuffled
from engine.players.playout import play_out
from engine.state import PLAY_PHASE, State

__all__ = ["simulate", "random_deal", "kind_deal", "played_replay"]


def random_deal(state: State, rng: random.Random) -> int:
    """Play ``state``'s deal to its end in place with random legal actions; return the card plays."""
    plays = 0
    choice = rng.choice
    while state.to_act is not None:
        if state.phase == PLAY_PHASE:
            offers = state.offers()
            if offers and rng.random() < OFFER_CHANCE:
                seat = choice(sorted(offers))
                state.do(seat, choice(offers[seat]))
                continue
            if state.PLAY_VARIANTS:
                state.do(state.to_act, choice(state.play_actions()))
            else:
                state.play_card(choice(cards_in(state.legal_cards())))
            plays += 1
        else:
            seat = state.to_act
            state.do(seat, choice(state.legal()))
    return plays


def kind_deal(state: State, rng: random.Random, kind: str) -> int:
    """Play ``state``'s deal to its end in place with computer players of ``kind``; return the card plays."""
    play_out(state, lambda st, s: act(kind, st, s, rng), lambda st, s: offer(kind, st, s, rng), check=True)
    return sum(len(cards) for _, cards, _ in state.tricks) + len(state.trick)


def played_replay(game: str, rng: random.Random, kind: str = "leicht", players: int | None = None,
                  options: dict | None = None) -> dict[str, Any]:
    """A replay file's object (``rules/replay-format.md``) of a first deal dealt by ``rng`` at a random dealer,
    played to its end by computer players of ``kind`` (``leicht`` by default: the heuristic with slips)."""
    cls = engine.game_class(game)
    opts = engine.parse_options(game, options)
    n = players or cls.DEFAULT_PLAYERS
    match = cls.new_match(opts, n)
    dealer = rng.randrange(n)
    hands, blind, turned = cls.packets(opts, n, match, dealer, shuffled(cls.deck(opts, n, match), rng))
    state = cls.start(opts, n, dealer, match, hands, blind, turned)
    actions: list[dict[str, Any]] = []

    def noted(decide):
        def decided(st: State, seat: int) -> engine.Action | None:
            action = decide(kind, st, seat, rng)
            if action is not None:
                actions.append({"seat": seat, **action.to_dict()})
            return action
        return decided

    play_out(state, noted(act), noted(offer), check=True)
    return {"game": game, "options": options or {}, "players": n, "dealer": dealer,
            "deal": {"hands": [card_strs(h) for h in hands], "blind": card_strs(blind), "turned": card_strs(turned)},
            "actions": actions}


def simulate(game: str, players: int | None = None, deals: int | None = None, matches: int | None = None,
             seed: int = 0, options: dict | None = None, kind: str = "random") -> dict[str, Any]:
    """Play ``deals`` deals (or ``matches`` whole matches) with computer players of ``kind``; return the statistics.

    ``random`` (the default, and the fastest) plays random legal moves.
    """
    kind = kind_of(kind)
    rng = random.Random(seed)
    state = engine.new_match(game, rng, players, options)
    n_deals = plays = 0
    sums: dict[str, list[float]] = {}
    flags: dict[str, int] = {}
    match_wins: dict[str, int] = {}
    matches_done = 0
    start = time.perf_counter()
    while True:
        plays += random_deal(state, rng) if kind == "random" else kind_deal(state, rng, kind)
        n_deals += 1
        _collect(state.result, sums, flags, getattr(state, "SEAT_LISTS", ()), state.n)
        if state.match_over():
            matches_done += 1
            key = str(state.match.get("winner", state.match.get("ranking", [None])[0]))
            match_wins[key] = match_wins.get(key, 0) + 1
        if deals is not None and n_deals >= deals:
            break
        if matches is not None and matches_done >= matches:
            break
        if state.match_over():
            state = engine.new_match(game, rng, state.n, options, dealer=rng.randrange(state.n))
        else:
            state = engine.next_deal(state, rng)
    seconds = time.perf_counter() - start
    return {
        "game": game,
        "players": state.n,
        "kind": kind,
        "moves": "random legal moves" if kind == "random" else f"computer players ({kind})",
        "seed": seed,
        "options": state.options.model_dump(),
        "deals": n_deals,
        "matches": matches_done,
        "card_plays": plays,
        "stats": {
            "average": {k: [round(x / n_deals, 3) for x in v] for k, v in sorted(sums.items())},
            "deals_with": dict(sorted(flags.items())),
            "match_winners": dict(sorted(match_wins.items())),
        },
        "timing": {
            "seconds": round(seconds, 3),
            "card_plays_per_second": round(plays / seconds) if seconds else None,
        },
    }


def _collect(result: dict | None, sums: dict[str, list[float]], flags: dict[str, int],
             seat_lists: tuple[str, ...] = (), n: int = 0) -> None:
    """Add a deal's result to the running sums (numeric lists) and flag counts.

    ``seat_lists`` name result keys that list seats (Rams' ``kartoffeln``); they count per seat.
    """
    for key, value in (result or {}).items():
        if key in seat_lists:
            value = [int(s in value) for s in range(n)]
        if isinstance(value, list) and value and all(isinstance(x, (int, float)) for x in value):
            acc = sums.setdefault(key, [0.0] * len(value))
            for i, x in enumerate(value):
                acc[i] += x
        elif isinstance(value, bool) and value:
            flags[key] = flags.get(key, 0) + 1
        elif isinstance(value, int) and not isinstance(value, bool) and key.endswith(("winner", "chalk", "brot")):
            name = f"{key}={value}"
            flags[name] = flags.get(name, 0) + 1
