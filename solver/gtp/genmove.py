"""The move the GTP engine plays (``genmove``): an exact plan near the end, else a heuristic.

1. No legal move: pass.
2. Endgame (the colour has at most ``endgame_pieces`` pieces left, default 7): the exact
   search (:mod:`solver.backends.search.exact`, one worker, the engine's seed) finds the colour's
   best layout with the other colours frozen, goal max-score: all pieces placed with the
   monomino last (+20) if that can be done, else all placed (+15), else as many squares as
   fit (the same question as ``blokus-solo check``; every layout passes the rule checker).
   The engine plays the largest piece of that layout that is legal now and after which the
   rest still has a legal order (with the monomino last when the layout allows it). The
   plan is made again at every move, as the other colours take squares.
3. Otherwise, or when the time limit ends the search without a layout: a one-move
   heuristic, the usual one for Blokus programs. Each legal move scores
   ``4 * squares + new corners - 0.5 * corners lost + opponents' corners taken``, plus a
   pull toward the board's centre for a colour's first five pieces, and a random
   tie-break in [0, 0.01) from the engine's seed. *Corners* are a colour's attach
   squares: free squares that touch it at a corner but share no edge with it.

Deterministic given the seed and the sequence of commands, unless a search is stopped by
the time limit (then the answer depends on how far it got); ``time_limit=0`` plays the
heuristic alone, deterministically. On the first run after installing, while the search's
kernel compiles in the background (:func:`search_ready`), the heuristic plays.

On Trigon (a board of triangles) ``genmove`` plays the heuristic alone, whatever the
settings: the same formula over the generic legal moves
(:func:`solver.core.placements.legal_moves`), its cells triangles, its corners the
triangles that touch a colour at a corner only, the pull toward the centre measured in the
rows and columns of Pentobi's naming rectangle. The exact search is not asked: its
``max-score`` answer on Trigon is not yet one the rules confirm in every position
(docs/gtp.md, "Trigon").
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.backends import warmup
from solver.backends.base import SolveOptions
from solver.core.order import order_of_play
from solver.core.pieces import MONOMINO
from solver.core.placements import colour_masks
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.gtp.moves import legal
from solver.tasks.solve import solve


@dataclass(frozen=True)
class GenmoveSettings:
    """How ``genmove`` chooses.

    Attributes:
        time_limit: seconds for the endgame search per move (0: heuristic only).
        endgame_pieces: the endgame search runs when the colour has at most this many
            pieces left.
    """

    time_limit: float = 2.0
    endgame_pieces: int = 7


#: the defaults: 2 s of search per move, from 7 pieces left
DEFAULT_SETTINGS = GenmoveSettings()


def choose(
    position: Position,
    colour: str,
    opponents: tuple[str, ...],
    rng: random.Random,
    settings: GenmoveSettings = DEFAULT_SETTINGS,
    seed: int = 0,
) -> Placement | None:
    """The move ``colour`` plays in ``position``, or None to pass (no legal move).

    Args:
        position: the position.
        colour: the colour to move.
        opponents: the colours of the other players (whose corners a move may take).
        rng: the engine's random generator (the heuristic's tie-breaks).
        settings: time limit and endgame size.
        seed: the search's seed.
    """
    moves = legal(position, colour)
    if not moves:
        return None
    left = position.colour(colour).remaining
    endgame = settings.time_limit > 0 and len(left) <= settings.endgame_pieces
    if endgame and position.board.square_grid and search_ready():  # Trigon: the heuristic
        planned = endgame_move(position, colour, moves, settings.time_limit, seed)
        if planned is not None:
            return planned
    return best_by_heuristic(position, colour, moves, opponents, rng)


def search_ready() -> bool:
    """Whether the exact search runs without first compiling its kernel (10-30 s, once
    after installing: :mod:`solver.backends.warmup`). When the kernel is neither compiled
    nor cached, a background compile starts (unless one runs) and ``genmove`` plays the
    heuristic until the cache is written, so that no move waits for the compile."""
    if warmup.kernel_ready():
        return True
    warmup.compile_in_background(search_waits=False)
    return False


def endgame_move(
    position: Position, colour: str, moves: list[Placement], time_limit: float, seed: int
) -> Placement | None:
    """The first move of the colour's best layout with the others frozen (see the module
    docstring), or None if the search found no layout that places a piece in time."""
    options = SolveOptions(backend="search", time_limit=time_limit, workers=1, seed=seed)
    result = solve(Problem(position, (colour,), "max-score", False), options)
    layout = (result.layout or {}).get(colour, [])
    if not layout:
        return None
    legal_now = {p.squares for p in moves}
    wants_last = _monomino_last(position, colour, layout)
    for first in sorted(layout, key=lambda p: -len(p.squares)):
        if first.squares not in legal_now:
            continue
        rest = [p for p in layout if p is not first]
        if not rest:  # the last piece
            if wants_last and first.piece != MONOMINO:
                continue
            return first
        order = order_of_play(position.with_placement(colour, first), colour, rest, wants_last)
        if order is None or (wants_last and order[-1].piece != MONOMINO):
            continue
        return first
    return None


def _monomino_last(position: Position, colour: str, layout: list[Placement]) -> bool:
    """Whether the layout places every remaining piece and can end with the monomino."""
    left = position.colour(colour).remaining
    if not position.bonus or len(layout) != len(left) or MONOMINO not in left:
        return False
    order = order_of_play(position, colour, layout, monomino_last=True)
    return order is not None and order[-1].piece == MONOMINO


def best_by_heuristic(
    position: Position,
    colour: str,
    moves: list[Placement],
    opponents: tuple[str, ...],
    rng: random.Random,
) -> Placement:
    """The legal move with the best heuristic score (see the module docstring)."""
    board = position.board
    allowed, attach = colour_masks(position, colour)
    theirs: set[int] = set()
    for other in opponents:
        theirs.update(int(s) for s in (colour_masks(position, other)[1]).nonzero()[0])
    own_attach = {int(s) for s in attach.nonzero()[0]}
    opening = len(position.colour(colour).placed) < 5
    centre = ((board.rows - 1) / 2, (board.cols - 1) / 2)
    best, best_score = moves[0], float("-inf")
    for move in moves:
        squares = move.squares
        edge = {n for s in squares for n in board.edge_neighbours[s]}
        corners = {n for s in squares for n in board.corner_neighbours[s]}
        new = {n for n in corners - edge - squares if allowed[n] and n not in own_attach}
        lost = len(own_attach & (edge | squares))
        score = 4 * len(squares) + len(new) - 0.5 * lost + len(theirs & squares)
        if opening:
            r, c = min(
                (board.row_col(s) for s in squares),
                key=lambda rc: abs(rc[0] - centre[0]) + abs(rc[1] - centre[1]),
            )
            score -= 0.3 * (abs(r - centre[0]) + abs(c - centre[1]))
        score += rng.random() * 0.01
        if score > best_score:
            best, best_score = move, score
    return best
