"""The first way two starting positions, or two questions, differ: how ``verify`` tells
whether a solution file answers the puzzle it names (:mod:`solver.trust.claims`) and ``cubes
join`` whether the puzzle a split names is the one it was made from
(:mod:`solver.trust.cube_join`).
"""

from __future__ import annotations

from solver.core.position import Position
from solver.core.problem import Problem


def position_difference(mine: Position, theirs: Position) -> str | None:
    """The first way two starting positions differ (board size, blocked squares, variant,
    colours, a colour's start square, pieces on the board or pieces to place), or None."""
    a, b = mine.board, theirs.board
    if (a.rows, a.cols) != (b.rows, b.cols):
        return f"the board is {a.rows}x{a.cols}, the puzzle's {b.rows}x{b.cols}"
    if a.blocked != b.blocked:
        return "the blocked squares differ"
    if mine.variant != theirs.variant:
        return f"variant {mine.variant}, the puzzle's {theirs.variant}"
    names = [c.name for c in mine.colours]
    others = [c.name for c in theirs.colours]
    if sorted(names) != sorted(others):
        return f"colours {', '.join(names)}, the puzzle's {', '.join(others)}"
    for state in mine.colours:
        other = theirs.colour(state.name)
        if state.start != other.start:
            return f"{state.name}'s start square differs"
        if set(state.placed) != set(other.placed):
            return f"{state.name}'s pieces on the board differ"
        if sorted(state.remaining) != sorted(other.remaining):
            return f"{state.name}'s pieces to place differ"
    return None


def question_difference(mine: Problem, theirs: Problem) -> str | None:
    """The first way two questions differ: their starting positions
    (:func:`position_difference`), played colours, goal, monomino-last, squares to cover
    or colours to connect; None when they ask the same (titles and names aside)."""
    why = position_difference(mine.position, theirs.position)
    if why is not None:
        return why
    if sorted(mine.colours) != sorted(theirs.colours):
        return f"played colours {', '.join(mine.colours)}, the puzzle's {', '.join(theirs.colours)}"
    if mine.goal != theirs.goal:
        return f"goal {mine.goal}, the puzzle's {theirs.goal}"
    if mine.monomino_last != theirs.monomino_last:
        return f"monomino-last {mine.monomino_last}, the puzzle's {theirs.monomino_last}"
    if mine.cover != theirs.cover:
        return "the squares to cover differ"
    if sorted(mine.connect) != sorted(theirs.connect):
        return "the colours to connect differ"
    return None
