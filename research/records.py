"""Record boards: the smallest rectangles that hold one or more colours' 21 pieces.

Toby Gottfried's records ("Blokus Discoveries", gottfriedville.net/blokus) put all 84 pieces
on 19x19 (5 empty squares), 18x20 (4), 21x17 (1) and 21x16 without the I5 (0); two
colours on 13x14 (4 empty), 12x15 and 10x18 (2) and 14x14. Each colour starts in its own
corner. Open: the smallest rectangle for one colour and for three colours (blue, yellow and
red from the top-left, top-right and bottom-right corners).

This module holds the counting facts that bound those questions and builds the record
problems. Facts (each derived from the rules and pinned by ``research/tests/test_records.py``):

* Neighbour count (:func:`neighbour_squares`): the squares sharing an edge with a piece and
  not in it; 187 over the 21 pieces. One colour alone on a board: every such square is
  empty or off the board (a square of the colour there would share an edge with the
  piece). An off-board square next to the board touches one board square, so it serves at
  most one piece; there are ``2 (R + C)`` of them. An empty square serves at most 4. So
  ``4 E + 2 (R + C) >= 187`` with ``E = R C - 89`` empty squares.
* Perimeter (:func:`perimeter`): no two pieces of a colour share an edge, so each unit
  edge of a piece's outline lies between the piece and an empty square or the outside;
  216 edges over the 21 pieces, at most 4 per empty square and ``2 (R + C)`` along the
  outside: ``4 E + 2 (R + C) >= 216`` (stronger than the neighbour count).
* Corner windows (:func:`corners`): look at the 2x2 window around each of the
  ``(R + 1) (C + 1)`` grid points (squares off the board count as *outside*). In a window,
  let x be the outline edges among its 4 unit edges, e its empty squares, o its outside
  squares, and v and w the convex and concave corners of pieces at its point. Every
  window a colour alone can make satisfies ``x <= e + v + w + o`` (checked case by case:
  one piece square with three empty ones 2 <= 4; two adjacent squares of one piece
  2 <= 2; two pieces meeting at the point 4 <= 2 + 2; three squares of one piece 2 <= 2;
  along the outside, two squares of one piece 2 <= 2, one square 2 <= 4; in a corner 2
  <= 4). Two diagonal squares of a window in one piece and neither other one: impossible
  for pieces of at most 5 squares. Summed over all windows: every outline edge is counted
  at both ends (2 x 216), every square in 4 windows (4 E), the 21 pieces have 113 convex
  and 29 concave corners, and the outside squares of the windows number
  ``4 (R + C) + 4``: ``432 <= 4 E + 113 + 29 + 4 (R + C) + 4``. This excludes 11x12, 9x15
  and 7x19, which the two counts above leave.
* Window count (:func:`window_counts`): classify the windows exactly. A piece meets
  ``n_k`` windows in exactly k of its squares (the 21 pieces: n1 = 113, n2 = 74, n3 = 29,
  n4 = 2; 218 in all). An inner window holds nothing (A), one square of one piece with
  three empty ones (B), one square each of two pieces on a diagonal and two empty ones
  (D), or 2, 3 or 4 squares of one piece; a window along a side holds squares of one piece
  at most (S1: one square, S2: two); a corner window one square (K1) or none. So
  ``n1 = B + 2D + S1 + K1``, ``n2 = C2 + S2`` and ``A = (R-1)(C-1) - B - D - C2 - n3 - n4
  >= 0``; with ``D <= (n1 - S1 - K1) / 2`` (B >= 0) this gives
  ``(R-1)(C-1) - 218 + 113/2 + K1/2 + S2 + S1/2 >= 0``. Along the border (a cycle of
  ``2(R + C) - 4`` squares) the covered squares form runs of one piece each, at most 5
  long, separated by empty squares, so ``S2 + S1/2`` = the covered border squares, which
  :func:`border_most` bounds together with ``K1``. This excludes 12x12 and 11x13 and
  every rectangle of area at most 140.
* Block count (:func:`block_extra`): in a partition of the board into 2x2 blocks a colour
  covers at most 2 squares of a block unless one piece covers 3 or 4 of them (3 squares of
  a block share edges; same-colour pieces never do); the extra over 2 is at most 18 over
  the 21 pieces. So ``E >= 2 F - 18`` with ``F = floor(R/2) floor(C/2)`` full blocks.
* Widths: the X needs 3 rows and 3 columns, the I5 a side of 5.

:func:`one_colour_candidates` lists the rectangles these bounds leave. The LP bound
(:mod:`solver.backends.bounds.relaxation`, an independent argument with a dual certificate) excludes
every rectangle of area at most 140 again, and also 12x12 and the candidates 3x47, 4x36 and 6x24
(``python -m research.benchmarks.records lp``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solver.core.board import Board
from solver.core.pieces import MONOMINO, PIECE_NAMES, PIECES, Shape
from solver.core.placements import empty_board_placements
from solver.core.position import ColourState, Position, sorted_pieces
from solver.core.problem import Problem

EDGE_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def neighbour_squares(shape: Shape) -> int:
    """Number of squares sharing an edge with a shape and not in it."""
    cells = set(shape)
    return len(
        {(r + dr, c + dc) for r, c in cells for dr, dc in EDGE_STEPS} - cells,
    )


def block_extra(shape_name: str) -> int:
    """Most squares over 2 that a piece covers in one block of a 2x2 partition of the
    plane (0, 1 or 2), over its orientations and the 4 partitions."""
    most = 0
    for shape in PIECES[shape_name].orientations:
        for dr in (0, 1):
            for dc in (0, 1):
                blocks = [((r + dr) // 2, (c + dc) // 2) for r, c in shape]
                most = max(most, max(blocks.count(b) for b in blocks))
    return max(0, most - 2)


def perimeter(shape: Shape) -> int:
    """Number of unit edges on the outline of a shape."""
    cells = set(shape)
    return sum((r + dr, c + dc) not in cells for r, c in cells for dr, dc in EDGE_STEPS)


def corners(shape: Shape) -> tuple[int, int]:
    """(convex, concave) corners of a shape: grid points where the 2x2 window holds 1,
    resp. 3, of its squares. Raises ValueError if a window holds exactly two diagonal
    squares (no piece of the set does: the window bound relies on it)."""
    cells = set(shape)
    convex = concave = 0
    points = {(r + a, c + b) for r, c in cells for a in (0, 1) for b in (0, 1)}
    for pr, pc in points:
        window = [(pr - 1 + a, pc - 1 + b) in cells for a in (0, 1) for b in (0, 1)]
        k = sum(window)
        if k == 1:
            convex += 1
        elif k == 3:
            concave += 1
        elif k == 2 and window[0] == window[3]:
            raise ValueError("two diagonal squares of a window")
    return convex, concave


def window_counts(shape: Shape) -> tuple[int, int, int, int]:
    """(n1, n2, n3, n4): the number of 2x2 windows holding exactly 1, 2, 3, 4 squares of a
    shape."""
    cells = set(shape)
    counts = [0] * 5
    points = {(r + a, c + b) for r, c in cells for a in (0, 1) for b in (0, 1)}
    for pr, pc in points:
        counts[sum((pr - 1 + a, pc - 1 + b) in cells for a in (0, 1) for b in (0, 1))] += 1
    return counts[1], counts[2], counts[3], counts[4]


NEIGHBOURS_TOTAL = sum(neighbour_squares(p.cells) for p in PIECES.values())  # 187
PERIMETER_TOTAL = sum(perimeter(p.cells) for p in PIECES.values())  # 216
CONVEX_TOTAL = sum(corners(p.cells)[0] for p in PIECES.values())  # 113
CONCAVE_TOTAL = sum(corners(p.cells)[1] for p in PIECES.values())  # 29
BLOCK_EXTRA_TOTAL = sum(block_extra(n) for n in PIECE_NAMES)  # 18


@dataclass(frozen=True)
class Bounds:
    """Which counting bound, if any, excludes one colour's 21 pieces from R x C.

    Attributes:
        rows, cols: the rectangle.
        empty: ``R C - 89``, the empty squares a layout leaves.
        neighbours: ``4 E + 2 (R + C) - 187``: negative means excluded.
        perimeter: ``4 E + 2 (R + C) - 216``: negative means excluded.
        windows: ``4 E + 113 + 29 + 4 (R + C) + 4 - 432``: negative means excluded.
        border: twice the window count's slack, ``2 (R-1)(C-1) - 2 x 218 + 113 + K1 +
            2 x (covered border squares at most)``: negative means excluded.
        blocks: ``E - (2 F - 18)``: negative means excluded.
        fits: the X (3x3) and the I5 (a side of 5) fit.
    """

    rows: int
    cols: int
    empty: int
    neighbours: int
    perimeter: int
    windows: int
    blocks: int
    fits: bool
    pieces: tuple[str, ...] = PIECE_NAMES

    @cached_property
    def border(self) -> int:
        """Twice the window count's slack (negative means excluded); computed on demand."""
        return _border_slack(self.rows, self.cols, self.pieces)

    @property
    def possible(self) -> bool:
        """No bound excludes the rectangle."""
        counts = (self.empty, self.neighbours, self.perimeter, self.windows, self.blocks)
        return min(counts) >= 0 and self.fits and self.border >= 0


def one_colour_bounds(rows: int, cols: int, pieces: tuple[str, ...] = PIECE_NAMES) -> Bounds:
    """The counting bounds of one colour's pieces (default: all 21) on a rows x cols board.

    ``fits`` checks that each piece fits the board in some orientation."""
    empty = rows * cols - sum(PIECES[n].size for n in pieces)
    full_blocks = (rows // 2) * (cols // 2)
    neighbours = sum(neighbour_squares(PIECES[n].cells) for n in pieces)
    outline = sum(perimeter(PIECES[n].cells) for n in pieces)
    convex = sum(corners(PIECES[n].cells)[0] for n in pieces)
    concave = sum(corners(PIECES[n].cells)[1] for n in pieces)
    extra = sum(block_extra(n) for n in pieces)
    fits = all(
        any(
            max(r for r, _ in o) < rows and max(c for _, c in o) < cols
            for o in PIECES[n].orientations
        )
        for n in pieces
    )
    return Bounds(
        rows,
        cols,
        empty,
        4 * empty + 2 * (rows + cols) - neighbours,
        4 * empty + 2 * (rows + cols) - outline,
        4 * empty + convex + concave + 4 * (rows + cols) + 4 - 2 * outline,
        empty - (2 * full_blocks - extra),
        fits,
        tuple(pieces),
    )


def border_most(rows: int, cols: int, pieces: tuple[str, ...]) -> int:
    """The most ``2 x (covered border squares) + (covered corner squares)`` a layout can
    have, by dynamic programming over the pieces. Each piece covers ``b`` border squares
    and ``j`` corners and touches the short sides or not, as one of its placements does;
    along the border cycle (``2 (R + C) - 4`` squares) its squares form at least one run
    followed by an empty square, so ``sum (b + 1) <= cycle`` over the pieces that touch the
    border; ``sum j <= 4``; and at most ``ceil(R/2)`` pieces touch each short side (runs
    along a side of R squares are separated by empty squares)."""
    if rows > cols:
        rows, cols = cols, rows
    table = empty_board_placements(rows, cols)
    r, c = np.divmod(np.arange(rows * cols), cols)
    pad = [False]
    on_border = np.append((r == 0) | (r == rows - 1) | (c == 0) | (c == cols - 1), pad)
    corner = np.append(((r == 0) | (r == rows - 1)) & ((c == 0) | (c == cols - 1)), pad)
    short = np.append((c == 0) | (c == cols - 1), pad)
    border = on_border[table.squares].sum(axis=1)
    corners_hit = corner[table.squares].sum(axis=1)
    short_hit = short[table.squares].any(axis=1).astype(int)
    cycle = 2 * (rows + cols) - 4
    sides = 2 * ((rows + 1) // 2)
    low = -(1 << 40)
    best = np.full((cycle + 1, 5, sides + 1), low, dtype=np.int64)  # cost, corners, short
    best[0, 0, 0] = 0
    for name in pieces:
        mine = (table.piece == PIECES[name].index) & (border > 0)
        options = {
            (int(b), int(j), int(t))
            for b, j, t in zip(border[mine], corners_hit[mine], short_hit[mine])
        }
        new = best.copy()
        for b, j, t in options:
            if b + 1 > cycle or j > 4 or t > sides:
                continue
            shifted = best[: cycle + 1 - (b + 1), : 5 - j, : sides + 1 - t] + 2 * b + j
            target = new[b + 1 :, j:, t:]
            np.maximum(target, shifted, out=target)
        best = new
    return int(best.max())


def _border_slack(rows: int, cols: int, pieces: tuple[str, ...]) -> int:
    """Twice the slack of the window count (module docstring); 0 where it does not apply
    (a side of 1, or a border cycle a single run could fill)."""
    cycle = 2 * (rows + cols) - 4
    run = max((PIECES[n].size for n in pieces), default=0)
    if min(rows, cols) < 2 or cycle <= run:
        return 0
    n = [sum(window_counts(PIECES[p].cells)[k] for p in pieces) for k in range(4)]
    return 2 * (rows - 1) * (cols - 1) - 2 * sum(n) + n[0] + border_most(rows, cols, pieces)


def one_colour_candidates(max_area: int) -> list[tuple[int, int]]:
    """Rectangles R x C (R <= C) of area at most ``max_area`` that no counting bound
    excludes for one colour's 21 pieces, by area, then by R."""
    out = []
    for rows in range(1, max_area + 1):
        for cols in range(rows, max_area // rows + 1):
            if one_colour_bounds(rows, cols).possible:
                out.append((rows, cols))
    return sorted(out, key=lambda rc: (rc[0] * rc[1], rc[0]))


#: Classic colours in turn order and their corners (top-left, top-right, bottom-right,
#: bottom-left), as on the Classic board.
CORNER_COLOURS = ("blue", "yellow", "red", "green")


def corner_square(board: Board, colour: str) -> int:
    """The start corner of a Classic colour on any rectangle."""
    r, c = {
        "blue": (0, 0),
        "yellow": (0, board.cols - 1),
        "red": (board.rows - 1, board.cols - 1),
        "green": (board.rows - 1, 0),
    }[colour]
    return board.square(r, c)


def corner_problem(
    rows: int,
    cols: int,
    colours: tuple[str, ...] = ("blue",),
    without: tuple[str, ...] = (),
    monomino_last: bool = False,
    title: str = "",
) -> Problem:
    """Each colour places all its 21 pieces (less ``without``) on an empty rows x cols
    board from its Classic corner (:func:`corner_square`).

    Raises:
        InputError: an unknown piece in ``without``; monomino-last with the monomino left out.
    """
    board = Board(rows, cols)
    pieces = sorted_pieces(n for n in PIECE_NAMES if n not in without)
    position = Position(
        board,
        tuple(ColourState(c, corner_square(board, c), (), pieces) for c in colours),
    )
    if monomino_last and MONOMINO not in pieces:
        monomino_last = False
    return Problem(position, colours, "place-all", monomino_last, title=title)


@dataclass(frozen=True)
class Record:
    """A record question as a puzzle: a rectangle, the colours placing all their pieces
    from their corners (:func:`corner_problem`), pieces left out, and what is known."""

    name: str
    rows: int
    cols: int
    colours: tuple[str, ...]
    without: tuple[str, ...] = ()
    known: str = ""

    @property
    def empty(self) -> int:
        """Squares a layout leaves empty."""
        area = sum(PIECES[n].size for n in PIECE_NAMES if n not in self.without)
        return self.rows * self.cols - area * len(self.colours)

    def problem(self) -> Problem:
        return corner_problem(self.rows, self.cols, self.colours, self.without, title=self.title)

    @property
    def title(self) -> str:
        pieces = "21 pieces" if not self.without else f"pieces without {', '.join(self.without)}"
        board, empty = f"{self.rows}x{self.cols}", f"{self.empty} empty"
        if len(self.colours) == 1:
            return f"1 colour on {board}, {pieces} from its corner, {empty}"
        return f"{len(self.colours)} colours on {board}, {pieces} each from its corner, {empty}"

    def toml(self) -> str:
        """The record as a puzzle file (:mod:`solver.formats.puzzle`)."""
        board = Board(self.rows, self.cols)
        starts = "\n".join(f'{c} = "{board.name(corner_square(board, c))}"' for c in self.colours)
        lines = [
            f'title = "{self.title}"',
            f'description = "{self.known}"',
            'variant = "custom"',
            f"size = [{self.rows}, {self.cols}]",
            "colours = [" + ", ".join(f'"{c}"' for c in self.colours) + "]",
            'goal = "place-all"',
            "",
            "[start]",
            starts,
        ]
        if self.without:
            kept = ", ".join(f'"{n}"' for n in PIECE_NAMES if n not in self.without)
            lines += ["", "[pieces]"] + [f"{c} = [{kept}]" for c in self.colours]
        return "\n".join(lines) + "\n"


_FOUR = CORNER_COLOURS
#: the CP-SAT parameters of the record proofs (solver.backends.cpsat.params.PROOF_PARAMS; not
#: imported: this module needs no OR-tools)
_PROOF = "linearization_level:2 root_lp_iterations:200000"
_THREE = ("blue", "yellow", "red")  # three corners: top-left, top-right, bottom-right
_TWO = ("blue", "red")  # opposite corners
#: The record questions shipped as puzzles (``puzzles/records/``).
RECORDS: tuple[Record, ...] = (
    Record("four-18x20", 18, 20, _FOUR, known="Gottfried: found (four mirrored 9x10 quadrants)"),
    Record("four-19x19", 19, 19, _FOUR, known="Gottfried: found (by hand, symmetric quadrants)"),
    Record("four-21x17", 21, 17, _FOUR, known="Gottfried: found (2007/2009)"),
    Record("four-21x16-no-I5", 21, 16, _FOUR, ("I5",), known="Gottfried: found"),
    Record("two-13x14", 13, 14, _TWO, known="Gottfried: found with computer help (2008)"),
    Record("two-12x15", 12, 15, _TWO, known="Gottfried: found with computer help (2008)"),
    Record("two-10x18", 10, 18, _TWO, known="Gottfried: found with computer help (2008)"),
    Record("two-14x14", 14, 14, _TWO, known="Puzzling SE q. 94835: found"),
    Record(
        "three-19x15",
        19,
        15,
        _THREE,
        known="found (the repair search: results/records/three-19x15.json)",
    ),
    Record(
        "three-20x14",
        20,
        14,
        _THREE,
        known="found (the repair search: results/records/three-20x14.json); the smallest "
        "rectangle found for three colours",
    ),
    Record(
        "three-15x18",
        15,
        18,
        _THREE,
        known="open: 270 squares, the smallest area with both sides at least 5 that holds "
        "3 x 89 squares",
    ),
    Record("one-13x13", 13, 13, ("blue",), known="feasible (found by the exact search)"),
    Record(
        "one-3x48",
        3,
        48,
        ("blue",),
        known="feasible (found by CP-SAT with --params "
        f"'{_PROOF}': results/records/one-3x48.json): the smallest rectangle for one colour, "
        "every rectangle of fewer squares being infeasible",
    ),
    Record("one-12x13", 12, 13, ("blue",), known="open"),
    Record(
        "one-12x12",
        12,
        12,
        ("blue",),
        known="infeasible (the 2x2-window count; the LP bound: at most 87.4 of 89 squares; "
        f"CP-SAT with --params '{_PROOF}'); not re-proved by our exact search",
    ),
    Record(
        "one-11x12",
        11,
        12,
        ("blue",),
        known="infeasible (corner-window bound; the complete search, cube by cube: "
        "results/records/one-11x12-cubes; the LP bound: at most 81.1 of 89 squares; CP-SAT "
        f"with --params '{_PROOF}')",
    ),
    Record(
        "one-7x18",
        7,
        18,
        ("blue",),
        known="infeasible (the exact search; the LP bound: at most 78.4 of 89 squares; CP-SAT "
        f"with --params '{_PROOF}')",
    ),
    *(
        Record(
            f"one-{rows}x{cols}",
            rows,
            cols,
            ("blue",),
            known=f"infeasible (the LP bound: at most {most} of 89 squares; CP-SAT with "
            f"--params '{_PROOF}'); not excluded by the counting bounds",
        )
        for rows, cols, most in ((3, 47, "88.6"), (4, 36, "87.8"), (6, 24, "88.0"))
    ),
)
