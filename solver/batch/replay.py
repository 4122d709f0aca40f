"""A kept result's solution files replayed against the item as it is now, before a
resumed batch keeps the result (or lets it settle the other seeds of a sweep).

A row and its solution files are only text: a row edited to say "solved", or a solution
file edited, swapped or cut, must not be kept. So each solution file a row names is read
and replayed by the independent rule checker (:func:`solver.answers.solution.verify`: the
placements legal, the claims the checker can see true), and must answer the item's current
content: a puzzle's question (:func:`solver.trust.compare.question_difference`) with the
row's status, a game's position after the row's placements. Cheap: reading a file and
replaying a few dozen placements.
"""

from __future__ import annotations

from pathlib import Path

from solver.answers.solution import read_solution, verify
from solver.batch.items import Item
from solver.batch.work import read_game
from solver.core.position import Position
from solver.core.problem import Problem
from solver.errors import InputError
from solver.formats.puzzle import parse_puzzle
from solver.formats.text import decode
from solver.trust.claims import question
from solver.trust.compare import position_difference, question_difference
from solver.trust.rows import Row


def replay_problem(folder: Path, row: Row, item: Item) -> str | None:
    """Why the solution files ``row`` names (in ``folder``) do not hold for ``item``, or
    None when each one is read, replayed legal with every checked claim true, and answers
    the item (a row of a well-formed shape: :func:`solver.trust.rows.row_problem`)."""
    records = (row, *row.get("colours", []))
    names = [n for r in records if isinstance(n := r.get("solution"), str)]
    if not names:
        return None
    try:
        wanted = _wanted(item)
    except InputError as e:
        return f"the item cannot be read ({str(e)[:120]})"
    for name in dict.fromkeys(names):
        why = _replay(folder / name, wanted, row)
        if why is not None:
            return f"{name}: {why}"
    return None


def _wanted(item: Item) -> Problem | Position:
    """The item's question (a puzzle) or position (a game record at ``item.after``)."""
    if item.data is None:
        raise InputError("not read")
    path = str(item.source.path)
    if item.after is None:
        return parse_puzzle(decode(item.data, path), path)
    return read_game(item.data, path).position(item.after)


def _replay(path: Path, wanted: Problem | Position, row: Row) -> str | None:
    try:
        solution = read_solution(path)
    except InputError as e:
        return f"cannot be read ({str(e)[:160]})"
    report, false = verify(solution)
    if not report.legal:
        return f"breaks a rule ({report.problem})"
    if false:
        return f"a false claim ({false[0]})"
    if isinstance(wanted, Position):
        why = position_difference(solution.position, wanted)
        return None if why is None else f"not the item's position ({why})"
    try:
        why = question_difference(question(solution), wanted)
    except InputError as e:
        return f"not a question ({str(e)[:120]})"
    if why is not None:
        return f"not the item's question ({why})"
    if solution.data.get("status") != row.get("solve_status"):
        return f"status {solution.data.get('status')!r}, the row's {row.get('solve_status')!r}"
    return None
