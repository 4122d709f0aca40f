"""The CP-SAT backend: one Boolean literal per placement, connectivity by lazy cuts.

This module builds the model (:func:`build_model`); the cuts are in
:mod:`solver.backends.cpsat.cuts` and the loop that solves, checks and cuts in
:mod:`solver.backends.cpsat.solving`. What follows describes all three.

Model (OR-tools CP-SAT), for each played colour c and each placement p of
:func:`solver.core.placements.placements_for` (every placement that fits, not only the playable
ones) that :func:`reachable` keeps:

* literal ``x[p]``: p is in the layout;
* pieces: per remaining piece with multiplicity k, ``sum x == k`` ("place-all") or ``<= k``
  ("max-score");
* "covered" literal ``cover[c, s] == sum of x[p] over the placements of c covering s``;
  no overlap: per square, ``AtMostOne(cover[c, s] over the colours)``;
* no shared edge: per (colour, grid edge) one ``AtMostOne`` over the placements covering
  either end (far fewer constraints than pairwise clauses);
* first piece: a colour with no squares covers its start square (always in "place-all", if
  it places anything in "max-score"); on a board of shared starting points (Trigon) a
  literal per free starting point says which one its first piece covers
  (:func:`_add_shared_start`): the roots are then the rows covering the chosen point;
* local corner support (redundant, NOT connectivity): a placement that is not playable now
  implies ``BoolOr(cover[c, s] for the squares s that share a corner but no edge with it)``.

Connectivity is added lazily (local support alone lets islands float). Every
solution CP-SAT reports is checked in a solution callback: the corner-contact graph of each
colour's chosen placements is searched from its roots (chosen placements playable now).
Each component C that reaches no root (an island) gives two valid cuts, added before the
next solve (hinted with the last solution):

* placement cut, for every p in C: ``x[p] => OR(x[q] for q in N(C))``, N(C) being the
  placements outside C that touch a member of C legally at a corner. Valid: in a legal
  layout containing p, the chain of corner contacts from p to a root leaves C (no root is
  in C) through such a q. C can never be an island again. With shared starting points
  the clause also holds the literals of the free points C's rows cover: another layout
  may have its first piece in C.
* separator cut (:func:`separator`): a minimum set Sep of uncovered squares that every king
  path from C's squares to the roots meets, and the region S on C's side:
  ``OR(cover[b], b in S) => OR(cover[n], n in Sep)``. Valid because a chain of corner
  contacts is a king path of covered squares. It forbids every arrangement in a pocket at
  once.

Card goals ("place-all"). A square to cover: ``OR(cover[c, s] over the colours)``. A colour
to connect (several groups of pieces on the board, :attr:`ColourModel.groups`): every
solution's corner-contact graph of the groups and the chosen placements is searched from
the first group; each component C holding another group gives the cut
``OR(x[q] for q in N(C))``, N(C) being the placements outside C that touch a member of C
(a placement, or a group's squares) legally at a corner. Valid: in a legal layout meeting
the goal, the chain from C's group to the first group leaves C through such a q (groups
are always on the board, so this cut is unconditional). An empty N(C) proves the groups
cannot be joined.

The loop ends when a layout has no island (and meets the card goals), when CP-SAT proves
the model infeasible (a proof for the real problem, since every constraint and cut is
valid), or at the time limit.

Steering (:func:`add_guide_penalties`): a penalty literal per (colour, piece) is set when a
chosen placement has no covered corner square strictly nearer its colour's roots. In
"place-all" the model minimises the penalties; in "max-score" it maximises
``scale * score - penalties`` (score first). This changes no answer (feasibility and the
best score are those of the same relaxation) but makes CP-SAT build layouts outwards from
the roots.

With ``monomino_last`` (and for the +5 bonus in "max-score") one monomino is held back
(:func:`split_last_monomino`): a legal order ends with a monomino m iff the other added
pieces connect without m (the rule of :func:`solver.core.checker.monomino_can_be_last`). A
colour whose only piece to add is the monomino places it last wherever it goes: nothing
is held back, and in "max-score" its bonus literal is its "all placed" literal. With one
monomino, its placements are the held-back ones; with two (Junior), the monomino
placements appear twice, as the held-back copy (placed once) and as ordinary pieces (the
other monomino, which may bridge). The colour's graph without the held-back monomino is
also checked from its roots, with cuts that leave the held-back copy out; the held-back
monomino needs corner contact with another piece of the colour and never covers the
start square. In "max-score" those requirements are enforced only if the colour's "bonus
claimed" literal is true.

Grids. The model reads the board's geometry, so it is the same on Trigon's triangles
(issue 43): placements from :func:`solver.core.placements.placements_for`, edge neighbours
(three per triangle) for the edge constraints, corner rings from
:func:`solver.core.placements.ring_cells`, king moves (edge or corner neighbours) for the
separator cut and breadth-first steps for the steering distance; piece numbers from the
board's piece family (Trigon lists its monomino last). The 2x2-block rows are the square
grid's only. The square grid's model is unchanged, constraint for constraint.

The measurements behind these choices are in ``research/notes/cpsat_notes.md``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from ortools.sat.python import cp_model

from solver.core.board import Board, neighbour_table
from solver.core.pieces import MONOMINO, PIECES, family
from solver.core.placements import PlacementTable, placements_for, ring_cells
from solver.core.position import ColourState, Position
from solver.core.problem import Problem, connect_groups

#: the monomino's number on the square grid (a table's own: ``table.names.index(MONOMINO)``;
#: the Trigon family lists it last)
MONOMINO_INDEX = PIECES[MONOMINO].index


def roots(state: ColourState, free: frozenset[int] = frozenset()) -> frozenset[int]:
    """A colour's root squares: its squares, or its start square while it has none, or,
    with neither (Trigon), the free starting points ``free`` (its first piece covers one)."""
    if state.squares:
        return state.squares
    if state.start is None:
        return free
    return frozenset({state.start})


def free_starts(position: Position, state: ColourState) -> frozenset[int]:
    """The starting points a colour's first piece may cover: on a board of shared
    starting points (Trigon), those no piece covers, while the colour has no cell and no
    start square of its own; empty otherwise (every square board)."""
    if state.squares or state.start is not None:
        return frozenset()
    return position.starting_points - position.occupied


def root_distance(board: Board, roots: frozenset[int]) -> np.ndarray:
    """King-move distance of every square to the nearest root square: Chebyshev distance
    on the square grid; on another grid (Trigon) the steps through edge or corner
    neighbours, breadth first (cells no root reaches: the cell count).

    Returns:
        Shape (cells,), int.
    """
    if not board.square_grid:
        return _steps_from(board, roots)
    r, c = np.divmod(np.arange(board.size), board.cols)
    rr, rc = np.divmod(np.array(sorted(roots)), board.cols)
    distance: np.ndarray = np.maximum(
        np.abs(r[:, None] - rr[None, :]), np.abs(c[:, None] - rc[None, :])
    ).min(1)
    return distance


def _steps_from(board: Board, roots: frozenset[int]) -> np.ndarray:
    """Breadth-first steps through edge or corner neighbours from ``roots``, on any grid."""
    geometry = board.geometry
    near = np.hstack([geometry.edge_table, geometry.corner_table])
    distance = np.full(board.size, board.size, dtype=np.int64)
    front = np.zeros(board.size + 1, dtype=bool)  # last entry: padding (-1)
    front[sorted(roots)] = True
    step = 0
    while front[:-1].any():
        distance[front[:-1]] = step
        step += 1
        grown = np.zeros_like(front)
        grown[near[front[:-1]].ravel()] = True
        grown[:-1] &= distance == board.size
        grown[-1] = False
        front = grown
    return distance


def reachable(
    table: PlacementTable, corners: np.ndarray, board_size: int, last: np.ndarray | None = None
) -> np.ndarray:
    """The placements that some chain of corner contacts links to a playable placement.

    A placement is reached if it is playable now or covers a corner square (see
    :func:`corner_squares`) of a reached placement. Every piece of a legal layout is reached
    (by induction along its chain to a root), so the others can be left out of the model.
    With ``last`` (shape (P,), bool: the rows of the monomino that must be placed last, see
    :func:`split_last_monomino`) the chains may not pass through those rows, and such a row
    is kept only if it is playable or touches a reached row.

    Returns:
        Shape (P,), bool.
    """
    usable = np.ones(len(table), dtype=bool) if last is None else ~last
    reached = table.playable & usable
    marked = np.zeros(board_size + 1, dtype=bool)  # last entry: padding (-1)
    while True:
        marked[:] = False
        marked[corners[reached]] = True
        marked[-1] = False
        touched = marked[table.squares].any(axis=1)
        grown = usable & (reached | touched)
        if (grown == reached).all():
            break
        reached = grown
    if last is not None:
        reached = reached | (last & (table.playable | touched))
    result: np.ndarray = reached
    return result


def split_last_monomino(table: PlacementTable, copies: int) -> tuple[PlacementTable, np.ndarray]:
    """Mark the rows of the monomino that must be placed last ("held back").

    With one monomino, its rows are the held-back rows. With ``copies`` >= 2 (Junior: two),
    the monomino rows are duplicated: the copies at the end of the table are the held-back
    monomino (placed once), the original rows are the other ``copies - 1`` monominoes,
    ordinary pieces that may bridge. Either monomino may be the last one (checker rule), so
    the model chooses which one is held back. The copies of a square exclude each other
    through the cover literals (no overlap) like any two placements.

    Returns:
        (table, last): the table with the copies appended, and shape (P',) bool, the
        held-back rows.
    """
    mono = table.piece == table.names.index(MONOMINO)
    if copies <= 1:
        return table, mono
    rows = np.flatnonzero(mono)
    table = table.subset(np.concatenate([np.arange(len(table)), rows]))
    last = np.zeros(len(table), dtype=bool)
    last[len(table) - len(rows) :] = True
    return table, last


@dataclass(eq=False)
class ColourModel:
    """The part of the model for one played colour.

    Attributes:
        name: colour name.
        table: its placements (rows of :func:`solver.core.placements.placements_for`, the
            monomino rows twice when it holds two monominoes that may have to be last,
            see :func:`split_last_monomino`).
        x: one literal per row of ``table``.
        corners: shape (P, R): for each row the cells that share a corner but no edge
            with it, padded with -1 (R is 20 on the square grid; see
            :func:`solver.core.placements.ring_cells`).
        mono: shape (P,), bool: the row places a monomino.
        last: shape (P,), bool: the row places the monomino held back to be last (left
            out of the graph "without the last monomino"; all False when no monomino may
            have to be last).
        indptr, indices: the rows covering each square (CSR, see
            :meth:`PlacementTable.covering`).
        edges: shape (squares + 1, E): edge neighbours (E: 4 squares, 3 triangles),
            last row padding (see :func:`solver.core.board.neighbour_table`).
        cover: square -> literal "covered by this colour" (squares some row covers).
        cover_rest: square -> literal "covered by a piece of this colour other than the
            held-back monomino" (only for colours whose monomino may have to be last).
        mono_last: "place-all" with ``monomino_last``: the graph without the held-back
            monomino must connect too.
        bonus: "max-score": the literal "this colour claims the +5 bonus", or None.
        all_placed: "max-score": the literal "this colour places all its pieces", or None.
        groups: a colour to connect: the squares of each group of its pieces on the
            board (:func:`solver.core.problem.connect_groups`); empty otherwise.
        root_at: a colour with no cell yet on a board of shared starting points
            (Trigon): free starting point -> the literal "the colour's first piece covers
            it" (exactly one is true in "place-all"; at most one in "max-score"); empty
            otherwise, where the playable rows are the roots.
        var_index: shape (P,): the CP-SAT variable index of each literal of ``x``.
    """

    name: str
    table: PlacementTable
    x: list[cp_model.IntVar]
    corners: np.ndarray
    mono: np.ndarray
    last: np.ndarray
    indptr: np.ndarray
    indices: np.ndarray
    edges: np.ndarray
    cover: dict[int, cp_model.IntVar] = field(default_factory=dict)
    cover_rest: dict[int, cp_model.IntVar] = field(default_factory=dict)
    mono_last: bool = False
    bonus: cp_model.IntVar | None = None
    all_placed: cp_model.IntVar | None = None
    groups: list[frozenset[int]] = field(default_factory=list)
    root_at: dict[int, cp_model.IntVar] = field(default_factory=dict)
    _touching: dict[int, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.var_index = np.fromiter((v.index for v in self.x), dtype=np.int64, count=len(self.x))

    @classmethod
    def of(
        cls,
        name: str,
        table: PlacementTable,
        x: list[cp_model.IntVar],
        corners: np.ndarray,
        last: np.ndarray,
        board: Board,
        mono_last: bool,
    ) -> ColourModel:
        """A colour's model with its lookup arrays (``mono``, ``indptr``, ``indices``,
        ``edges``) computed from ``table`` and ``board``."""
        indptr, indices = table.covering()
        width = 4 if board.square_grid else board.geometry.edge_table.shape[1]
        edges = neighbour_table(board.edge_neighbours, width, pad_row=True)
        mono = table.piece == table.names.index(MONOMINO)
        return cls(name, table, x, corners, mono, last, indptr, indices, edges, mono_last=mono_last)

    def rooted(self, values: np.ndarray) -> np.ndarray:
        """The rows that are roots in a solution (CP-SAT values by variable index): the
        playable rows, or with :attr:`root_at` those covering a starting point whose
        literal is true.

        Returns:
            Shape (P,), bool.
        """
        if not self.root_at:
            return self.table.playable
        chosen = [s for s, lit in self.root_at.items() if values[lit.index] > 0]
        return self.table.playable & np.isin(self.table.squares, chosen).any(axis=1)

    def root_literals(self, rows: list[int]) -> list[cp_model.IntVar]:
        """The :attr:`root_at` literals of the starting points some of ``rows`` cover:
        any of them true lets one of these rows be the colour's first piece."""
        if not self.root_at:
            return []
        cells = {int(s) for i in rows for s in self.table.squares[i] if s >= 0}
        return [lit for s, lit in sorted(self.root_at.items()) if s in cells]

    def covering(self, square: int) -> np.ndarray:
        """Rows covering a square."""
        return self.indices[self.indptr[square] : self.indptr[square + 1]]

    def touching(self, row: int) -> np.ndarray:
        """Rows that can touch row ``row`` legally at a corner (no overlap, no shared edge)."""
        if row not in self._touching:
            corner = self.corners[row][self.corners[row] >= 0]
            cand = np.unique(
                np.concatenate(
                    [self.covering(int(s)) for s in corner]
                    + [np.zeros(0, dtype=self.indices.dtype)]
                )
            )
            forbidden = np.zeros(len(self.edges), dtype=bool)  # last entry: padding (-1)
            own = self.table.squares[row]
            own = own[own >= 0]
            forbidden[own] = True
            forbidden[self.edges[own].ravel()] = True
            forbidden[-1] = False
            clash = forbidden[self.table.squares[cand]].any(axis=1)
            self._touching[row] = cand[~clash]
        return self._touching[row]

    def touching_group(self, group: int) -> np.ndarray:
        """Rows that touch group ``group`` of :attr:`groups` at a corner (rows never share
        an edge with the colour's squares, see :func:`solver.core.placements.placements_for`)."""
        squares = np.array(sorted(self.groups[group]), dtype=np.int64)
        return np.flatnonzero(np.isin(self.corners, squares).any(axis=1))


@dataclass(eq=False)
class BuiltModel:
    """A CP-SAT model of a problem and how to read its objective.

    Attributes:
        model: the CP-SAT model.
        colours: one :class:`ColourModel` per played colour, in the problem's order.
        offset: "max-score": score of the played colours = score terms + ``offset``.
        scale: "max-score": objective = ``scale`` * score terms - penalties.
        penalties: number of steering penalty literals (see :func:`add_guide_penalties`).
        best_possible: "max-score": the total score if every played colour placed all its
            pieces and earned every bonus it can.
    """

    model: cp_model.CpModel
    colours: list[ColourModel]
    offset: int = 0
    scale: int = 1
    penalties: int = 0
    best_possible: int = 0

    def score_bound(self, objective_bound: float) -> int:
        """An upper bound on the total score: CP-SAT's bound on the objective, or the score
        with every piece placed (and the bonuses), whichever is lower."""
        if not math.isfinite(objective_bound):
            return self.best_possible
        found = (math.floor(objective_bound + 1e-6) + self.penalties) // self.scale + self.offset
        return min(found, self.best_possible)


class ModelInfeasible(Exception):
    """Raised while building: the problem has trivially no layout."""


def _build_colour(
    model: cp_model.CpModel, problem: Problem, colour: str, blocks: bool = False
) -> ColourModel:
    position = problem.position
    state = position.colour(colour)
    wanted = Counter(state.remaining)
    monos = wanted.get(MONOMINO, 0)
    if problem.goal == "place-all" and problem.monomino_last and not monos:
        if wanted or state.last_piece != MONOMINO:
            raise ModelInfeasible(f"{colour} has no monomino left to place last")
    # the monomino must be last (place-all) or may have to be, for the bonus (max-score);
    # a monomino that is the only piece to add is last wherever it goes
    only_mono = wanted == Counter({MONOMINO: 1})
    strict = problem.goal == "place-all" and problem.monomino_last and monos > 0 and not only_mono
    may_claim = problem.goal == "max-score" and position.bonus and monos > 0 and not only_mono
    table = placements_for(position, colour)
    if strict or may_claim:
        table, last = split_last_monomino(table, monos)
    else:
        last = np.zeros(len(table), dtype=bool)
    corners = ring_cells(table, position.board, corner=True)
    keep = reachable(table, corners, position.board.size, last if strict else None)
    free = free_starts(position, state)
    # (a colour choosing its starting point: which points each row is near enough to)
    near = _point_steps(position, table, free) < state.remaining_squares
    keep &= near.any(axis=1) if free else True
    table, corners, last, near = table.subset(keep), corners[keep], last[keep], near[keep]
    x = [model.new_bool_var(f"{colour}_{i}") for i in range(len(table))]
    cm = ColourModel.of(colour, table, x, corners, last, position.board, strict)
    if problem.goal == "max-score" and position.bonus and wanted:
        cm.all_placed = model.new_bool_var(f"{colour}_all")
        if may_claim:
            cm.bonus = model.new_bool_var(f"{colour}_bonus")
            model.add_implication(cm.bonus, cm.all_placed)
        elif only_mono:
            cm.bonus = cm.all_placed
    # the literals that switch the monomino-last requirements off: none, or "no bonus"
    claim: list[cp_model.LiteralT] | None = None
    if strict:
        claim = []
    elif cm.bonus is not None:  # (set exactly when the colour may claim the bonus)
        claim = [cm.bonus.Not()]

    index = family(position.board.grid).index
    counts = [
        (name, cm.table.piece == index[name], k)
        for name, k in wanted.items()
        if name != MONOMINO or monos == 1 or claim is None
    ]
    if monos > 1 and claim is not None:  # held-back copy once, the others as usual
        counts += [
            ("monomino to place last", cm.last, 1),
            (MONOMINO, cm.mono & ~cm.last, monos - 1),
        ]
    _add_piece_counts(model, problem, cm, counts)
    _add_cover_literals(model, position, cm, claim is not None)
    _add_edge_constraints(model, position, cm)
    if blocks and position.board.square_grid:
        _add_block_constraints(model, position, cm)

    if wanted and free:
        _add_shared_start(model, problem, cm, free, near, claim)
    elif not state.squares and wanted:
        start = None if state.start is None else cm.cover.get(state.start)
        if problem.goal == "place-all":
            if start is None:
                raise ModelInfeasible(f"no piece of {colour} fits on its start square")
            model.add_bool_or([start])
        else:  # pieces off the start square only with a piece on it
            later = [x[i] for i in np.flatnonzero(~table.playable)]
            if later:
                total = sum(wanted.values())
                model.add(
                    cp_model.LinearExpr.sum(later) <= total * (start if start is not None else 0)
                )
        # the held-back monomino never covers the start square: it would be the root, the
        # only piece the others could connect to
        if claim is not None:
            for i in np.flatnonzero(cm.last):
                if state.start in table.squares[i]:
                    model.add_bool_or([x[i].Not()] + claim)

    # local corner support of the placements not playable now: each touches another piece
    # at a corner; when the monomino may have to be last, a piece other than the held-back
    # monomino (valid for every piece: the held-back one touches some other piece, and the
    # others connect without it)
    for i in np.flatnonzero(~table.playable):
        corner = [int(s) for s in cm.corners[i] if s >= 0]
        if claim != []:  # else implied by the clause on cover_rest
            model.add_bool_or([x[i].Not()] + [cm.cover[s] for s in corner if s in cm.cover])
        if claim is not None:
            rest = [cm.cover_rest[s] for s in corner if s in cm.cover_rest]
            model.add_bool_or([x[i].Not(), *claim, *rest])
    return cm


def _add_shared_start(
    model: cp_model.CpModel,
    problem: Problem,
    cm: ColourModel,
    free: frozenset[int],
    near: np.ndarray,
    claim: list[cp_model.LiteralT] | None,
) -> None:
    """A colour with no cell yet on a board of shared starting points (Trigon): its first
    piece covers one of the ``free`` starting points, chosen by the literals
    :attr:`ColourModel.root_at` (``root_at[s] => cover[s]``; exactly one in "place-all",
    at most one in "max-score", where the colour places nothing without one). The rows
    covering a free starting point are playable but are roots only under their point's
    literal, so each of them is that first piece or touches another of the colour at a
    corner; the held-back monomino (``claim``, see :func:`_build_colour`) is never the
    first piece. A row also needs a point near enough (``near``, shape (P, len(free)), the
    points ascending: :func:`_point_steps` under the cells left): the colour's new cells
    are joined to its first piece's point by king paths through them, so a row with a
    cell as many king steps from a point as the colour has cells left, or more, excludes
    that point (without this, CP-SAT floats islands at the other points one cut at a
    time).

    Raises:
        ModelInfeasible: "place-all" and no piece fits on a free starting point.
    """
    table, x = cm.table, cm.x
    cm.root_at = {
        s: model.new_bool_var(f"{cm.name}_root{s}") for s in sorted(free) if s in cm.cover
    }
    for s, lit in cm.root_at.items():
        model.add_implication(lit, cm.cover[s])
    chosen = list(cm.root_at.values())
    if problem.goal == "place-all":
        if not chosen:
            raise ModelInfeasible(f"no piece of {cm.name} fits on a free starting point")
        model.add_exactly_one(chosen)
    else:
        model.add_at_most_one(chosen)
        total = len(problem.position.colour(cm.name).remaining)
        model.add(cp_model.LinearExpr.sum(x) <= total * cp_model.LinearExpr.sum(chosen))
    points = sorted(free)
    for i in np.flatnonzero(~near.all(axis=1)):
        ok = [cm.root_at[s] for s, by in zip(points, near[i]) if by and s in cm.root_at]
        model.add_bool_or([x[i].Not(), *ok])
    for i in np.flatnonzero(table.playable):
        first = [lit for s, lit in cm.root_at.items() if s in table.squares[i]]
        corner = [cm.cover[int(s)] for s in cm.corners[i] if s >= 0 and int(s) in cm.cover]
        model.add_bool_or([x[i].Not(), *first, *corner])
        if claim is not None and cm.last[i]:
            for lit in first:
                model.add_bool_or([x[i].Not(), lit.Not(), *claim])


def _point_steps(position: Position, table: PlacementTable, points: frozenset[int]) -> np.ndarray:
    """For each row and each of ``points`` (ascending), the king steps
    (:func:`root_distance`) from the point to the row's farthest cell (none for no points).

    Returns:
        Shape (P, len(points)), int.
    """
    cells = table.squares
    out = np.zeros((len(table), len(points)), dtype=np.int64)
    for k, s in enumerate(sorted(points)):
        steps = root_distance(position.board, frozenset({s}))
        out[:, k] = np.where(cells >= 0, steps[np.maximum(cells, 0)], 0).max(axis=1)
    return out


def _add_piece_counts(
    model: cp_model.CpModel,
    problem: Problem,
    cm: ColourModel,
    counts: list[tuple[str, np.ndarray, int]],
) -> None:
    """Per (piece name, rows mask, multiplicity k): ``sum x == k`` (place-all) or ``<= k``
    (max-score; ``== k`` if the colour claims to place everything)."""
    for name, rows, k in counts:
        lits = [cm.x[i] for i in np.flatnonzero(rows)]
        if problem.goal == "place-all":
            if len(lits) < k:
                raise ModelInfeasible(f"{cm.name}'s {name} fits nowhere")
            model.add(cp_model.LinearExpr.sum(lits) == k)
        else:
            model.add(cp_model.LinearExpr.sum(lits) <= k)
            if cm.all_placed is not None:
                model.add(cp_model.LinearExpr.sum(lits) == k).only_enforce_if(cm.all_placed)


def _add_cover_literals(
    model: cp_model.CpModel, position: Position, cm: ColourModel, rest: bool
) -> None:
    """``cover[s] == sum of x covering s``; with ``rest`` also ``cover_rest`` (the same
    without the held-back monomino)."""
    for s in range(position.board.size):
        rows = cm.covering(s)
        if len(rows) == 0:
            continue
        lit = model.new_bool_var(f"{cm.name}_cover{s}")
        model.add(cp_model.LinearExpr.sum([cm.x[i] for i in rows]) == lit)
        cm.cover[s] = lit
        if rest:
            others = [cm.x[i] for i in rows if not cm.last[i]]
            if len(others) == len(rows):
                cm.cover_rest[s] = lit
            elif others:
                lit2 = model.new_bool_var(f"{cm.name}_rest{s}")
                model.add(cp_model.LinearExpr.sum(others) == lit2)
                cm.cover_rest[s] = lit2


def _add_edge_constraints(model: cp_model.CpModel, position: Position, cm: ColourModel) -> None:
    """One AtMostOne per grid edge over the colour's placements covering either end."""
    board = position.board
    for s in range(board.size):
        for n in board.edge_neighbours[s]:
            if n > s:
                rows = np.union1d(cm.covering(s), cm.covering(n))
                if len(rows) > 1:
                    model.add_at_most_one([cm.x[i] for i in rows])


def _add_block_constraints(model: cp_model.CpModel, position: Position, cm: ColourModel) -> None:
    """Per 2x2 block of the board: the squares of the block the colour's new pieces cover
    sum to at most 2, plus (k - 2) for a placement covering k = 3 or 4 of them.

    Valid for every legal layout: squares of one colour sharing an edge belong to one
    piece, and any 3 or 4 squares of a 2x2 block are linked by shared edges, so a colour
    covers at most 2 squares of a block unless a single piece covers 3 or 4 (then exactly
    those). Redundant for the answer, but CP-SAT's full linear relaxation
    (:data:`PROOF_PARAMS`) is much stronger with them: it proves the one-colour rectangles
    3x47, 4x36, 6x24 and 12x12 impossible. At CP-SAT's default linearization they only slow
    the search (1.39x CPU time on puzzles/classic-solo-blue.toml), so they are added only
    with ``linearization_level`` 2 or more (:func:`full_relaxation`). Written here again
    on purpose, from the model's own cover literals rather than from
    :func:`solver.backends.bounds.relaxation._add_block_rows`, so that CP-SAT re-proves the LP
    bound's "no"s with code of its own.
    """
    board = position.board
    for top in range(board.size):
        r, c = divmod(top, board.cols)
        if r + 1 >= board.rows or c + 1 >= board.cols:
            continue
        block = (top, top + 1, top + board.cols, top + board.cols + 1)
        covered = [cm.cover[s] for s in block if s in cm.cover]
        if len(covered) < 3:
            continue
        inside = np.concatenate([cm.covering(s) for s in block])
        rows, count = np.unique(inside, return_counts=True)
        extra = [(cm.x[int(i)], int(k) - 2) for i, k in zip(rows, count) if k >= 3]
        model.add(
            cp_model.LinearExpr.sum(covered)
            <= 2 + cp_model.LinearExpr.weighted_sum([v for v, _ in extra], [k for _, k in extra])
        )


def add_guide_penalties(
    model: cp_model.CpModel, problem: Problem, colours: list[ColourModel]
) -> list[cp_model.IntVar]:
    """Steering penalties: one literal per (colour, piece other than the monomino).

    A chosen placement of piece A that is not playable now implies ``pen[A]`` or a covered
    square at one of its corners strictly nearer (:func:`root_distance`) to the colour's
    roots than all of its own squares (for a colour whose monomino must be last: covered by
    a non-monomino piece). With every penalty false, each piece leans on a piece nearer the
    roots, so following those contacts reaches a root: the layout is connected. That is a
    sufficient condition, not a necessary one (a chain may turn back), so the penalties go
    into the objective, never into the constraints.

    Returns:
        The penalty literals.
    """
    penalties: list[cp_model.IntVar] = []
    for cm in colours:
        state = problem.position.colour(cm.name)
        free = free_starts(problem.position, state)
        dist = root_distance(problem.position.board, roots(state, free))
        sq = cm.table.squares
        nearest = np.where(sq >= 0, dist[np.maximum(sq, 0)], 1 << 20).min(axis=1)
        cover = cm.cover_rest or cm.cover
        pen: dict[str, cp_model.IntVar] = {}
        # a colour choosing its starting point: a row covering one leans on its literal
        leaning = ~cm.mono if cm.root_at else ~cm.table.playable & ~cm.mono
        for i in np.flatnonzero(leaning):
            name = cm.table.names[cm.table.piece[i]]
            if name not in pen:
                pen[name] = model.new_bool_var(f"{cm.name}_pen{name}")
            down = [
                cover[int(s)]
                for s in cm.corners[i]
                if s >= 0 and dist[s] < nearest[i] and int(s) in cover
            ]
            first = cm.root_literals([int(i)])
            model.add_bool_or([cm.x[i].Not(), pen[name], *down, *first])
        penalties += list(pen.values())
    return penalties


def build_model(problem: Problem, guide: bool = True, blocks: bool = False) -> BuiltModel:
    """The CP-SAT model of a problem, without connectivity cuts.

    Args:
        problem: the problem.
        guide: add :func:`add_guide_penalties` to the objective.
        blocks: add the 2x2-block rows (:func:`_add_block_constraints`).

    Raises:
        ModelInfeasible: a requirement can trivially not be met (a piece fits nowhere...).
    """
    position = problem.position
    model = cp_model.CpModel()
    colours = [_build_colour(model, problem, c, blocks) for c in problem.colours]
    for cm in colours:
        if cm.name in problem.connect:
            cm.groups = connect_groups(position, cm.name)
    for s in sorted(problem.stars_left):
        lits = [cm.cover[s] for cm in colours if s in cm.cover]
        if not lits:
            raise ModelInfeasible(f"no piece can cover the star {position.board.name(s)}")
        model.add_bool_or(lits)
    if len(colours) > 1:
        for s in range(position.board.size):
            lits = [cm.cover[s] for cm in colours if s in cm.cover]
            if len(lits) > 1:
                model.add_at_most_one(lits)
    penalties = add_guide_penalties(model, problem, colours) if guide else []
    built = BuiltModel(model, colours, penalties=len(penalties))
    if problem.goal == "place-all":
        if penalties:
            model.minimize(cp_model.LinearExpr.sum(penalties))
        return built
    built.scale = len(penalties) + 1
    lits, coefs = [], []
    for cm in colours:
        state = position.colour(cm.name)
        if not state.remaining:
            built.offset += position.score(cm.name)
            built.best_possible += position.score(cm.name)
            continue
        built.offset -= state.remaining_squares
        built.best_possible += (15 if cm.all_placed is not None else 0) + (
            5 if cm.bonus is not None else 0
        )
        lits += cm.x
        coefs += [int(v) * built.scale for v in cm.table.size]
        for lit, points in ((cm.all_placed, 15), (cm.bonus, 5)):
            if lit is not None:
                lits.append(lit)
                coefs.append(points * built.scale)
    lits += penalties
    coefs += [-1] * len(penalties)
    model.maximize(cp_model.LinearExpr.weighted_sum(lits, coefs))
    return built
