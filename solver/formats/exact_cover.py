"""The exact-cover formulation of a position, and its export in Knuth's DLX text format.

Items (Knuth, TAOCP 7.2.2.1, "exact covering with primary and secondary items"):

* primary: one per remaining piece of each played colour, one per copy (Junior has two of
  some pieces), named ``B.V3`` (colour letter, dot, piece) or ``B.V3a`` / ``B.V3b`` for
  copies; each must be covered exactly once;
* secondary (covered at most once): every free square, named as on the board (``e10``),
  and one item per (colour, grid edge), named ``B.e10r`` for the edge between e10 and the
  square to its right (f10) and ``B.e10u`` for the edge between e10 and the square above
  (e11): one item per (colour, edge) replaces pairwise no-contact clauses. On Blokus
  Trigon the cells are triangles and the names the same: ``B.e10r`` the edge between e10
  and the triangle to its right in its row, ``B.e10u`` the edge between e10 and the
  triangle above it (a triangle has one of those two vertical neighbours, by the way it
  points: :mod:`solver.core.geometry.trigon`).

Options: one per placement of a remaining piece of a played colour that fits the position
(:func:`solver.core.placements.placements_for`: free squares, no edge contact with the colour),
per copy of the piece. An option lists its piece item, its squares and the edge item of
every grid edge with at least one end among its squares (and the other end free). Each edge
item is listed once per option, so an edge inside a placement does not block the placement
itself, while two placements of one colour that share an edge, or overlap, share an edge
item and cannot both be chosen.

Copies of one piece (Junior) are interchangeable, so every layout that places both copies
appears as 2 covers per doubled piece (2^k for k doubled pieces) to an external solver.

Squares to cover (the problem's ``cover``, "Cover the Stars"): each free one is a primary
item (covered exactly once) rather than a secondary one, and has no hole option.

NOT expressed: connectivity (each later piece touching the colour at a corner, the first
one covering the start square, on Trigon a free starting point, and a colour to
``connect`` ending as one group) and ``monomino_last``. A cover may contain islands; the
search backend (:mod:`solver.backends.search.exact`) enforces connectivity as it searches.

Squares as primary items (for tight boards, where branching on the most constrained empty
square pays): ``formulation(problem, squares_primary=True)`` makes the free squares primary
and adds one *hole* option per free square (the square alone). No hole budget or item
multiplicity is needed: since every piece is primary, every cover leaves exactly
``free squares - remaining area`` holes, the only budget consistent with "place all".

DLX format (Knuth's ``dlx1.w``; also read by dlx2/dlx3 and most exact-cover programs):
lines starting with ``|`` are comments; the first other line lists the primary items,
then ``|``, then the secondary items; each further line is one option, its items separated
by spaces. Item names here are at most 8 characters, without spaces, ``|`` or ``:``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from solver.core.board import Board
from solver.core.pieces import family
from solver.core.placements import placements_for
from solver.core.position import Placement
from solver.core.problem import Problem
from solver.core.variants import COLOUR_LETTERS


@dataclass(frozen=True, eq=False)
class ExactCover:
    """An exact-cover problem: items and options.

    Attributes:
        primary: primary item names (each covered exactly once), in order.
        secondary: secondary item names (each covered at most once); item ``i`` of the whole
            problem is ``primary[i]`` for ``i < len(primary)``, else
            ``secondary[i - len(primary)]``.
        option_ptr: shape (O + 1,), int64: option ``k`` has items
            ``option_items[option_ptr[k]:option_ptr[k + 1]]``.
        option_items: item indices of all options, concatenated.
        placements: for each option, ``(colour, Placement)``, or None for a hole option.
        title: what the problem is (for the export's comment).
        squares_primary: whether the free squares are primary (with hole options).
        stars: the free squares to cover (primary, never a hole), by name.
        cell: what a cell is in the comment's words: "square", or "triangle" (Trigon).
    """

    primary: tuple[str, ...]
    secondary: tuple[str, ...]
    option_ptr: np.ndarray
    option_items: np.ndarray
    placements: tuple[tuple[str, Placement] | None, ...]
    title: str = ""
    squares_primary: bool = False
    stars: tuple[str, ...] = ()
    cell: str = "square"

    @property
    def items(self) -> tuple[str, ...]:
        """All item names, primary first."""
        return self.primary + self.secondary

    def __len__(self) -> int:
        """Number of options."""
        return len(self.placements)

    def option(self, k: int) -> list[str]:
        """Item names of option ``k``."""
        names = self.items
        return [names[i] for i in self.option_items[self.option_ptr[k] : self.option_ptr[k + 1]]]


def colour_letter(colour: str) -> str:
    """The one-letter code of a colour in item names (B, Y, R, G, P, O)."""
    return COLOUR_LETTERS.get(colour, colour[:1].upper())


def _edge_items(board: Board, squares: Iterable[int], letter: str, free: set[int]) -> list[str]:
    """Edge item names of the grid edges with one end in ``squares``, the other end free."""
    cols = board.cols
    square = board.square_grid
    coords = None if square else board.geometry.coords
    names = set()
    for s in squares:
        for n in board.edge_neighbours[s]:
            if n not in free and n not in squares:
                continue
            a, b = min(s, n), max(s, n)  # (cells are numbered by rows from the top)
            if coords is not None:
                same_row = coords[a][1] == coords[b][1]
            else:
                same_row = b == a + 1 and b % cols > 0  # (not on a 1-column board)
            if same_row:  # a is on the left
                names.add(f"{letter}.{board.name(a)}r")
            else:  # b is the lower cell (rows grow downwards)
                names.add(f"{letter}.{board.name(b)}u")
    return sorted(names)


def formulation(problem: Problem, squares_primary: bool = False) -> ExactCover:
    """The exact-cover formulation of a problem's position and played colours.

    Args:
        problem: the position and the colours to play (its goal, ``monomino_last`` and
            ``connect`` are not expressed; the options are those of "place-all"; its free
            squares to cover are primary items).
        squares_primary: make free squares primary and add one hole option per free square.

    Returns:
        An :class:`ExactCover` whose covers are the layouts placing every remaining piece
        of the played colours without overlap or same-colour edge contact, islands allowed.
    """
    position = problem.position
    board = position.board
    order = family(board.grid).index
    free = set(range(board.size)) - set(board.blocked) - set(position.occupied)
    pieces: list[str] = []
    copies: dict[tuple[str, str], list[str]] = {}
    for colour in problem.colours:
        letter = colour_letter(colour)
        for piece, n in sorted(
            Counter(position.colour(colour).remaining).items(),
            key=lambda kv: order[kv[0]],
        ):
            names = (
                [f"{letter}.{piece}"]
                if n == 1
                else [f"{letter}.{piece}{chr(ord('a') + i)}" for i in range(n)]
            )
            copies[(colour, piece)] = names
            pieces.extend(names)
    rows: list[tuple[list[str], tuple[str, Placement] | None]] = []
    used_edges: set[str] = set()
    for colour in problem.colours:
        letter = colour_letter(colour)
        table = placements_for(position, colour)
        for i in range(len(table)):
            placement = table.placement(i)
            squares = board.names(placement.squares)
            edges = _edge_items(board, placement.squares, letter, free)
            used_edges.update(edges)
            for item in copies[(colour, placement.piece)]:
                rows.append(([item] + squares + edges, (colour, placement)))
    stars = set(board.names(problem.stars_left))
    free_names = board.names(free)
    if squares_primary:
        rows.extend(([name], None) for name in free_names if name not in stars)
    primary_squares = free_names if squares_primary else [n for n in free_names if n in stars]
    primary = tuple(pieces + primary_squares)
    secondary_squares = [] if squares_primary else [n for n in free_names if n not in stars]
    secondary = tuple(secondary_squares + sorted(used_edges))
    index = {name: i for i, name in enumerate(primary + secondary)}
    ptr = np.zeros(len(rows) + 1, dtype=np.int64)
    flat: list[int] = []
    for k, (items, _) in enumerate(rows):
        flat.extend(index[it] for it in items)
        ptr[k + 1] = len(flat)
    size = f"{board.rows}x{board.cols}" if board.square_grid else board.geometry.label
    title = problem.name or f"{size} board"
    return ExactCover(
        primary,
        secondary,
        ptr,
        np.array(flat, dtype=np.int32),
        tuple(p for _, p in rows),
        f"{title}; colours {', '.join(problem.colours)}",
        squares_primary,
        tuple(n for n in free_names if n in stars),
        "square" if board.square_grid else "triangle",
    )


def to_dlx(ec: ExactCover) -> str:
    """The problem in Knuth's DLX text format (see the module docstring), ending in a newline.

    The leading comment names the problem, explains the item names and says that
    connectivity is NOT expressed.
    """
    example = ec.primary[0] if ec.primary else "B.V3"
    letter = example.split(".")[0]
    lines = [
        f"| blokus-solo exact cover: {ec.title}",
        f"| primary items: one per remaining piece (copy) of each played colour ({example}, ...)"
        + (
            " and every free square (squares primary; one hole option per square"
            + (", none for a square to cover)" if ec.stars else ")")
            if ec.squares_primary
            else (" and the squares to cover (" + " ".join(ec.stars) + ")" if ec.stars else "")
        ),
        "| secondary items: "
        + ("" if ec.squares_primary else "the free squares (e.g. e10) and ")
        + f"one per colour and grid edge: {letter}.e10r = the edge e10-f10, "
        + f"{letter}.e10u = e10-e11",
        "| options: one per placement (and piece copy): piece item, squares, edge items",
        "| copies of one piece (B.V3a, B.V3b: Junior) are interchangeable: a layout using both",
        "| appears as 2 covers per doubled piece",
        "| NOT expressed: connectivity (corner contact with the colour, first piece on the",
        "| start square, a colour to connect ending as one group) and monomino-last: a cover",
        "| may contain islands; check every cover.",
        " ".join(ec.primary) + " | " + " ".join(ec.secondary),
    ]
    if ec.cell != "square":  # the comment in the board's words (Trigon: triangles)
        lines[1:-1] = [
            line.replace("start square", "free starting point").replace("square", ec.cell)
            for line in lines[1:-1]
        ]
    lines.extend(" ".join(ec.option(k)) for k in range(len(ec)))
    return "\n".join(lines) + "\n"
