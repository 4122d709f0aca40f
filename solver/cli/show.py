"""What ``blokus-solo show`` draws: the position a puzzle, a game record or a solution
file describes, with its order of play (for numbers and the last piece)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.errors import InputError
from solver.formats.sources import is_game_file, load_source
from solver.pictures.picture import first_placements, play_order, with_layout


@dataclass(frozen=True)
class View:
    """A position to show.

    Attributes:
        position: the position.
        order: the pieces on the board in order of play as (colour, placement), the first
            numbered 1 (a game's setup pieces are not in it).
        kind: "puzzle", "game" or "solution".
        stars: the squares a puzzle or solution asks to cover.
        problem: a puzzle's problem (None for the other kinds).
    """

    position: Position
    order: list[tuple[str, Placement]]
    kind: str
    stars: frozenset[int] = frozenset()
    problem: Problem | None = None


def load_view(path: str, after: int | None = None) -> View:
    """The position a file describes, after ``after`` placements (default: all of them).

    A game record gives its main line's order of play; a solution file its colours'
    placements in their file order, the colours taking turns (:func:`play_order`); a
    puzzle the pieces on its board in a legal order per colour, the colours taking turns.

    Raises:
        InputError: a bad file, ``after`` given for a puzzle or past the last placement.
    """
    if is_game_file(path):
        from solver.formats.game import load_game

        game = load_game(path)
        position = game.position(after)
        order = [(m.colour, m.placement) for m in game.moves if m.placement is not None]
        return View(position, order[: game.num_placements if after is None else after], "game")
    if Path(path).suffix.lower() == ".json":
        from solver.answers.solution import read_solution

        solution = read_solution(path)
        final = with_layout(solution.position, solution.layout)
        order = play_order(final)
        if after is None:
            return View(final, order, "solution", solution.cover)
        if after > len(order):
            raise InputError(
                f"the solution has {len(order)} placements; there is no position after {after}",
                path=path,
                where="--after",
            )
        position = first_placements(final, order, after)
        return View(position, order[:after], "solution", solution.cover)
    problem = load_source(path, after)
    return View(problem.position, play_order(problem.position), "puzzle", problem.cover, problem)
