"""The linear-programming bound: a proof that several colours cannot all place their
remaining pieces, found in about a second where the search cannot finish.

The model is a relaxation of the rules: every legal way of placing all the remaining pieces
is a 0/1 solution of it, so if even fractional placements cannot cover the squares the
colours still need, no layout exists. For each colour c, one variable ``x[r]`` in [0, 1] per
placement r of a remaining piece that fits the position and lies within c's
:func:`solver.core.placements.reach`, and one ``y[c, s]`` in [0, 1] per square s such a
placement covers. Rows (all valid for every legal layout):

- piece: the placements of each remaining piece sum to at most its count;
- cover: ``y[c, s] = sum of x[r] over c's placements r covering s``;
- square: ``sum over colours of y[c, s] <= 1`` (no square is covered twice);
- edge: for squares s, t sharing an edge, ``y[c, s] + y[c, t] - (c's placements covering
  both) <= 1`` (two pieces of one colour never share an edge);
- support: for a placement r that does not touch its colour now,
  ``x[r] <= sum of y[c, k] over k in r's corner squares`` (a later piece touches an earlier
  one of its colour at a corner: :func:`solver.core.placements.ring_cells`);
- block (square grid only): per 2x2 block, the colour's covered squares sum to at most 2
  plus the excess of a placement covering 3 or 4 of them (:func:`_add_block_rows`).

The rows read the board's geometry, so the model is the same on Trigon's triangles: the
edge rows from the geometry's edge neighbours (three per triangle), the corner cells
from its corner neighbours, the placements from :func:`solver.core.placements.board_placements`;
the 2x2 blocks are the square grid's and have no rows there. A colour with no cell yet
attaches at any free starting point (:func:`solver.core.placements.colour_masks`): its
placements covering one have no support row, which every legal layout allows (its first
piece covers one).

The objective is the number of squares covered, ``sum of size(r) * x[r]``; its maximum is
at most the squares needed, and less means "no". The solver (OR-tools' GLOP) gives the
bound with floating-point tolerances, so it is not trusted as such: its dual values give a
bound by weak duality that is recomputed here with NumPy from the model's own matrix
(:func:`_dual_bound`), valid for any dual vector; only that recomputed bound is reported.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from solver.core.board import Board
from solver.core.pieces import family
from solver.core.placements import (
    PlacementTable,
    board_placements,
    colour_masks,
    fitting_rows,
    reach,
    ring_cells,
)
from solver.core.position import Placement, Position

#: a bound this far under the squares needed proves "no". Any layout covers exactly the
#: squares needed (an integer), so a wide margin loses no proof worth having, and it is
#: orders of magnitude above the rounding of the recomputed bound (sums of at most a few
#: hundred thousand products of duals of size at most about 10 with coefficients of size
#: at most 5: a crude worst case of about 1e-7)
MARGIN = 1e-3


@dataclass(frozen=True)
class LPBound:
    """The relaxation's verdict on one question.

    Attributes:
        colours: the colours asked about.
        need: squares they must still cover (their remaining pieces' squares).
        most: an upper bound on the squares any layout of theirs covers (recomputed by weak
            duality; ``need`` or more proves nothing).
        variables, rows: the model's size.
        seconds: wall time to build and solve.
        duals: shape (rows,): the dual vector that gives ``most`` (a certificate: see
            :func:`check_certificate`).
    """

    colours: tuple[str, ...]
    need: int
    most: float
    variables: int
    rows: int
    seconds: float
    duals: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def proves_no(self) -> bool:
        """True when no layout places every remaining piece of the colours."""
        return self.most < self.need - MARGIN

    @property
    def reason(self) -> str:
        """One line for the answer, e.g. "LP bound: at most 110.9 of the 114 squares fit,
        even fractionally"."""
        most = np.floor(self.most * 10) / 10
        return f"LP bound: at most {most:g} of the {self.need} squares fit, even fractionally"


@dataclass
class _Model:
    """The model as a sparse matrix: ``lower <= A z <= upper``, ``0 <= z <= 1``."""

    objective: list[np.ndarray] = field(default_factory=list)
    entries: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=list)
    lower: list[np.ndarray] = field(default_factory=list)
    upper: list[np.ndarray] = field(default_factory=list)
    columns: int = 0
    rows: int = 0

    def add_columns(self, objective: np.ndarray) -> np.ndarray:
        """New variables with these objective coefficients; returns their numbers."""
        self.objective.append(np.asarray(objective, dtype=float))
        first = self.columns
        self.columns += len(objective)
        return np.arange(first, self.columns)

    def add_rows(
        self,
        row: np.ndarray,
        col: np.ndarray,
        val: np.ndarray,
        lower: np.ndarray,
        upper: float | np.ndarray,
    ) -> None:
        """Rows numbered 0..len(lower)-1 locally, given by their nonzero entries."""
        self.entries.append((row + self.rows, col, np.asarray(val, dtype=float)))
        self.lower.append(np.asarray(lower, dtype=float))
        self.upper.append(np.broadcast_to(np.asarray(upper, dtype=float), len(lower)))
        self.rows += len(lower)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """(objective, row, col, val, lower, upper), concatenated."""
        row, col, val = (np.concatenate(part) for part in zip(*self.entries))
        return (
            np.concatenate(self.objective),
            row,
            col,
            val,
            np.concatenate(self.lower),
            np.concatenate(self.upper),
        )


@dataclass(frozen=True, eq=False)
class Relaxation:
    """The model of one question, as arrays: ``lower <= A z <= upper``, ``0 <= z <= 1``,
    maximise ``objective . z``.

    Attributes:
        colours: the colours that must place everything.
        tables: per colour, its placements that fit within its reach (one ``x`` each).
        x: per colour, shape (len(table),): the column of each placement's ``x``.
        y: shape (len(colours), squares): the column of ``y[c, s]``, -1 where c cannot
            cover s.
        objective: shape (columns,): each placement's size, 0 for the ``y``.
        row, col, val: A's nonzero entries, each shape (nonzeros,).
        lower, upper: shape (rows,): each row's bounds (-inf where it has none).
    """

    colours: tuple[str, ...]
    tables: tuple[PlacementTable, ...]
    x: tuple[np.ndarray, ...]
    y: np.ndarray
    objective: np.ndarray
    row: np.ndarray
    col: np.ndarray
    val: np.ndarray
    lower: np.ndarray
    upper: np.ndarray

    @property
    def columns(self) -> int:
        """Number of variables."""
        return len(self.objective)

    @property
    def rows(self) -> int:
        """Number of rows."""
        return len(self.lower)

    def point(self, layout: dict[str, list[Placement]]) -> np.ndarray:
        """The 0/1 vector of a layout (colour -> the placements it adds), for checking that
        a legal layout satisfies every row.

        Raises:
            KeyError: a placement is not among the colour's placements within its reach.
        """
        z = np.zeros(self.columns)
        for k, colour in enumerate(self.colours):
            table = self.tables[k]
            column = {table.placement(i): int(self.x[k][i]) for i in range(len(table))}
            for placement in layout.get(colour, []):
                z[column[placement]] = 1.0
                z[self.y[k, list(placement.squares)]] = 1.0
        return z

    def activity(self, z: np.ndarray) -> np.ndarray:
        """``A z``, shape (rows,)."""
        return np.bincount(self.row, weights=self.val * z[self.col], minlength=self.rows)

    def exact_bound(self, duals: np.ndarray) -> Fraction:
        """:meth:`bound` in exact rational arithmetic: each float dual is the binary fraction
        it stores, and every product and sum is exact, so a result under the squares needed
        proves "no" with no rounding at all (about a second for a record board).

        Raises:
            ValueError: ``duals`` has the wrong length or a value that is not finite.
        """
        if duals.shape != (self.rows,) or not np.isfinite(duals).all():
            raise ValueError(f"{len(duals)} dual values for a model of {self.rows} rows")
        total = Fraction(0)
        used: dict[int, Fraction] = {}
        for i in np.flatnonzero(duals).tolist():
            d, hi, lo = float(duals[i]), float(self.upper[i]), float(self.lower[i])
            if d > 0 and np.isfinite(hi):
                used[i] = Fraction(d)
                total += used[i] * Fraction(hi)
            elif d < 0 and np.isfinite(lo):
                used[i] = Fraction(d)
                total += used[i] * Fraction(lo)
        reduced = [Fraction(float(v)) for v in self.objective.tolist()]
        for r, c, v in zip(self.row.tolist(), self.col.tolist(), self.val.tolist()):
            if r in used:
                reduced[c] -= Fraction(v) * used[r]
        return total + sum((x for x in reduced if x > 0), Fraction(0))

    def bound(self, duals: np.ndarray) -> float:
        """The upper bound on the squares covered that ``duals`` (shape (rows,)) proves by
        weak duality: :func:`_dual_bound` on this model."""
        if duals.shape != (self.rows,):
            raise ValueError(f"{len(duals)} dual values for a model of {self.rows} rows")
        args = (self.objective, self.row, self.col, self.val, self.lower, self.upper)
        return _dual_bound(duals, *args)


#: the largest model :func:`lp_bound` builds by default, in placement variables: GLOP's
#: time grows faster than the model, so larger models (early in a game) cost more than
#: the bound is worth (the timings: docs/engines.md, "The LP bound")
MAX_VARIABLES = 12_000


def relaxation(
    position: Position, colours: tuple[str, ...], max_variables: int | None = None
) -> Relaxation | None:
    """Build the model of "place all remaining pieces of ``colours`` at once".

    Args:
        position: the position, every other colour frozen.
        colours: the colours that must place everything.
        max_variables: build nothing (return None) when the colours have more placements
            than this in all; None for no cap.

    Returns:
        The model, or None when it is over the cap.
    """
    tables: tuple[PlacementTable, ...] = ()
    for c in colours:  # (over the cap: stop at the first colour that passes it)
        tables += (_placements(position, c),)
        if max_variables is not None and sum(len(t) for t in tables) > max_variables:
            return None
    model = _Model()
    cover = np.full((len(colours), position.board.size), -1)
    xs = []
    for k, (colour, table) in enumerate(zip(colours, tables)):
        x, cover[k] = _add_colour(model, position, colour, table)
        xs.append(x)
    _add_square_rows(model, cover)
    arrays = model.arrays()
    return Relaxation(tuple(colours), tables, tuple(xs), cover, *arrays)


def lp_bound(
    position: Position,
    colours: tuple[str, ...],
    time_limit: float | None = None,
    max_variables: int | None = MAX_VARIABLES,
) -> LPBound | None:
    """Solve the relaxation of "place all remaining pieces of ``colours`` at once".

    Args:
        position: the position, every other colour frozen.
        colours: the colours that must place everything (each with pieces left).
        time_limit: seconds for the LP solver, None for no limit.
        max_variables: as for :func:`relaxation` (default :data:`MAX_VARIABLES`).

    Returns:
        The bound, or None when the model is over the cap or the LP solver stopped before
        the optimum (time limit).
    """
    started = time.perf_counter()
    model = relaxation(position, colours, max_variables)
    if model is None:
        return None
    duals = _solve(model, time_limit)
    if duals is None:
        return None
    need = sum(position.colour(c).remaining_squares for c in colours)
    seconds = time.perf_counter() - started
    most = model.bound(duals)
    return LPBound(tuple(colours), need, most, model.columns, model.rows, seconds, duals)


def check_certificate(position: Position, colours: tuple[str, ...], duals: np.ndarray) -> Fraction:
    """Re-check a saved proof without an LP solver: rebuild the model of the question and
    recompute, in exact rational arithmetic (:meth:`Relaxation.exact_bound`), the bound that
    ``duals`` (an :attr:`LPBound.duals`) proves.

    Returns:
        The exact bound on the squares the colours can cover; under the squares they need,
        it proves "no".

    Raises:
        ValueError: ``duals`` does not fit the model (another question or version).
    """
    model = relaxation(position, colours)
    assert model is not None  # no size cap
    return model.exact_bound(np.asarray(duals, dtype=float))


def _placements(position: Position, colour: str) -> PlacementTable:
    """The colour's placements that fit the position within its reach."""
    table = board_placements(position.board)
    rows = fitting_rows(position, colour)
    within = np.append(reach(position, colour), True)
    return table.subset(rows[within[table.squares[rows]].all(axis=1)])


def _add_colour(
    model: _Model, position: Position, colour: str, placements: PlacementTable
) -> tuple[np.ndarray, np.ndarray]:
    """The colour's variables and its piece, cover, edge, block and support rows (the
    block rows on the square grid only: they are 2x2 blocks of squares).

    Returns:
        (x, y): the column of each placement's ``x``, shape (len(placements),); the column
        of ``y[colour, s]``, shape (squares,), -1 where no placement covers s.
    """
    board = position.board
    squares = placements.squares
    x = model.add_columns(placements.size)
    _add_piece_rows(model, position, colour, placements.piece, x)
    covered = np.unique(squares[squares >= 0])
    y_of = np.full(board.size, -1)
    y_of[covered] = model.add_columns(np.zeros(len(covered)))
    _add_cover_rows(model, squares, x, y_of)
    if board.square_grid:
        _add_edge_rows(model, squares, x, y_of, board.cols)
        _add_block_rows(model, squares, x, y_of, board.rows, board.cols)
    else:
        _add_cell_edge_rows(model, squares, x, y_of, board)
    _, attach = colour_masks(position, colour)
    playable = np.where(squares < 0, False, attach[squares]).any(axis=1)
    corners = ring_cells(placements, board, corner=True)
    _add_support_rows(model, x[~playable], corners[~playable], y_of)
    return x, y_of


def _add_piece_rows(
    model: _Model, position: Position, colour: str, piece: np.ndarray, x: np.ndarray
) -> None:
    number = family(position.board.grid).index
    counts = Counter(number[p] for p in position.colour(colour).remaining)
    index = {p: i for i, p in enumerate(sorted(counts))}
    which = np.array([index.get(int(p), -1) for p in piece], dtype=int)
    keep = which >= 0
    limits = np.array([counts[p] for p in sorted(counts)], dtype=float)
    model.add_rows(
        which[keep], x[keep], np.ones(int(keep.sum())), np.full(len(limits), -np.inf), limits
    )


def _add_cover_rows(model: _Model, squares: np.ndarray, x: np.ndarray, y_of: np.ndarray) -> None:
    """y[s] - sum of the x covering s = 0, one row per covered square (row number = the
    rank of y[s] among the colour's y)."""
    first_y = y_of[y_of >= 0].min() if (y_of >= 0).any() else 0
    n = int((y_of >= 0).sum())
    valid = squares >= 0
    x_rep = np.broadcast_to(x[:, None], squares.shape)[valid]
    y_rows = y_of[squares[valid]] - first_y
    row = np.concatenate([np.arange(n), y_rows])
    col = np.concatenate([first_y + np.arange(n), x_rep])
    val = np.concatenate([np.ones(n), -np.ones(len(x_rep))])
    model.add_rows(row, col, val, np.zeros(n), 0.0)


def _add_edge_rows(
    model: _Model, squares: np.ndarray, x: np.ndarray, y_of: np.ndarray, cols: int
) -> None:
    """y[s] + y[t] - (placements covering both) <= 1 for each edge (s, t) of the board
    whose both squares some placement of the colour covers."""
    size = len(y_of)
    s = np.arange(size)
    right = (s % cols < cols - 1) & (s + 1 < size)
    down = s + cols < size
    first = np.concatenate([s[right], s[down]])
    second = np.concatenate([s[right] + 1, s[down] + cols])
    keep = (y_of[first] >= 0) & (y_of[second] >= 0)
    first, second = first[keep], second[keep]
    edge_of = {(int(a), int(b)): i for i, (a, b) in enumerate(zip(first, second))}
    inner_rows, inner_cols = [], []
    for r, sq in zip(x.tolist(), squares.tolist()):
        for a in sq:
            for b in sq:
                if 0 <= a < b and (b - a == cols or (b - a == 1 and b % cols)):
                    inner_rows.append(edge_of[(a, b)])
                    inner_cols.append(r)
    n = len(first)
    row = np.concatenate([np.arange(n), np.arange(n), np.array(inner_rows, dtype=int)])
    col = np.concatenate([y_of[first], y_of[second], np.array(inner_cols, dtype=int)])
    val = np.concatenate([np.ones(2 * n), -np.ones(len(inner_rows))])
    model.add_rows(row, col, val, np.full(n, -np.inf), 1.0)


def _add_cell_edge_rows(
    model: _Model, squares: np.ndarray, x: np.ndarray, y_of: np.ndarray, board: Board
) -> None:
    """:func:`_add_edge_rows` on any grid, the edges from the geometry's edge neighbours
    (Trigon: three per triangle): y[s] + y[t] - (placements covering both) <= 1 for each
    edge (s, t), s < t, whose both cells some placement of the colour covers."""
    size = len(y_of)
    near = board.geometry.edge_table
    s = np.repeat(np.arange(size), near.shape[1])
    t = near.ravel()
    keep = (t > s) & (y_of[s] >= 0) & (y_of[np.maximum(t, 0)] >= 0)
    first, second = s[keep], t[keep]
    number = np.full((size + 1, size + 1), -1)  # last row and column: padding (-1)
    number[first, second] = np.arange(len(first))
    # each pair of a placement's cells once; a placement covering both ends of an edge
    i, j = np.triu_indices(squares.shape[1], k=1)
    a, b = squares[:, i], squares[:, j]
    inner = number[np.minimum(a, b), np.maximum(a, b)]
    inner = np.where((a >= 0) & (b >= 0), inner, -1)
    which, _ = np.nonzero(inner >= 0)
    inner_rows = inner[inner >= 0]
    n = len(first)
    row = np.concatenate([np.arange(n), np.arange(n), inner_rows])
    col = np.concatenate([y_of[first], y_of[second], x[which]])
    val = np.concatenate([np.ones(2 * n), -np.ones(len(inner_rows))])
    model.add_rows(row, col, val, np.full(n, -np.inf), 1.0)


def _add_block_rows(
    model: _Model, squares: np.ndarray, x: np.ndarray, y_of: np.ndarray, rows: int, cols: int
) -> None:
    """For each 2x2 block: ``sum of y[s] over its squares - sum over placements r of
    max(0, |r & block| - 2) * x[r] <= 2``. Two squares of a block that share an edge are in
    one piece, and three or four squares of a block always include such pairs linking them
    all, so a colour covers at most 2 squares of a block unless one piece covers 3 or 4."""
    size = len(y_of)
    top = np.arange(size)
    top = top[(top % cols < cols - 1) & (top // cols < rows - 1)]
    block = top[:, None] + np.array([0, 1, cols, cols + 1])[None, :]
    top, block = (
        top[(y_of[block] >= 0).sum(axis=1) >= 3],
        block[(y_of[block] >= 0).sum(axis=1) >= 3],
    )
    number = np.full(size, -1)
    number[top] = np.arange(len(top))
    # the blocks each placement meets: top-left corners q, q - 1, q - cols, q - cols - 1
    valid = squares >= 0
    which = np.repeat(np.arange(len(x)), valid.sum(axis=1))
    q = squares[valid]
    corner = np.concatenate([q, q - 1, q - cols, q - cols - 1])
    which = np.tile(which, 4)
    inside = corner >= 0
    corner, which = corner[inside], which[inside]
    hit = number[corner]
    corner, which, hit = corner[hit >= 0], which[hit >= 0], hit[hit >= 0]
    pairs, count = np.unique(np.stack([which, hit]), axis=1, return_counts=True)
    extra = count >= 3
    n = len(top)
    y_valid = y_of[block] >= 0
    row = np.concatenate(
        [np.broadcast_to(np.arange(n)[:, None], block.shape)[y_valid], pairs[1, extra]]
    )
    col = np.concatenate([y_of[block][y_valid], x[pairs[0, extra]]])
    val = np.concatenate([np.ones(int(y_valid.sum())), 2.0 - count[extra]])
    model.add_rows(row, col, val, np.full(n, -np.inf), 2.0)


def _add_support_rows(model: _Model, x: np.ndarray, corners: np.ndarray, y_of: np.ndarray) -> None:
    """x[r] - sum of y[k] over r's corner squares k <= 0 for each placement r that does not
    touch its colour now."""
    k = np.where(corners >= 0, y_of[np.maximum(corners, 0)], -1)
    valid = k >= 0
    n = len(x)
    row = np.concatenate([np.arange(n), np.broadcast_to(np.arange(n)[:, None], k.shape)[valid]])
    col = np.concatenate([x, k[valid]])
    val = np.concatenate([np.ones(n), -np.ones(int(valid.sum()))])
    model.add_rows(row, col, val, np.full(n, -np.inf), 0.0)


def _add_square_rows(model: _Model, cover: np.ndarray) -> None:
    """sum over colours of y[c, s] <= 1, for squares two or more colours can cover."""
    shared = np.flatnonzero((cover >= 0).sum(axis=0) >= 2)
    k, s = np.nonzero(cover[:, shared] >= 0)
    model.add_rows(s, cover[k, shared[s]], np.ones(len(s)), np.full(len(shared), -np.inf), 1.0)


def _solve(model: Relaxation, time_limit: float | None) -> np.ndarray | None:
    """Maximise with GLOP; its dual values, signed as :func:`_dual_bound` takes them (the
    sign that gives the lower bound), or None when it stopped before the optimum."""
    from ortools.linear_solver import pywraplp

    objective, row, col, val = model.objective, model.row, model.col, model.val
    lower, upper = model.lower, model.upper
    solver = pywraplp.Solver.CreateSolver("GLOP")
    if time_limit is not None:
        solver.SetTimeLimit(max(1, int(time_limit * 1000)))
    infinity = solver.infinity()
    z = [solver.NumVar(0.0, 1.0, "") for _ in range(model.columns)]
    cts = [
        solver.RowConstraint(lo if np.isfinite(lo) else -infinity, hi, "")
        for lo, hi in zip(lower.tolist(), upper.tolist())
    ]
    for r, c, v in zip(row.tolist(), col.tolist(), val.tolist()):
        cts[r].SetCoefficient(z[c], v)
    goal = solver.Objective()
    for c in np.flatnonzero(objective).tolist():
        goal.SetCoefficient(z[c], float(objective[c]))
    goal.SetMaximization()
    if solver.Solve() != pywraplp.Solver.OPTIMAL:
        return None
    duals = np.array([ct.dual_value() for ct in cts])
    # GLOP's sign convention for a maximisation is not ours: both signs give valid bounds
    return min((sign * duals for sign in (1.0, -1.0)), key=model.bound)


def _dual_bound(
    duals: np.ndarray,
    objective: np.ndarray,
    row: np.ndarray,
    col: np.ndarray,
    val: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
) -> float:
    """An upper bound on ``objective . z`` over ``lower <= A z <= upper``, ``0 <= z <= 1``,
    valid for any vector ``duals`` (weak duality): each row contributes ``duals[i] *
    upper[i]`` if ``duals[i] >= 0`` else ``duals[i] * lower[i]`` (a dual whose bound is
    infinite is taken as 0), and each column ``max(0, objective[j] - (A^T duals)[j])``.
    """
    duals = np.where(
        ((duals > 0) & np.isfinite(upper)) | ((duals < 0) & np.isfinite(lower)), duals, 0.0
    )
    rows_part = np.where(duals > 0, duals * np.where(np.isfinite(upper), upper, 0), 0)
    rows_part += np.where(duals < 0, duals * np.where(np.isfinite(lower), lower, 0), 0)
    reduced = objective - np.bincount(col, weights=val * duals[row], minlength=len(objective))
    return float(rows_part.sum() + np.maximum(reduced, 0).sum())
