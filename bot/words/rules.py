"""The short rules of a game as its table plays them: the rules text of the catalogs, with what the
table's options change (the round's end, the trump call after 2 or 5 cards, the target ...), and that the last
card plays itself (:mod:`bot.table.forced`)."""

from __future__ import annotations

import engine
from bot.words.figures import money
from bot.words.i18n import has, t, tn
from engine.bauerchen import round_end
from engine.rams import target_of

__all__ = ["rules_text"]


def rules_text(game: str, options: dict, lang: str, n: int = 0, currency: str = "Fr.") -> str:
    """The short rules of ``game`` with ``options`` (``n`` players: Rams' target; ``currency``: its settlement)."""
    last = f"rules.last_card.{game}"
    return f"{_rules(game, options, lang, n, currency)} {t(lang, last if has(last) else 'rules.last_card')}"


def _rules(game: str, options: dict, lang: str, n: int, currency: str) -> str:
    """The game's own rules text, with its options."""
    parsed = engine.parse_options(game, options)
    if game == "bauerchen":
        return _bauerchen(parsed, lang)
    if game == "bauer":
        text = t(lang, "rules.bauer", deck=20 if parsed.short_deck else 32, cards=3 if parsed.short_deck else 4,
                 brote=parsed.target_brote)
        return text + (" " + t(lang, "rules.bauer_lead_trump") if parsed.lead_trump_first else "")
    if game == "rams":
        target = target_of(parsed, n) if n else (parsed.target or t(lang, "rs.default_target"))
        return t(lang, "rules.rams", target=target, unit=money(lang, parsed.unit, currency),
                 fee=money(lang, parsed.kartoffel_fee, currency))
    text = t(lang, f"rules.{game}", target=parsed.target)
    if getattr(parsed, "grand_solo_needs_jc", False):
        text += " " + t(lang, "rules.bs_grand_jc")
    return text


def _bauerchen(options, lang: str) -> str:
    """Bauerchen's rules: the main text, then the sentences of the options that differ from the seed's."""
    letzte = options.die_letzte and options.trump_after_cards == 2
    text = t(lang, "rules.bauerchen", cards=options.trump_after_cards, end=round_end(options),
             letzte=t(lang, "rules.bc_letzte") if letzte else "",
             overtrump=t(lang, "rules.bc_overtrump_lead" if options.overtrump_on_trump_lead_only
                         else "rules.bc_overtrump"))
    extra = [key for key, on in (("rules.bc_forty_at_ten", options.forty_at_ten),
                                 ("rules.bc_weiterschreiben", options.weiterschreiben),
                                 ("rules.bc_no_ledig_decider", not options.ledig_in_decider)) if on]
    return " ".join([text, *(t(lang, key) for key in extra), tn(lang, "rules.bc_steine", options.target_steine)])
