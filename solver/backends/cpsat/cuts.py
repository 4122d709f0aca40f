"""The CP-SAT backend's lazy cuts: a solution's islands (:func:`islands`: components of a
colour's corner-contact graph that reach no root), the placement cut and the separator cut
each island gives (:func:`add_cuts`, :func:`separator`), and the card goals' connect cuts.
Why each cut is valid: :mod:`solver.backends.cpsat.model`.
"""

from __future__ import annotations

import numpy as np
from ortools.sat.python import cp_model

from solver.backends.cpsat.model import ColourModel, free_starts, roots
from solver.core.position import Position


def islands(
    cm: ColourModel,
    chosen: np.ndarray,
    without_last: bool = False,
    root: np.ndarray | None = None,
) -> list[list[int]]:
    """Components of a colour's chosen placements that reach no root.

    Args:
        cm: the colour's model.
        chosen: rows of ``cm.table`` in the solution.
        without_last: leave the held-back monomino (rows ``cm.last``) out of the graph
            (monomino last).
        root: shape (P,), bool: the rows that are roots in this solution
            (:meth:`ColourModel.rooted`); None: the rows playable now.

    Returns:
        The islands, each a list of rows; roots are chosen rows of ``root``.
    """
    root = cm.table.playable if root is None else root
    rows = [int(i) for i in chosen if not (without_last and cm.last[i])]
    squares = {i: {int(s) for s in cm.table.squares[i] if s >= 0} for i in rows}
    corner = {i: {int(s) for s in cm.corners[i] if s >= 0} for i in rows}
    adj = {i: [j for j in rows if j != i and corner[i] & squares[j]] for i in rows}
    seen = {i for i in rows if root[i]}
    todo = list(seen)
    out: list[list[int]] = []
    for start in [None] + rows:
        if start is not None:
            if start in seen:
                continue
            seen.add(start)
            todo = [start]
            out.append([start])
        while todo:
            for j in adj[todo.pop()]:
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
                    if start is not None:
                        out[-1].append(j)
    return out


def apart(cm: ColourModel, chosen: np.ndarray) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """A colour to connect: the components of its groups and chosen placements (joined by
    corner contact) that hold a group but not the first one.

    Returns:
        Each as (rows of ``cm.table``, indices into :attr:`ColourModel.groups`), sorted.
    """
    if len(cm.groups) < 2:
        return []
    rows = [int(i) for i in chosen]
    touch = {g: set(cm.touching_group(g).tolist()) for g in range(len(cm.groups))}
    squares = {i: {int(s) for s in cm.table.squares[i] if s >= 0} for i in rows}
    corner = {i: {int(s) for s in cm.corners[i] if s >= 0} for i in rows}
    # nodes: ("g", group) and ("p", row)
    adj: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for i in rows:
        adj[("p", i)] = [("p", j) for j in rows if j != i and corner[i] & squares[j]]
        adj[("p", i)] += [("g", g) for g in touch if i in touch[g]]
    for g in touch:
        adj[("g", g)] = [("p", i) for i in rows if i in touch[g]]
    seen: set[tuple[str, int]] = set()
    out = []
    for node in [("g", g) for g in range(len(cm.groups))]:
        if node in seen:
            continue
        seen.add(node)
        component, todo = [node], [node]
        while todo:
            for n in adj[todo.pop()]:
                if n not in seen:
                    seen.add(n)
                    component.append(n)
                    todo.append(n)
        if node != ("g", 0):
            out.append(
                (
                    tuple(sorted(k for kind, k in component if kind == "p")),
                    tuple(sorted(k for kind, k in component if kind == "g")),
                )
            )
    return out


def add_connect_cut(
    model: cp_model.CpModel, cm: ColourModel, rows: list[int], groups: list[int]
) -> int:
    """Add ``OR(x[q], q in N(C))`` for a component C of :func:`apart` (its rows and
    groups): N(C) are the rows outside C touching a row or a group of C. Returns 1."""
    near = [cm.touching(i) for i in rows] + [cm.touching_group(g) for g in groups]
    joined = np.unique(np.concatenate(near + [np.zeros(0, dtype=np.int64)]))
    joined = joined[~np.isin(joined, rows)]
    model.add_bool_or([cm.x[int(q)] for q in joined])
    return 1


def island_neighbours(cm: ColourModel, island: list[int], without_last: bool = False) -> np.ndarray:
    """N(C): rows outside the island C that touch one of its members legally at a corner."""
    near = np.unique(np.concatenate([cm.touching(i) for i in island]))
    near = near[~np.isin(near, island)]
    if without_last:
        near = near[~cm.last[near]]
    return near


def add_cuts(
    model: cp_model.CpModel, cm: ColourModel, island: list[int], without_last: bool = False
) -> int:
    """Add ``x[p] => OR(x[q], q in N(C))`` for every p of the island C; returns the count.

    With ``without_last`` in "max-score", the cuts are enforced only if the bonus is claimed.
    For a colour whose first piece chooses its starting point (:attr:`ColourModel.root_at`),
    the clause also holds the literals of the points C's rows cover: C may hold the first
    piece of another layout.
    """
    near = [cm.x[int(q)] for q in island_neighbours(cm, island, without_last)]
    near += cm.root_literals(island)
    guard = [cm.bonus.Not()] if without_last and cm.bonus is not None else []
    for p in island:
        model.add_bool_or([cm.x[p].Not(), *guard, *near])
    return len(island)


def separator(
    cm: ColourModel,
    position: Position,
    chosen: list[int],
    island: list[int],
    without_last: bool = False,
    root: np.ndarray | None = None,
) -> tuple[list[int], list[int]] | None:
    """A smallest set of uncovered squares separating an island from the colour's roots.

    The graph: squares the colour can cover (``cover``, or ``cover_rest`` without the
    held-back monomino) and its root squares (its squares, or its start square, or every
    free starting point for a colour that chooses one: :func:`roots`), joined by king moves
    (edge or corner neighbours). ``root`` is as for :func:`islands`.
    A maximum flow from the island's squares to the roots and the squares the solution
    connects to them, through uncovered squares of capacity 1, gives a minimum vertex cut
    Sep nearest the island, and S, the squares on the island's side.

    Returns:
        (S, Sep) as square lists, or None if there is no finite cut.
    """
    board = position.board
    state = position.colour(cm.name)
    root_cells = roots(state, free_starts(position, state))
    cover = cm.cover_rest if without_last else cm.cover
    rows = [i for i in chosen if not (without_last and cm.last[i])]
    own = {i: [int(s) for s in cm.table.squares[i] if s >= 0] for i in rows}
    covered = {s for i in rows for s in own[i]}
    source = {s for i in island for s in own[i]}
    lost = {i for c in islands(cm, np.array(rows, dtype=np.int64), without_last, root) for i in c}
    sink = root_cells | {s for i in rows if i not in lost for s in own[i]}
    nodes = set(cover) | root_cells
    inf = 1 << 30
    # node-split residual graph: 2*s = in, 2*s + 1 = out; -1 = source, -2 = sink
    residual: dict[int, dict[int, int]] = {}

    def arc(u: int, v: int, capacity: int) -> None:
        residual.setdefault(u, {})[v] = residual.get(u, {}).get(v, 0) + capacity
        residual.setdefault(v, {}).setdefault(u, 0)

    for sq in nodes:
        arc(2 * sq, 2 * sq + 1, inf if sq in covered or sq in root_cells else 1)
        for n in board.edge_neighbours[sq] + board.corner_neighbours[sq]:
            if n in nodes:
                arc(2 * sq + 1, 2 * n, inf)
    for sq in source:
        arc(-1, 2 * sq, inf)
    for sq in sink:
        arc(2 * sq + 1, -2, inf)
    while True:
        parent: dict[int, int | None] = {-1: None}
        queue = [-1]
        for u in queue:
            for v, c in residual[u].items():
                if c > 0 and v not in parent:
                    parent[v] = u
                    queue.append(v)
            if -2 in parent:
                break
        if -2 not in parent:
            break
        path: list[tuple[int, int]] = []
        head, tail = -2, parent[-2]
        while tail is not None:
            path.append((tail, head))
            head, tail = tail, parent[tail]
        push = min(residual[u][w] for u, w in path)
        if push >= inf:
            return None
        for u, w in path:
            residual[u][w] -= push
            residual[w][u] += push
    reached = set(parent)
    inside = [sq for sq in nodes if 2 * sq + 1 in reached]
    cut = [sq for sq in nodes if 2 * sq in reached and 2 * sq + 1 not in reached]
    return inside, cut


def add_separator_cut(
    model: cp_model.CpModel,
    cm: ColourModel,
    inside: list[int],
    cut: list[int],
    without_last: bool = False,
) -> int:
    """Add ``OR(cover[b], b in S) => OR(cover[n], n in Sep)``; returns the count.

    Valid for any S without root squares and any Sep that every king path from S to the
    roots through coverable squares meets: the chain of corner contacts from a covered square
    of S to the roots is such a path of covered squares.
    """
    cover = cm.cover_rest if without_last else cm.cover
    guard = [cm.bonus.Not()] if without_last and cm.bonus is not None else []
    lits = [cover[b] for b in inside if b in cover]
    if not lits:
        return 0
    some = model.new_bool_var(f"{cm.name}_region")
    for lit in lits:
        model.add_implication(lit, some)
    model.add_bool_or([some.Not()] + guard + [cover[n] for n in cut if n in cover])
    return 1
