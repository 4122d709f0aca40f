"""What the commands print about problems and results."""

from __future__ import annotations

from rich.console import Console

from solver.cli.render import plain_board, rich_board
from solver.endgame import EndgameAnswer, JointAnswer
from solver.pieces import PIECES
from solver.position import Position
from solver.problem import Problem
from solver.solve import SolveResult

STATUS_TEXT = {
    "solved": "solved",
    "optimal": "optimal (proven best)",
    "infeasible": "infeasible (proven: no layout exists)",
    "unknown": "unknown (time limit reached: this is NOT a proof that no layout exists)",
}


def describe_problem(console: Console, problem: Problem) -> None:
    """One or two lines: title, file, board, colours played, goal."""
    pos = problem.position
    if problem.title:
        console.print(problem.title, style="bold", markup=False)
    board = f"{pos.variant} {pos.board.rows}x{pos.board.cols}"
    if pos.board.blocked:
        board += f" ({len(pos.board.blocked)} blocked)"
    goal = problem.goal + (", monomino last" if problem.monomino_last else "")
    source = f"{problem.name}: " if problem.name else ""
    console.print(f"{source}{board}; plays {', '.join(problem.colours)}; goal {goal}", markup=False)


def print_board(console: Console, result: SolveResult, plain: bool) -> None:
    """The final board (or the starting one when there is no layout)."""
    position = result.report.final if result.report else result.problem.position
    if console.is_terminal and not plain:
        new = frozenset().union(*(p.squares for ps in (result.layout or {}).values() for p in ps))
        console.print(rich_board(position, new))
    else:
        for line in plain_board(position):
            console.print(line, markup=False, highlight=False)


def describe_result(console: Console, result: SolveResult) -> None:
    """Status, backend, wall time, then one line per played colour."""
    status = STATUS_TEXT[result.status]
    if result.status == "unknown" and "unknown_reason" in result.stats:
        status = (
            f"unknown ({result.stats['unknown_reason']}: this is NOT a proof that no layout exists)"
        )
    console.print(f"status: {status}  [{result.backend}, {result.wall_time:.2f} s]", markup=False)
    if result.report is None:
        return
    for colour in result.problem.colours:
        r = result.report.report(colour)
        start = result.problem.position.colour(colour)
        total = len(start.remaining)
        bonus = ", monomino last" if r.monomino_last and r.all_placed else ""
        if (
            r.all_placed
            and not r.monomino_last
            and not result.problem.monomino_last
            and "1" in start.remaining
            and result.problem.position.bonus
        ):
            bonus = (
                " (the monomino is not last; monomino-last = true in the puzzle asks for the +5)"
            )
        console.print(
            f"  {colour:7} placed {r.added} of {total} {_plural(total, 'piece')}, "
            f"score {r.score}{bonus}",
            markup=False,
        )
    if result.problem.goal == "max-score":
        bound = (
            f", upper bound {result.bound}"
            if result.bound is not None and result.status != "optimal"
            else ""
        )
        console.print(f"  total score {result.score}{bound}", markup=False)


def endgame_line(answer: EndgameAnswer) -> str:
    """One line per checked colour: pieces left, answer, best result for a "no", time."""
    pos = answer.place_all.problem.position
    left = pos.colour(answer.colour).remaining
    squares = sum(PIECES[p].size for p in left)
    text = (
        f"  {answer.colour:7} {len(left):2} {_plural(len(left), 'piece'):6} ({squares:2} "
        f"{_plural(squares, 'square')}) left: {answer.answer:7}"
    )
    if answer.answer == "yes":
        score = answer.place_all.report.report(answer.colour).score
        text += f" all of them fit (layout checked; score {score})"
    elif answer.answer == "unknown":
        text += " time limit reached before an answer (not a no)"
    elif answer.best is not None:
        best = answer.best
        proven = (
            "proven best"
            if best.status == "optimal"
            else (
                f"best found; upper bound {best.bound}" if best.bound is not None else "best found"
            )
        )
        placed = answer.best_squares
        text += (
            f" best: {placed} of {squares} squares, score {best.score} ({proven})"
            if placed is not None
            else " best: unknown (time limit)"
        )
    return text + f"  [{answer.seconds:.2f} s]"


def joint_line(answer: JointAnswer, position: Position) -> str:
    """The line of ``check --together``: colours, pieces left, the joint answer, time."""
    pieces = sum(len(position.colour(c).remaining) for c in answer.colours)
    squares = sum(position.colour(c).remaining_squares for c in answer.colours)
    text = (
        f"  together ({', '.join(answer.colours)}): {pieces} {_plural(pieces, 'piece')} "
        f"({squares} {_plural(squares, 'square')}) left: {answer.answer}"
    )
    if answer.answer == "yes":
        text += " all of them fit at once (layout checked)"
    elif answer.answer == "no":
        text += f" ({answer.reason})"
    else:
        text += " time limit reached before an answer (not a no)"
    backend = answer.together.backend if answer.together else answer.alone[-1].backend
    return text + f"  [{backend}, {answer.seconds:.2f} s]"


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"
