"""What a solution file claims beyond its layout: whether it belongs to the puzzle it
names, and its proofs (``verify`` and ``verify --prove``).

The rule checker (:func:`solver.answers.solution.verify`) settles every claim a layout can
show: the placements are legal, the scores are the rules' scores, the status fits the
layout, the card goals are met. Three kinds of claim it cannot settle:

* **which puzzle**: the file names a puzzle (``"puzzle"``, the path it was solved from).
  When that file can be read here, its starting position (board, blocked squares,
  colours, start squares, pieces on the board and pieces to place) must be the file's,
  and so must its question (played colours, goal, monomino-last, cover, connect) unless
  the file records a question of its own about that position (``check``, ``count``:
  :data:`OWN_QUESTION`, or an ``endgame`` record); if not, the file is not an answer to
  it (:func:`puzzle_check` refuses it).
* **proofs**: status ``optimal`` (no layout scores more), ``infeasible`` (no layout meets
  the goal), a ``bound`` (no layout scores more than it), an endgame answer "no" (the
  colour cannot place all its pieces). Only a complete search can show these;
  :func:`unproved_claims` names them and :func:`prove` solves the file's question again
  with the exact search and compares.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.answers.solution import SolutionFile
from solver.backends.base import SolveOptions
from solver.core.checker import CheckReport
from solver.core.position import Position
from solver.core.problem import Problem
from solver.core.variants import colour_name
from solver.errors import InputError, SolverBug
from solver.formats.game import load_game
from solver.formats.sources import is_game_file, load_source
from solver.formats.text import is_file
from solver.tasks.solve import solve
from solver.trust.compare import position_difference, question_difference

#: the backend ``verify --prove`` proves with: the exact search, complete for every goal
PROVER = "search"


#: the commands whose files answer a question of their own about the named puzzle's
#: position (:mod:`solver.answers.solution`, ``made_by``): only the position is compared
OWN_QUESTION = frozenset(
    {"check", "check --together", "count", "batch (check)", "batch --together"}
)


def puzzle_check(solution: SolutionFile, where: Path | None = None) -> str:
    """Compare the file with the puzzle it names (a game record: with each of its
    positions, as the file does not say which one).

    A puzzle's starting position must be the file's; and unless the file records that it
    answers a question of its own about that position (an ``endgame`` record, or a
    ``made_by`` in :data:`OWN_QUESTION`: ``check`` and ``count`` ask place-all for the
    colours checked), its question too: played colours, goal, monomino-last, squares to
    cover, colours to connect.

    The file is found by ``puzzle_path`` (absolute) if that file is there, else by
    ``puzzle``: as it is when absolute; when relative, first against the folder of the
    solution file (``where``), then the current folder.

    Returns:
        One line saying what was compared (and, for a relative name, in which folder it
        was found), or why nothing was (no puzzle named, the file is not here, or it
        cannot be read).

    Raises:
        InputError: the named puzzle's board, colours, pieces or question differ from the
            file's (the file is not an answer to that puzzle), or no position of the named
            game is the file's.
    """
    name = solution.data.get("puzzle")
    if not isinstance(name, str) or not name:
        return "puzzle: none named, not compared"
    shown = repr(name[:80])
    found = _find(name, solution.data.get("puzzle_path"), where)
    lines = [_compare(solution, shown, path, place) for path, place in found]
    if all(place.startswith(" (recorded") for _, place in found):
        lines.insert(0, f"puzzle: {shown} is not here, not compared")
    return "; ".join(lines)


def _compare(solution: SolutionFile, shown: str, found: str, place: str) -> str:
    """Compare the file with one file its puzzle names (see :func:`puzzle_check`)."""
    game = is_game_file(found)
    try:
        positions = _positions(found, game)
    except InputError as e:
        return f"puzzle: {shown}{place} cannot be read, not compared ({str(e)[:120]})"
    if game:  # the file does not say which position (check --after N does not record N)
        for after in reversed(range(len(positions))):
            if position_difference(solution.position, positions[after]) is None:
                return f"puzzle: the position after {after} placements of the game {shown}{place}"
        raise InputError(f"not a solution of the game it names, {shown}: no position is the file's")
    why = position_difference(solution.position, positions[0])
    if why is not None:
        raise InputError(f"not a solution of the puzzle it names, {shown}{place}: {why}")
    made_by = solution.data.get("made_by")
    if "endgame" in solution.data or made_by in OWN_QUESTION:
        how = "an endgame check" if "endgame" in solution.data else repr(str(made_by))
        return (
            f"puzzle: the board, colours and pieces of {shown}{place}; the file answers a "
            f"question of its own about that position ({how}), not the puzzle's"
        )

    why = question_difference(question(solution), load_source(found))
    if why is not None:
        raise InputError(f"not a solution of the puzzle it names, {shown}{place}: {why}")
    return (
        f"puzzle: the board, colours and pieces of {shown}{place}, and its question "
        "(played colours, goal, monomino-last, cover, connect)"
    )


def _find(name: str, absolute: object, where: Path | None) -> list[tuple[str, str]]:
    """The files a solution file's puzzle names (each with words saying where it was
    found): the one ``puzzle`` names (absolute, or relative to ``where``, then to the
    current folder), and the one ``puzzle_path`` names if that is another file here (an
    edited ``puzzle`` must still be compared with the file the solve read)."""
    out: list[tuple[str, str]] = []
    if Path(name).is_absolute():
        if is_file(name):
            out.append((name, ""))
    else:
        for folder, words in (
            (where, "the solution file's folder"),
            (Path.cwd(), "the current folder"),
        ):
            if folder is not None and is_file(folder / name):
                place = f" (found in {words}, {str(folder.resolve())[:80]!r})"
                out.append((str(folder / name), place))
                break
    if isinstance(absolute, str) and Path(absolute).is_absolute() and is_file(absolute):
        if not any(Path(p).resolve() == Path(absolute).resolve() for p, _ in out):
            out.append((absolute, f" (recorded as {absolute[:80]!r})"))
    return out


def _positions(name: str, game: bool) -> list[Position]:
    """A puzzle's starting position, or every position of a game record (after 0, 1, ...
    placements). Raises InputError for a file that cannot be read."""
    if not game:
        return [load_source(name).position]

    record = load_game(name)
    return [record.position(n) for n in range(record.num_placements + 1)]


def question(solution: SolutionFile) -> Problem:
    """The problem the file answers: its starting position, played colours, goal,
    monomino-last, squares to cover and colours to connect.

    Raises:
        InputError: the file's question is not a problem (e.g. a played colour without a
            start square).
    """
    data = solution.data
    played = tuple(colour_name(str(e["name"])) for e in data["colours"] if e.get("played", True))
    return Problem(
        solution.position,
        played,
        data.get("goal", "place-all"),
        bool(data.get("monomino_last")),
        name=str(data.get("puzzle") or ""),
        cover=solution.cover,
        connect=solution.connect,
    )


def unproved_claims(solution: SolutionFile) -> list[tuple[str, str]]:
    """The file's claims that only a complete search can check: (kind, the claim in
    words), kind "best" (status optimal, or a bound with max-score), "no" (status
    infeasible) or "endgame" (an endgame answer no); empty: none."""
    data = solution.data
    proof = "the solver's proof that"
    out = []
    status = data.get("status")
    if status == "optimal":
        out.append(("best", f"status: optimal ({proof} no layout scores more)"))
    elif data.get("bound") is not None and data.get("goal") == "max-score":
        out.append(("best", f"upper bound {data['bound']} ({proof} no layout scores more)"))
    if status == "infeasible":
        out.append(("no", f"status: infeasible ({proof} no layout exists)"))
    record = data.get("endgame")
    if isinstance(record, dict) and record.get("answer") == "no":
        colour = str(record["colour"])[:40]
        out.append(("endgame", f"endgame: no ({proof} {colour} cannot place all its pieces)"))
    return out


@dataclass(frozen=True)
class Proof:
    """One claim proved again: ``held`` True (proved), False (the search refutes it; then
    ``line`` says how) or None (not settled in the time limit)."""

    claim: str
    held: bool | None
    line: str


def prove(
    solution: SolutionFile, report: CheckReport, time_limit: float | None = None
) -> list[Proof]:
    """Prove the file's claims (:func:`unproved_claims`) again with the exact search.

    Args:
        solution: the file, already checked by the rule checker (its layout is legal and
            no claim the checker can see is false).
        report: the rule checker's report on the file's layout (its scores).
        time_limit: seconds per solve (None: no limit).

    Returns:
        One :class:`Proof` per claim, in the order of :func:`unproved_claims`.

    Raises:
        InputError: the file's question is not a problem (:func:`question`).
        SolverBug: the search's proven best is below the file's legal layout.
    """
    options = SolveOptions(backend=PROVER, time_limit=time_limit, workers=1)
    total = sum(report.report(c).score for c in question(solution).colours)
    out = []
    for kind, claim in unproved_claims(solution):
        if kind == "best":
            out.append(_best(question(solution), claim, solution.data, total, options))
        elif kind == "no":
            out.append(_no(question(solution), claim, options))
        else:
            colour = colour_name(str(solution.data["endgame"]["colour"]))
            problem = Problem(solution.position, (colour,), "place-all", False)
            out.append(_no(problem, claim, options))
    return out


def _best(
    problem: Problem, claim: str, data: dict[str, Any], total: int, options: SolveOptions
) -> Proof:
    """Optimal: no layout scores more than the file's; a bound: none more than it."""
    result = solve(problem, options)
    best = result.score
    limit = total if data.get("status") == "optimal" else data["bound"]
    if best is not None and best > limit:
        why = f"{PROVER} finds a layout scoring {best} (checked), more than {limit}"
        return Proof(claim, False, why)
    if result.status != "optimal":
        return Proof(claim, None, f"not settled ({PROVER}: {result.status} in the time limit)")
    if best is None or best < total:
        raise SolverBug(f"{PROVER}: proven best {best}, below the file's legal layout ({total})")
    return Proof(claim, True, f"proved: the best score is {best} ({PROVER})")


def _no(problem: Problem, claim: str, options: SolveOptions) -> Proof:
    """No layout meets the goal."""
    result = solve(problem, options)
    if result.status == "solved":
        return Proof(claim, False, f"{PROVER} finds a layout that meets the goal (checked)")
    if result.status == "infeasible":
        return Proof(claim, True, f"proved: no layout ({PROVER})")
    return Proof(claim, None, f"not settled ({PROVER}: {result.status} in the time limit)")
