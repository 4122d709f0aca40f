"""A kept result's solution files replayed against the item as it is now, before a
resumed batch keeps the result (or lets it settle the other seeds of a sweep), and before
``batch-merge`` copies a shard's result.

A row and its solution files are only text: a row edited to say "solved", or a solution
file edited, swapped or cut, must not be kept. So each solution file a row names is read
and replayed by the independent rule checker (:func:`solver.answers.solution.verify`: the
placements legal, the claims the checker can see true), must be the answer the row gives
(a puzzle's status; a game colour's endgame record), and must answer the item's current
content: a puzzle's question (:func:`solver.trust.compare.question_difference`), a game's
position after the row's placements. Cheap: reading a file and replaying a few dozen
placements.
"""

from __future__ import annotations

from pathlib import Path

from solver.answers.solution import SolutionFile, read_solution, verify
from solver.batch.items import Item
from solver.batch.work import TOGETHER, read_game
from solver.core.position import Position
from solver.core.problem import Problem
from solver.errors import InputError
from solver.formats.puzzle import parse_puzzle
from solver.formats.text import decode
from solver.trust.claims import question
from solver.trust.compare import position_difference, question_difference
from solver.trust.rows import ColourRecord, Row, inside


def replay_problem(folder: Path, row: Row, item: Item | None) -> str | None:
    """Why the solution files ``row`` names (in ``folder``) do not hold for ``item``, or
    None when each one is read, replayed legal with every checked claim true, is the
    answer the row (or its colour record) gives, and answers the item (a row of a
    well-formed shape: :func:`solver.trust.rows.row_problem`). ``item`` None: the item's
    file is not at hand (``batch-merge`` without the inputs), so each file is replayed and
    compared with the row, but not with the item's question or position."""
    records: tuple[Row | ColourRecord, ...] = (row, *row.get("colours", []))
    named = [(n, r) for r in records if isinstance(n := r.get("solution"), str)]
    if not named:
        return None
    try:
        wanted = None if item is None else _wanted(item)
    except InputError as e:
        return f"the item cannot be read ({str(e)[:120]})"
    for name, record in named:
        path = inside(folder, name)
        why = "leads out of the folder" if path is None else _replay(path, wanted, row, record)
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


def _replay(
    path: Path, wanted: Problem | Position | None, row: Row, record: Row | ColourRecord
) -> str | None:
    try:
        solution = read_solution(path)
    except InputError as e:
        return f"cannot be read ({str(e)[:160]})"
    report, false = verify(solution)
    if not report.legal:
        return f"breaks a rule ({report.problem})"
    if false:
        return f"a false claim ({false[0]})"
    why = _not_the_rows(solution, row, record)
    if why is not None:
        return why
    if isinstance(wanted, Position):
        why = position_difference(solution.position, wanted)
        return None if why is None else f"not the item's position ({why})"
    try:
        asked = question(solution)
    except InputError as e:
        return f"not a question ({str(e)[:120]})"
    if wanted is None:
        return None
    why = question_difference(asked, wanted)
    return None if why is None else f"not the item's question ({why})"


def _not_the_rows(solution: SolutionFile, row: Row, record: Row | ColourRecord) -> str | None:
    """Why the file is not the answer the row gives: a puzzle's status (and goal), a game
    colour's endgame record, a joint answer's layout; None if it is."""
    data = solution.data
    status = data.get("status")
    if row.get("kind") != "game":
        if status != row.get("solve_status"):
            return f"status {status!r}, the row's {row.get('solve_status')!r}"
        if data.get("goal", "place-all") != row.get("goal", "place-all"):
            return f"goal {data.get('goal')!r}, the row's {row.get('goal')!r}"
        return None
    answer = record.get("answer")
    if record.get("colour") == TOGETHER:  # the joint layout (yes) or the best partial one
        if (status == "solved") != (answer == "yes"):
            return f"status {status!r}, the row's joint answer {answer!r}"
        return None
    endgame = data.get("endgame")
    if not isinstance(endgame, dict):
        return "no endgame record, the row's colour has one"
    differ = sorted(k for k, v in endgame.items() if record.get(k) != v)
    if differ:
        return f"its endgame record is not the row's ({', '.join(differ[:4])} differ)"
    return None
