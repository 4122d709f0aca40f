"""Hints for a player who is stuck: which placements still lead to a solution.

From a problem's position, a legal next move m of a played colour *keeps* the layouts (the
solutions, order of play ignored) that contain m: every such layout can be played
starting with m, since m touches the colour's pieces (or covers its start square) now and
the layout's other pieces reach it through corner contact. So m still leads to a solution
iff the problem after m has a layout, and the number it keeps is the count after m
(:func:`solver.backends.search.counting.count`). Hints are the moves that keep at least one,
most first. When the whole position has no layout (one count, searched to the end), no
move does, and that count is the proof. On Trigon a colour with no piece yet moves onto a
free starting point, and its layouts after the move are those that contain it: the same
reasoning (the count of such a colour: :mod:`solver.backends.search.counting`).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from solver.backends.search import CountResult, count
from solver.core.pieces import family
from solver.core.placements import legal_moves
from solver.core.position import Placement
from solver.core.problem import Problem
from solver.core.rules import move_problem, shape_name
from solver.core.variants import ALL_VARIANTS, read_colour
from solver.errors import InputError, located


@dataclass(frozen=True)
class Hint:
    """A legal next move and the solutions it keeps.

    Attributes:
        colour: the colour that moves.
        placement: the piece and its squares.
        keeps: the number of solutions containing it (a lower bound unless ``complete``).
        complete: whether ``keeps`` is exact (the count was not stopped).
    """

    colour: str
    placement: Placement
    keeps: int
    complete: bool = True


@dataclass(frozen=True)
class Hints:
    """What :func:`hints` found.

    Attributes:
        problem: the problem asked about.
        total: the count of the problem's solutions from its position.
        moves: the number of legal next moves looked at (0 when ``total`` proved that no
            move can lead to a solution, or every colour has placed everything).
        hints: the moves that keep at least one solution, most kept first.
        complete: every count was searched to the end (a move left out keeps nothing).
        seconds: wall time.
    """

    problem: Problem
    total: CountResult
    moves: int
    hints: tuple[Hint, ...]
    complete: bool
    seconds: float


def after(problem: Problem, colour: str, placement: Placement) -> Problem | None:
    """The problem once ``colour`` has played ``placement`` (no rule is checked here), or
    None when that move ends every solution by itself: with monomino-last, a colour's
    monomino played while it still has other pieces and no other monomino."""
    position = problem.position.with_placement(colour, placement)
    try:
        return dataclasses.replace(problem, position=position)
    except InputError:
        if problem.monomino_last:  # its monomino can no longer be last
            return None
        raise


def play(problem: Problem, moves: list[str], label: str = "--move") -> Problem:
    """The problem after the player's own moves, each checked by the rules.

    Args:
        moves: each a piece by its squares, ``"c4,c5,d5,d6"``, optionally after its colour
            (``"red:c4,c5,d5,d6"``, read by :func:`solver.core.variants.read_colour`;
            without one, the only played colour that has pieces left), in order of play.
        label: what an error calls a move, before its number (``"--move 2"``).

    Raises:
        InputError: a square that is not on the board, squares that form no piece the
            colour has left, a move the rules refuse, a colour not played, a move without
            a colour when several are played, or (monomino-last) the monomino played
            before the colour's last piece; ``where`` is "LABEL N" (1 for the first).
    """
    board = problem.position.board
    for k, text in enumerate(moves, start=1):
        with located(where=f"{label} {k}"):
            colour, _, squares_text = text.rpartition(":")
            position = problem.position
            variant = ALL_VARIANTS.get(position.variant)
            if colour:  # the one rule of colours a person types (read_colour)
                colour = read_colour(colour, position.colour_names, variant)
            else:
                colour = _the_colour(problem)
            if colour not in problem.colours:
                raise InputError(f"{colour} is not played in this puzzle")
            squares = frozenset(board.parse(n.strip()) for n in squares_text.split(","))
            piece = shape_name(board, squares)
            if piece is None:
                raise InputError(f"squares {squares_text.strip()} form no piece of the set")
            placement = Placement(piece, squares)
            problem_text = move_problem(problem.position, colour, placement)
            if problem_text:
                raise InputError(problem_text)
            next_problem = after(problem, colour, placement)
            if next_problem is None:
                raise InputError(f"{colour}'s monomino must be its last piece (monomino-last)")
            problem = next_problem
    return problem


def _the_colour(problem: Problem) -> str:
    open_ = [c for c in problem.colours if problem.position.colour(c).remaining]
    if len(open_) != 1:
        raise InputError("several colours play: name the colour, e.g. blue:c4,c5")
    return open_[0]


def hints(problem: Problem, time_limit: float | None = None) -> Hints:
    """The legal next moves of the played colours that still lead to a solution, ranked by
    the number of solutions each keeps (most first; then larger pieces, then by colour
    and squares).

    Args:
        problem: a place-all problem (its goal is taken as place-all, as by ``count``).
        time_limit: seconds for all the counts together; a count stopped by it gives a
            lower bound (``complete`` False), and a move whose count found nothing is then
            left out without proof.

    Raises:
        InputError: the goal is max-score (hints follow the place-all solutions).
    """
    if problem.goal != "place-all":
        raise InputError("hints follow place-all solutions; the goal is max-score")
    started = time.perf_counter()
    total = count(problem, time_limit=time_limit)
    found: list[Hint] = []
    moves = 0
    complete = total.complete
    if total.count > 0 or not total.complete:
        for colour in problem.colours:
            for move in legal_moves(problem.position, colour):
                moves += 1
                next_problem = after(problem, colour, move)
                if next_problem is None:
                    continue
                left = None
                if time_limit is not None:
                    left = max(0.0, time_limit - (time.perf_counter() - started))
                kept = count(next_problem, time_limit=left)
                complete &= kept.complete
                if kept.count > 0:
                    found.append(Hint(colour, move, kept.count, kept.complete))
    board = problem.position.board
    size = family(board.grid).size
    found.sort(
        key=lambda h: (
            -h.keeps,
            -size[h.placement.piece],
            problem.colours.index(h.colour),
            board.names(h.placement.squares),
        )
    )
    return Hints(problem, total, moves, tuple(found), complete, time.perf_counter() - started)
