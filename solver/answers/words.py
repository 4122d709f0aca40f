"""The answers in words: the lines ``blokus-solo`` prints for an endgame check, a joint
check, an unknown's best partial layout and a puzzle's card goals, which the web page
(:mod:`solver.web.questions`) shows too. Plain strings, no styling: the command line
prints them through its console (:mod:`solver.cli.output`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.backends.base import FitBound
from solver.core.board import cell_word
from solver.core.pieces import squares_of
from solver.core.position import Position
from solver.core.problem import Problem
from solver.tasks.endgame import EndgameAnswer, JointAnswer
from solver.tasks.solve import SolveResult


def goals_text(problem: Problem) -> str:
    """The card goals in words, e.g. ", cover c4 f7 (*), connect blue", or ""."""
    text = ""
    if problem.cover:
        text += f", cover {' '.join(problem.position.board.names(problem.cover))} (*)"
    if problem.connect:
        text += f", connect {' '.join(problem.connect)}"
    return text


def closeness_lines(result: SolveResult, idle_bound: bool = True) -> list[str]:
    """For an unknown: how close the best partial layout came (pieces and squares left,
    per short colour) and the best bound proved (with ``idle_bound`` false, not one that
    says nothing: :func:`fit_line`); no lines otherwise."""
    lines = []
    if result.partial_report is not None:
        total = sum(
            len(result.problem.position.colour(c).remaining) for c in result.problem.colours
        )
        grid = result.problem.position.board.grid
        lines.append(partial_line(total, result.short(), grid))
    bound = fit_line(result.fit, idle_bound)
    if bound:
        lines.append(bound)
    return lines


def fit_line(fit: FitBound | None, idle: bool = False) -> str:
    """The line on the best bound proved, e.g. "  best bound proved: LP bound: at most
    301.4 of the 302 squares fit"; "" without one, or, unless ``idle``, when it says
    nothing (at most all the squares left fit: the page leaves it out)."""
    if fit is None or (fit.most >= fit.need and not idle):
        return ""
    return f"  best bound proved: {fit.text}"


def partial_line(total: int, short: Mapping[str, tuple[str, ...]], grid: str = "square") -> str:
    """The line on an unknown's best partial layout, e.g. "  best partial layout: 40 of 42
    pieces placed, 9 squares left; short: ..." (``total``: the pieces asked for;
    ``short``: colour -> the pieces it leaves, of ``grid``'s piece family)."""
    pieces = sum(len(v) for v in short.values())
    squares = sum(squares_of(v, grid) for v in short.values())
    return (
        f"  best partial layout: {total - pieces} of {total} {plural(total, 'piece')} "
        f"placed, {squares} {plural(squares, cell_word(grid))} left"
        + (f"; short: {short_text(short, grid)}" if short else "")
    )


def short_text(short: Mapping[str, tuple[str, ...]], grid: str = "square") -> str:
    """The short colours in words, e.g. "blue 2 pieces (9 squares: 4, V5), red 1 piece
    (1 square: 1)"."""
    parts = []
    for colour, left in short.items():
        squares = squares_of(left, grid)
        parts.append(
            f"{colour} {len(left)} {plural(len(left), 'piece')} "
            f"({squares} {plural(squares, cell_word(grid))}: {', '.join(left)})"
        )
    return ", ".join(parts)


def domain_progress(stats: Mapping[str, Any]) -> str:
    """One line on the domain search's work (its stats, or auto's under "domain"), e.g.
    "  domain search: 1,200,000 nodes in 9 runs, at best 21 of 22 pieces and empty
    orbits placed (half turn)"; "" when it did not run."""
    stats = stats.get("domain", stats) if isinstance(stats.get("domain"), dict) else stats
    if "depth" not in stats or "deepest" not in stats:
        return ""
    return (
        f"  domain search: {int(stats['nodes']):,} nodes in {int(stats['runs'])} runs, at best "
        f"{int(stats['deepest'])} of {int(stats['depth'])} pieces and empty orbits placed "
        f"({stats['symmetry']})"
    )


def endgame_line(answer: EndgameAnswer) -> str:
    """One line per checked colour: pieces left, answer, best result for a "no", time."""
    pos = answer.place_all.problem.position
    left = pos.colour(answer.colour).remaining
    squares = squares_of(left, pos.board.grid)
    cell = cell_word(pos.board.grid)
    text = (
        f"  {answer.colour:7} {len(left):2} {plural(len(left), 'piece'):6} ({squares:2} "
        f"{plural(squares, cell)}) left: {answer.answer:7}"
    )
    if answer.answer == "yes":
        report = answer.place_all.report
        assert report is not None, "every yes is checked by the rule checker"
        score = report.report(answer.colour).score
        text += f" all of them fit (layout checked; score {score})"
    elif answer.answer == "unknown":
        text += " time limit reached before an answer (not a no)"
        partial = answer.place_all.partial_report
        if partial is not None:
            left = partial.report(answer.colour).remaining
            short = squares_of(left, pos.board.grid)
            text += f"; at best {short} {plural(short, cell)} left"
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
            f" best: {placed} of {squares} {cell}s, score {best.score} ({proven})"
            if placed is not None
            else " best: unknown (time limit)"
        )
    return text + f"  [{answer.seconds:.2f} s]"


def joint_line(answer: JointAnswer, position: Position) -> str:
    """The line of ``check --together``: colours, pieces left, the joint answer, time."""
    pieces = sum(len(position.colour(c).remaining) for c in answer.colours)
    squares = sum(position.colour(c).remaining_squares for c in answer.colours)
    text = (
        f"  together ({', '.join(answer.colours)}): {pieces} {plural(pieces, 'piece')} "
        f"({squares} {plural(squares, cell_word(position.board.grid))}) left: {answer.answer}"
    )
    if answer.answer == "yes":
        text += ": all of them fit at once (layout checked)"
    elif answer.answer == "no":
        text += f": {answer.reason}"
    else:
        text += ": time limit reached before an answer (not a no)"
    if answer.together:
        backend = answer.together.backend
    else:
        backend = answer.alone[-1].backend if answer.alone else "area bound"
    return text + f"  [{backend}, {answer.seconds:.2f} s]"


def plural(n: int, word: str) -> str:
    """``word``, with an s unless ``n`` is 1."""
    return word if n == 1 else word + "s"
