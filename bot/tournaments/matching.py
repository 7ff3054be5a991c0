"""The cheapest way to pair everybody off, by networkx's maximum-weight matching.

Costs are tuples compared most important first (repeats, then byes, then scores, ...): each
tier is packed into one integer weight with a radix larger than any matching's total in the
tiers below it, so the matching with the greatest weight is the one with the least cost, tier by
tier. Integer weights keep networkx's blossom algorithm exact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Cost = tuple[int, ...]


class NoPairing(RuntimeError):
    """No way pairs everybody (only possible when some pairs are forbidden)."""


def cheapest_pairs(
    nodes: Sequence[int], cost: Callable[[int, int], Cost | None]
) -> list[tuple[int, int]]:
    """A perfect matching of ``nodes`` (an even count) of least total cost.

    ``cost(a, b)`` is a tuple of non-negative integers of one length for every allowed pair,
    or ``None`` where ``a`` and ``b`` may not be paired. Pairs come back as ``(a, b)`` with
    ``a`` before ``b`` in ``nodes``, in the order of their first node."""
    if len(nodes) % 2:
        raise ValueError("an odd number of nodes cannot all be paired")
    edges: list[tuple[int, int, Cost]] = []
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            found = cost(a, b)
            if found is not None:
                edges.append((a, b, found))
    if not edges:
        if nodes:
            raise NoPairing("nobody may be paired")
        return []
    tiers = len(edges[0][2])
    pairs = len(nodes) // 2
    # weights[i]: what one unit of tier i is worth, the last tier 1; each unit is larger than
    # any matching's total in every tier below it.
    weights = [1] * tiers
    for tier in range(tiers - 2, -1, -1):
        below = tier + 1
        worst = max(edge[2][below] for edge in edges) * pairs * weights[below]
        weights[tier] = weights[below] + worst
    packed = [
        (a, b, sum(w * c for w, c in zip(weights, found, strict=True))) for a, b, found in edges
    ]
    ceiling = max(weight for _, _, weight in packed) + 1
    import networkx as nx  # a tenth of a second to load: a bot loads it when it first pairs

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_weighted_edges_from((a, b, ceiling - weight) for a, b, weight in packed)
    matched: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matched) != len(nodes):
        raise NoPairing("no pairing seats everybody")
    order = {node: index for index, node in enumerate(nodes)}
    found_pairs = [(a, b) if order[a] < order[b] else (b, a) for a, b in matched]
    return sorted(found_pairs, key=lambda pair: order[pair[0]])
