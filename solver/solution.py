"""Solution files (JSON): writing a checked answer and reading one back for ``verify``.

Format (keys beyond these may be added; readers ignore unknown keys)::

    {"format": "blokus-solo-solution/1", "title": "...", "puzzle": "puzzles/x.toml",
     "variant": "custom", "rows": 5, "cols": 5, "blocked": ["c3"],
     "goal": "place-all", "monomino_last": false,
     "status": "solved", "backend": "search", "seconds": 0.01, "score": 15, "bound": null,
     "colours": [{"name": "blue", "start": "a5", "played": true, "existing": 0,
                  "placements": [{"piece": "V3", "squares": ["a5", "a4", "b4"]}, ...],
                  "remaining": [], "score": 15, "all_placed": true, "monomino_last": false}]}

``placements`` are in a legal order of play: the ``existing`` pieces already on the board
first, then the ones the solver added.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .board import Board
from .checker import CheckReport, check_layout
from .errors import InputError
from .pieces import canonical_name
from .position import ColourState, Placement, Position, sorted_pieces
from .rules import shape_name
from .solve import SolveResult
from .variants import VARIANTS, colour_name

FORMAT = "blokus-solo-solution/1"


def result_to_json(result: SolveResult) -> dict:
    """A checked :class:`SolveResult` as the JSON-ready dictionary described above."""
    problem = result.problem
    pos = problem.position
    board = pos.board
    final = result.report.final if result.report else pos
    colours = []
    for state in pos.colours:
        added = (result.layout or {}).get(state.name, [])
        end = final.colour(state.name)
        report = result.report.report(state.name) if result.report else None
        colours.append({
            "name": state.name,
            "start": board.name(state.start) if state.start is not None else None,
            "played": state.name in problem.colours,
            "existing": len(state.placed),
            "placements": [_placement_json(board, p) for p in (*state.placed, *added)],
            "remaining": list(end.remaining),
            "score": report.score if report else pos.score(state.name),
            "all_placed": not end.remaining,
            "monomino_last": report.monomino_last if report else state.last_piece == "1",
        })
    return {
        "format": FORMAT, "title": problem.title, "puzzle": problem.name,
        "variant": pos.variant, "rows": board.rows, "cols": board.cols,
        "blocked": board.names(board.blocked), "goal": problem.goal,
        "monomino_last": problem.monomino_last, "status": result.status,
        "backend": result.backend, "seconds": round(result.wall_time, 4),
        "score": result.score, "bound": result.bound, "colours": colours,
    }


def _placement_json(board: Board, p: Placement) -> dict:
    return {"piece": p.piece, "squares": board.names(p.squares)}


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write a file so that it is either fully written or left as it was.

    Raises:
        InputError: the folder does not exist or is not writable.
    """
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror or e}", path=str(path)) from None


def write_json(result: SolveResult, path: str | Path) -> None:
    """Write a result as a solution file (atomically)."""
    write_text_atomic(path, json.dumps(result_to_json(result), indent=1) + "\n")


@dataclass(frozen=True)
class SolutionFile:
    """A solution file read back: the starting position and the placements added.

    Attributes:
        position: the board with each colour's ``existing`` pieces placed and the rest of
            its pieces (added + remaining) still to place.
        layout: colour -> the placements added after the existing ones, in order.
        data: the JSON as read (claims to compare with the checker's findings).
    """

    position: Position
    layout: dict[str, list[Placement]]
    data: dict


def read_solution(path: str | Path) -> SolutionFile:
    """Read a solution file written by :func:`write_json` (or by hand).

    Raises:
        InputError: unreadable, not JSON, missing or malformed keys, unknown piece, colour
            or square; existing pieces that overlap or are not pieces of the set.
    """
    path = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read: {e}", path=path) from None
    except json.JSONDecodeError as e:
        raise InputError(f"invalid JSON: {e.msg}", path=path, where=f"line {e.lineno}, column {e.colno}") from None
    try:
        return _parse(data)
    except InputError as e:
        raise e.located(path=path) from None
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        raise InputError(f"malformed solution file ({e.__class__.__name__}: {e})", path=path) from None


def _parse(data: dict) -> SolutionFile:
    if not isinstance(data, dict):
        raise InputError("expected a JSON object")
    for key in ("rows", "cols", "colours"):
        if key not in data:
            raise InputError(f"missing key {key!r}")
    board = Board(int(data["rows"]), int(data["cols"]))
    blocked = frozenset(_squares(board, data.get("blocked", []), "blocked"))
    board = Board(board.rows, board.cols, blocked)
    states, layout = [], {}
    for k, entry in enumerate(data["colours"]):
        where = f"colours[{k}]"
        name = colour_name(str(entry["name"]))
        start = entry.get("start")
        start_sq = _squares(board, [start], f"{where}.start")[0] if start is not None else None
        placements = [_placement(board, p, f"{where}.placements[{j}]")
                      for j, p in enumerate(entry.get("placements", []))]
        existing = int(entry.get("existing", 0))
        if not 0 <= existing <= len(placements):
            raise InputError(f"existing = {existing} but {len(placements)} placements", where=where)
        remaining = [canonical_name(str(p)) for p in entry.get("remaining", [])]
        to_place = remaining + [p.piece for p in placements[existing:]]
        states.append(ColourState(name, start_sq, tuple(placements[:existing]), sorted_pieces(to_place)))
        layout[name] = placements[existing:]
    variant = str(data.get("variant", "custom"))
    bonus = VARIANTS[variant].bonus if variant in VARIANTS else True
    return SolutionFile(Position(board, tuple(states), bonus=bonus, variant=variant), layout, data)


def _squares(board: Board, names, where: str) -> list[int]:
    try:
        return [board.parse(str(n)) for n in names]
    except InputError as e:
        raise e.located(where=where) from None


def _placement(board: Board, entry: dict, where: str) -> Placement:
    try:
        piece = canonical_name(str(entry["piece"]))
    except InputError as e:
        raise e.located(where=where) from None
    squares = frozenset(_squares(board, entry["squares"], where))
    if len(squares) != len(entry["squares"]) or shape_name(board, squares) != piece:
        raise InputError(f"squares {','.join(entry['squares'])} do not form piece {piece}", where=where)
    return Placement(piece, squares)


def verify(solution: SolutionFile) -> tuple[CheckReport, list[str]]:
    """Run the rule checker on a solution file and compare its claims.

    Returns:
        (report, mismatches): the checker's report on the added placements, and claims of
        the file that the checker contradicts (scores, status).
    """
    report = check_layout(solution.position, solution.layout)
    mismatches: list[str] = []
    if not report.legal:
        return report, mismatches
    for entry in solution.data["colours"]:
        r = report.report(colour_name(str(entry["name"])))
        if "score" in entry and entry["score"] != r.score:
            mismatches.append(f"{r.colour}: the file says score {entry['score']}, the rules give {r.score}")
        claims_solved = solution.data.get("status") == "solved" and solution.data.get("goal") == "place-all"
        if claims_solved and entry.get("played", True) and r.remaining:
            mismatches.append(f"{r.colour}: status is solved but {', '.join(r.remaining)} are unplaced")
        if claims_solved and entry.get("played", True) and solution.data.get("monomino_last") and not r.monomino_last:
            mismatches.append(f"{r.colour}: monomino-last is required but not possible")
    return report, mismatches
