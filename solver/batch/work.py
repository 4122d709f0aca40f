"""One item of a batch, done in a worker exactly as ``solve`` (a puzzle) or ``check`` (a game
position) would do it, turned into a results row and the text of its solution files (and,
beside each solution with a layout, its picture as SVG).

Runs in worker processes (local or Dask): it reads nothing from disk (the item carries its
bytes) and writes nothing (the submitting process writes every file), so any worker
anywhere gives the same row.
"""

from __future__ import annotations

import dataclasses
import os
import socket
import time
import traceback
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, TypedDict, cast

import solver.formats.game  # noqa: F401 (imported once here, not per item)
from solver.answers.solution import solution_text
from solver.backends import warmup
from solver.backends.base import SolveOptions
from solver.backends.registry import backend as backend_entry
from solver.batch.items import Item
from solver.core.pieces import PIECES
from solver.core.problem import Problem
from solver.errors import InputError, SolverBug
from solver.formats.game import read_sgf_bytes
from solver.formats.puzzle import parse_puzzle
from solver.pictures.svg import board
from solver.tasks.endgame import answer_record, endgame_check, joint_check
from solver.tasks.solve import SolveResult, solve
from solver.trust.rows import SOLUTIONS, SWEEPS, ColourRecord, Row

# The search kernel's module is imported where its dispatcher is asked for: it loads numba,
# which the batch command's start-up (and --help, which imports every command) would pay.

if TYPE_CHECKING:
    from numba.core.dispatcher import Dispatcher

    from solver.core.position import Position
    from solver.formats.game import Game

#: the suffix of the picture written beside each solution file that has a layout. SVG, not
#: PNG: it is text (written like the JSON), the same bytes on every machine (PNG bytes
#: depend on the Pillow build), a fraction of the time to draw, and it scales in the
#: results README's table
PICTURE_SUFFIX = ".svg"

#: the kernel warm-up problem: one colour, a monomino and a domino, 3x3 (solved in about a
#: millisecond once the kernel is loaded; benchmarks/batch.py uses it as empty work)
WARM_PUZZLE = """variant = "custom"
size = [3, 3]
colours = ["blue"]
[start]
blue = "a3"
[pieces]
blue = ["1", "2"]
"""


class SettingsKey(TypedDict):
    """The settings a stored result must match to be reused (:meth:`BatchSettings.key`); a
    results row and ``shard.json`` hold them."""

    backend: str
    time_limit: float | None
    seed: int
    params: str
    together: bool


class Outcome(TypedDict):
    """What a worker sends back for one item (:func:`run_item`)."""

    row: Row
    files: dict[str, str]  # solution file or picture, relative to the output folder -> text


@dataclass(frozen=True)
class BatchSettings:
    """How every item of a batch is solved (the options ``solve`` and ``check`` take).

    ``backend``, ``time_limit``, ``seed``, ``params`` and ``together`` (game positions:
    one joint check of every colour with pieces left, :func:`solver.tasks.endgame.joint_check`,
    instead of one check per colour) may change an answer, so a result is reused only if
    they match (:meth:`key`); ``workers`` (threads per solve) may not.
    """

    backend: str = "auto"
    time_limit: float | None = None
    seed: int = 0
    workers: int = 1
    params: str = ""
    together: bool = False

    def key(self) -> SettingsKey:
        """The settings a stored result must match to be reused."""
        return {
            "backend": self.backend,
            "time_limit": self.time_limit,
            "seed": self.seed,
            "params": self.params,
            "together": self.together,
        }

    def options(self) -> SolveOptions:
        return SolveOptions(
            backend=self.backend,
            time_limit=self.time_limit,
            workers=self.workers,
            seed=self.seed,
            params=self.params,
        )


def warm_kernel(backend: str = "search") -> tuple[str, float]:
    """Make this process ready to solve with ``backend``: import its modules (OR-tools for
    the CP-SAT ones) and the file readers, and load the compiled search kernel (compiling
    it if no cached copy exists) by solving a 3x3 puzzle with the search.

    Returns:
        (how, seconds) for the kernel: how is "compiled", "loaded from the cache",
        "already loaded", or "not used" (a backend without the search).
    """
    backend_entry(backend).load()
    if backend not in ("auto", "search"):
        return "not used", 0.0
    started = time.perf_counter()
    kernel = _kernel_dispatcher()
    if kernel is not None and kernel.signatures:
        return "already loaded", 0.0
    solve(parse_puzzle(WARM_PUZZLE, "<warm-up>"), SolveOptions(backend="search", workers=1))
    seconds = time.perf_counter() - started
    if kernel is None:
        return "ready", seconds
    misses = sum(kernel.stats.cache_misses.values())
    return ("compiled" if misses else "loaded from the cache"), seconds


def _kernel_dispatcher() -> Dispatcher | None:
    """The numba dispatcher of the search kernel, or None if it cannot be found (then the
    warm-up still runs, it only cannot say whether it compiled)."""
    try:
        kernel: Dispatcher = warmup.search_kernel()
        kernel.stats  # noqa: B018 (numba dispatchers have it; anything else does not)
        return kernel
    except (ImportError, AttributeError):
        return None


def solution_name(
    name: str, after: int | None, colour: str | None = None, seed: int | None = None
) -> str:
    """The solution file of an item (and colour), relative to the output folder:
    ``solutions/<name without its suffix>[-after-N][-<colour>].json``, or for seed S of a
    seed sweep ``sweeps/<name without its suffix>/seed-S.json`` (another folder: no
    puzzle's own file can take its name); parts of the name that would leave the folder
    (``..``, a root) are dropped."""
    parts = [p for p in PurePosixPath(name).parts if p not in ("/", "..", ".")]
    stem = PurePosixPath(*parts) if parts else PurePosixPath("item")
    tail = (f"-after-{after}" if after is not None else "") + (f"-{colour}" if colour else "")
    if seed is not None:
        return str(PurePosixPath(SWEEPS) / stem.with_name(stem.stem + tail) / f"seed-{seed}.json")
    return str(PurePosixPath(SOLUTIONS) / stem.with_name(stem.stem + tail + ".json"))


def settings_for(item: Item, settings: BatchSettings) -> BatchSettings:
    """The settings an item runs with: the batch's, with its own seed in a seed sweep;
    ``together`` (a question about game positions) is off for a puzzle."""
    if item.seed is not None:
        settings = dataclasses.replace(settings, seed=item.seed)
    if item.source.kind != "game" and settings.together:
        settings = dataclasses.replace(settings, together=False)
    return settings


def picture_name(solution: str) -> str:
    """The picture beside a solution file: its name with :data:`PICTURE_SUFFIX`."""
    return str(PurePosixPath(solution).with_suffix(PICTURE_SUFFIX))


def add_picture(files: dict[str, str], solution: str, result: SolveResult) -> str | None:
    """Add the picture of a result (as ``solve --out FILE.svg`` draws it) to ``files``
    beside its solution file; its name, or None when the result has no layout to draw."""
    shown = result.picture()
    if shown is None:
        return None
    position, options = shown
    name = picture_name(solution)
    files[name] = board(position, **options)
    return name


def base_row(item: Item, settings: BatchSettings) -> Row:
    """The fields of a results row that do not depend on the answer; ``sweep``: the row is
    one seed's run of a seed sweep (its ``seed`` is part of the item's key)."""
    settings = settings_for(item, settings)
    key = settings.key()
    return {
        "item": item.source.name,
        "path": str(item.source.path),
        "kind": item.source.kind,
        "sha256": item.sha256,
        "after": item.after,
        "end": item.end,
        "backend": key["backend"],
        "time_limit": key["time_limit"],
        "seed": key["seed"],
        "params": key["params"],
        "together": key["together"],
        "sweep": item.seed is not None,
        "workers": settings.workers,
    }


def error_row(
    item: Item, settings: BatchSettings, message: str, kind: str, seconds: float = 0.0
) -> Row:
    """A results row for an item that failed: kind is "input" (bad input: the same file
    fails the same way, so a resumed batch does not redo it), "bug" (the rule checker
    refused a backend's answer), "internal" (an unexpected exception) or "crash" (the
    worker process died); the last three are redone when the batch is resumed."""
    row = base_row(item, settings)
    row.update(
        {
            "status": "error",
            "answer": None,
            "colours": [],
            "seconds": round(seconds, 4),
            "answered_by": None,
            "error": message,
            "error_kind": kind,
            "solution": None,
            "picture": None,
            "finished": _now(),
            "worker": _worker(),
        }
    )
    return row


def run_item(item: Item, settings: BatchSettings) -> Outcome:
    """Do one item; never raises for bad input or a solver failure.

    Returns:
        {"row": the results row (see docs/batch.md), "files": {solution file
        name relative to the output folder: its text}}.
    """
    started = time.perf_counter()
    settings = settings_for(item, settings)
    if item.error is not None:
        return {"row": error_row(item, settings, item.error, "input"), "files": {}}
    try:
        if item.source.kind == "puzzle":
            row, files = _puzzle(item, settings)
        else:
            row, files = _game(item, settings)
    except InputError as e:
        where = str(e.located(path=str(item.source.path)))
        row, files = error_row(item, settings, where, "input", 0.0), {}
    except SolverBug as e:
        row, files = error_row(item, settings, f"solver bug: {e}", "bug"), {}
    except Exception as e:  # recorded in the row (with where it happened), never lost
        frame = traceback.extract_tb(e.__traceback__)[-1]
        place = f" ({os.path.basename(frame.filename)}:{frame.lineno})"
        message = f"internal error: {e.__class__.__name__}: {e}{place}"
        row, files = error_row(item, settings, message, "internal"), {}
    row["seconds"] = round(time.perf_counter() - started, 4)
    return {"row": row, "files": files}


def _puzzle(item: Item, settings: BatchSettings) -> tuple[Row, dict[str, str]]:
    assert item.data is not None
    path = str(item.source.path)
    try:
        text = item.data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"cannot read puzzle: {e}", path=path) from None
    problem = parse_puzzle(text, path)
    result = solve(problem, settings.options())
    answer = {"solved": "solved", "optimal": "solved", "infeasible": "no"}.get(result.status)
    files: dict[str, str] = {}
    solution = picture = None
    if result.status != "unknown" or result.layout is not None or result.partial is not None:
        solution = solution_name(item.source.name, None, seed=item.seed)
        files[solution] = solution_text(result, compact=True, made_by="batch")
        picture = add_picture(files, solution, result)
    row = base_row(item, settings)
    row.update(
        {
            "status": "done",
            "answer": answer or "unknown",
            "solve_status": result.status,
            "goal": problem.goal,
            "score": result.score,
            "bound": result.bound,
            "nodes": result.stats.get("nodes"),  # search nodes (None for CP-SAT), cubes join sums
            "colours": [_puzzle_colour(problem, result, c) for c in problem.colours],
        }
    )
    add_closeness(row, result)
    row.update(
        {
            "answered_by": result.backend,
            "error": None,
            "error_kind": None,
            "solution": solution,
            "picture": picture,
            "finished": _now(),
            "worker": _worker(),
        }
    )
    return row, files


def _puzzle_colour(problem: Problem, result: SolveResult, colour: str) -> ColourRecord:
    """A played colour's part of a puzzle's answer: can it place all its pieces here? With
    place-all, the puzzle's answer (jointly with the other played colours); with
    max-score, yes if the layout places them all, no if a proven best for this colour
    alone leaves some, else unknown."""
    state = problem.position.colour(colour)
    report = result.report.report(colour) if result.report else None
    if problem.goal == "place-all":
        answer = {"solved": "yes", "infeasible": "no"}.get(result.status, "unknown")
    elif report is not None and report.all_placed:
        answer = "yes"
    elif result.status == "optimal" and problem.colours == (colour,):
        answer = "no"
    else:
        answer = "unknown"
    return {
        "colour": colour,
        "left": len(state.remaining),
        "squares_left": state.remaining_squares,
        "answer": answer,
        "score": report.score if report else None,
        "all_placed": report.all_placed if report else None,
    }


@lru_cache(maxsize=128)
def read_game(data: bytes, path: str) -> Game:
    """A game record read once per worker, not once per position checked (a game of 80
    placements is a few kB in memory)."""
    return read_sgf_bytes(data, path)


def _game(item: Item, settings: BatchSettings) -> tuple[Row, dict[str, str]]:
    assert item.data is not None
    path = str(item.source.path)
    position = read_game(item.data, path).position(item.after)
    if settings.together:
        return game_together(item, settings, position)
    options = settings.options()
    colours: list[ColourRecord] = []
    files: dict[str, str] = {}
    backends: list[str] = []
    for state in position.colours:
        answer = endgame_check(position, state.name, options, name=path)
        # the endgame record is ColourRecord's base: none of the row's own keys yet
        record = cast(ColourRecord, answer_record(answer))
        solution = picture = None
        if state.remaining and answer.answer != "unknown":
            solution = solution_name(item.source.name, item.after, state.name)
            shown = answer.best or answer.place_all
            files[solution] = solution_text(shown, record, compact=True, made_by="batch (check)")
            picture = add_picture(files, solution, shown)
        record["solution"] = solution
        record["picture"] = picture
        if state.remaining:
            backends += [b for b in record["backend"].split(", then ") if b not in backends]
        colours.append(record)
    return _game_row(item, settings, None, colours, ", ".join(backends) or "none"), files


def _game_row(
    item: Item,
    settings: BatchSettings,
    answer: str | None,
    colours: list[ColourRecord],
    answered_by: str,
) -> Row:
    """A done game row: ``answer`` is the joint answer (None: one answer per colour);
    ``setup_after``: the game's placements after which setup changed the board
    (:attr:`solver.formats.game.Game.setup_after`; the report needs them to tell a chance
    given back by setup from answers that disagree)."""
    assert item.data is not None
    game = read_game(item.data, str(item.source.path))
    row = base_row(item, settings)
    row.update(
        {
            "status": "done",
            "answer": answer,
            "colours": colours,
            "setup_after": list(game.setup_after),
            "answered_by": answered_by,
            "error": None,
            "error_kind": None,
            "solution": None,
            "picture": None,
            "finished": _now(),
            "worker": _worker(),
        }
    )
    return row


#: the name of the joint answer's record in a game row's colours (``batch --together``)
TOGETHER = "together"


def game_together(
    item: Item, settings: BatchSettings, position: Position
) -> tuple[Row, dict[str, str]]:
    """The row of a game item run with ``--together`` (``settings.together``): one joint
    check of the colours with pieces left in ``position`` (the item's position); its record
    stands in the row's colours under the name :data:`TOGETHER` (its ``colours`` lists
    them). Returns (the done row, the files to write beside it: name -> text: the
    solution file of the joint layout, or of an unknown's best partial one, and its
    picture)."""
    path = str(item.source.path)
    colours = tuple(s.name for s in position.colours if s.remaining)
    record: ColourRecord = {
        "colour": TOGETHER,
        "colours": list(colours),
        "left": sum(len(position.colour(c).remaining) for c in colours),
        "squares_left": sum(position.colour(c).remaining_squares for c in colours),
        "answer": "yes",
        "reason": "",
        "score": None,
        "seconds": 0.0,
        "backend": "none",
        "solution": None,
        "picture": None,
    }
    files: dict[str, str] = {}
    if colours:
        answer = joint_check(position, colours, settings.options(), name=path)
        shown = answer.together
        backends = [r.backend for r in answer.alone] + ([shown.backend] if shown else [])
        record.update(
            {
                "answer": answer.answer,
                "reason": answer.reason,
                "seconds": round(answer.seconds, 4),
                "backend": ", ".join(dict.fromkeys(backends)) or "area bound",
            }
        )
        unknown = shown or (answer.alone[-1] if answer.alone else None)
        if answer.answer == "unknown" and unknown is not None:
            add_closeness(record, unknown)
            if unknown.partial is not None:
                solution = solution_name(item.source.name, item.after, TOGETHER)
                files[solution] = solution_text(unknown, compact=True, made_by="batch --together")
                record["solution"] = solution
                record["picture"] = add_picture(files, solution, unknown)
        if answer.answer == "yes" and shown is not None:
            record["score"] = shown.score
            solution = solution_name(item.source.name, item.after, TOGETHER)
            files[solution] = solution_text(shown, compact=True, made_by="batch --together")
            record["solution"] = solution
            record["picture"] = add_picture(files, solution, shown)
    return _game_row(item, settings, record["answer"], [record], record["backend"]), files


def add_closeness(record: Row | ColourRecord, result: SolveResult) -> None:
    """An unknown's best partial layout and bound as fields of a row or a colour record:
    ``best_left`` (squares left), ``short`` (colour -> pieces left), ``fit`` (e.g. "LP
    bound: at most 301.4 of the 300 squares fit"); each None when there is none."""
    short = result.short()
    partial = result.partial is not None
    record["best_left"] = (
        sum(PIECES[p].size for v in short.values() for p in v) if partial else None
    )
    record["short"] = {c: list(v) for c, v in short.items()} if partial else None
    record["fit"] = result.fit.text if result.fit is not None else None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _worker() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"
