"""Swiss pairing: entrants of like standing meet, nobody twice while that can be avoided.

The pairing is a maximum-weight matching of the field (``networkx.max_weight_matching``, the
blossom algorithm) over all pairs, of maximum cardinality, with integer weights that rank, in
this order: fewer rematches, then fewer byes given to an entrant who had one, then nearer
standing (the squared gap in rank). With an odd field a bye node joins the graph; the bye goes
to the lowest-ranked entrant without one where that costs no rematch.
"""

from __future__ import annotations

from collections.abc import Collection


__all__ = ["pair"]

_BYE = "\x00bye"


def pair(ranked: list[str], met: Collection[frozenset[str]], had_bye: Collection[str]) -> list[tuple[str, str | None]]:
    """Pairs for the next round from ``ranked`` (best first); ``None`` is the bye.

    Args:
        ranked: the entrants still in, in standings order.
        met: every pair of entrants that has already met.
        had_bye: the entrants that already had a bye.
    """
    n = len(ranked)
    if n < 2:
        return [(e, None) for e in ranked]
    nodes = list(ranked) + ([_BYE] if n % 2 else [])
    position = {e: i for i, e in enumerate(ranked)}
    position[_BYE] = n
    gap_max = len(nodes) ** 2
    bye_cost = gap_max * len(nodes)
    rematch_cost = bye_cost * len(nodes)
    ceiling = rematch_cost * 2
    import networkx as nx  # 0.3 s to import: only a Swiss round's draw needs it, not every process

    graph = nx.Graph()
    for i, a in enumerate(nodes):
        for b in nodes[i + 1:]:
            if b == _BYE:
                cost = bye_cost * (a in had_bye) + (n - 1 - position[a]) ** 2
            else:
                cost = rematch_cost * (frozenset((a, b)) in met) + (position[a] - position[b]) ** 2
            graph.add_edge(a, b, weight=ceiling - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = []
    for a, b in matching:
        if a == _BYE or (b != _BYE and position[b] < position[a]):
            a, b = b, a
        pairs.append((a, None if b == _BYE else b))
    return sorted(pairs, key=lambda p: position[p[0]])
