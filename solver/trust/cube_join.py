"""Cube-and-conquer, the join: the answers of ``blokus-solo batch`` on the cube files of a
split (:mod:`solver.tasks.cubes`) read back and joined into one answer for the original
puzzle.

:func:`join` reads the results of ``blokus-solo batch`` on the cube files, re-derives the
split from the original puzzle stored in the manifest (so the cover argument of the split
applies to the very files solved), matches results to cubes by the SHA-256 of their text, and
answers: a layout (a solved cube's layout with the cube's fixed placements added, checked
by the rule checker against the original puzzle), "infeasible" (every cube a proven no), or
"unknown" with counts. A row's "no" is a proof only if it can be one
(:func:`solver.trust.proofs.untrusted_claim`: a complete backend, asked for and answering, status
infeasible) and the cube file on disk is still the cube (its SHA-256); any other "no"
counts unknown. With a :class:`Recheck`, each cube's "no" is proved again here instead of
being read: the answer then rests on those solves, not on the results files.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from solver.answers.solution import read_solution
from solver.backends.base import BackendResult, SolveOptions
from solver.core.position import Placement
from solver.core.problem import Problem
from solver.errors import InputError, SolverBug
from solver.formats.puzzle import parse_puzzle
from solver.formats.text import is_file, read_text
from solver.quoting import shown
from solver.tasks.cubes import MANIFEST, Cube, cube_file, cube_text, read_manifest, sha256, split
from solver.tasks.solve import SolveResult, checked_result, solve
from solver.trust.compare import question_difference
from solver.trust.proofs import can_prove, untrusted_claim
from solver.trust.rows import Row, inside, read_line


def named_puzzle(folder: Path, source: str, text: str) -> str:
    """Compare the puzzle the manifest names (``source``, as given to ``cubes split``:
    tried as it is, then, when relative, beside the split's folder) with the copy the
    split was made from (``text``, the manifest's ``puzzle_text``).

    Returns:
        One line saying which puzzle the answer is about, and whether the named file was
        compared (it is the same text) or not (not here, or not readable).

    Raises:
        InputError: the named file is readable and its text is not the split's copy (the
            answer would be about another puzzle than the one named).
    """
    tried = [Path(source)]
    if not Path(source).is_absolute():
        tried.append(folder / source)
    found = next((p for p in tried if is_file(p)), None)
    copy = f"not compared; the answer is about the copy in {MANIFEST}"
    if found is None:
        return f"puzzle: {shown(source)} is not here, {copy}"
    try:
        on_disk = read_text(found)
    except InputError as e:
        return f"puzzle: {shown(found)} cannot be read ({shown(e, 120)}), {copy}"
    if on_disk == text:
        return f"puzzle: {shown(found)} (the same text as the split's copy in {MANIFEST})"
    try:
        why = question_difference(parse_puzzle(on_disk, str(found)), parse_puzzle(text, source))
    except InputError as e:
        return f"puzzle: {shown(found)} cannot be read ({shown(e, 120)}), {copy}"
    if why is not None:
        raise InputError(
            f"the puzzle it names, {shown(found)}, is not the puzzle the split was made from "
            f"(puzzle_text in {MANIFEST}: {why}): the answer would not be about it",
            path=str(folder / MANIFEST),
        )
    return (
        f"puzzle: {shown(found)} (the same question as the split's copy in {MANIFEST}; "
        "the text differs, e.g. its title)"
    )


@dataclass
class JoinResult:
    """What the cubes' results add up to.

    Attributes:
        status: "solved" (``result`` holds the checked, lifted layout), "infeasible" (every
            cube a proven no that can be trusted, the split re-derived), or "unknown".
        cubes, solved, infeasible, unknown, missing, rejected: counts of cubes, each
            counted once (missing: no result row; rejected: rows, but none usable: every
            one a layout the checker refused or an error). A "no" that cannot prove
            (:func:`row_proves_no`) counts unknown.
        untrusted: cubes whose only "no" rows cannot prove (counted in ``unknown``).
        rechecked: cubes whose "no" was re-proved here (``recheck``).
        nodes, seconds: sums over the row used for each cube (its yes, else its no, else
            its newest row; nodes where the backend counts them).
        result: the lifted layout, checked against the original puzzle.
        cube: the file of the cube that gave the layout.
        problems: one line per rejected row (a cube whose next row counts has lines
            here too).
        notes: one line per cube whose "no" is not trusted or did not hold on recheck.
        proof: what each counted "no" rests on: (results file or "recheck", backend) per
            cube, in cube order.
        puzzle: one line saying which puzzle the answer is about (:func:`named_puzzle`).
    """

    status: str
    cubes: int = 0
    solved: int = 0
    infeasible: int = 0
    unknown: int = 0
    missing: int = 0
    rejected: int = 0
    untrusted: int = 0
    rechecked: int = 0
    nodes: int = 0
    seconds: float = 0.0
    result: SolveResult | None = None
    cube: str | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    proof: list[tuple[str, str]] = field(default_factory=list)
    puzzle: str = ""


@dataclass(frozen=True)
class CubeRow:
    """A puzzle row of a batch results folder, and that folder (where its solution file
    lies)."""

    row: Row
    folder: Path


def read_rows(results: Path, notes: list[str] | None = None) -> dict[str, list[CubeRow]]:
    """The puzzle rows of a batch results folder by the SHA-256 of their input, newest
    last (:class:`CubeRow`: each with ``results``, where its solution file lies). A line that
    is not JSON (cut short by a crash) is skipped; a line that is not UTF-8 or that the
    reader refuses (:func:`solver.formats.structured.parse_json`: a number out of range,
    nested too deeply), or a row of the wrong shape
    (:func:`solver.trust.rows.row_problem`), is dropped with a line in ``notes`` (its cube
    then counts as if it had no row).

    Raises:
        InputError: no ``results.jsonl`` here, or it cannot be read.
    """
    path = results / "results.jsonl"
    if not path.exists():
        raise InputError("no results.jsonl here (made by 'blokus-solo batch')", path=str(results))
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror or e}", path=str(path)) from None
    rows: dict[str, list[CubeRow]] = {}
    for number, line in enumerate(data.splitlines(), start=1):
        row = read_line(line)
        if row is None:  # not JSON: cut short by a crash
            continue
        if isinstance(row, str):
            if notes is not None:
                notes.append(f"{path} line {number}: dropped ({row})")
            continue
        digest = row.get("sha256")
        if row.get("kind") == "puzzle" and digest:
            rows.setdefault(digest, []).append(CubeRow(row, results))
    return rows


def row_proves_no(row: Row) -> str | None:
    """Why a cube's row that says "no" is not a proof, or None if it is one: a done row,
    answer no with status infeasible, goal place-all, from a backend that can prove
    (:func:`solver.trust.proofs.untrusted_claim`)."""
    if row.get("status") != "done" or row.get("answer") != "no":
        return "not a no"
    if row.get("goal") != "place-all":
        return f"goal {str(row.get('goal'))[:20]!r}, not place-all"
    return untrusted_claim(row)


@dataclass(frozen=True)
class Recheck:
    """How ``cubes join --recheck`` re-proves each cube's "no": with ``backend`` (a
    complete one), ``time_limit`` seconds per cube (None: no limit), ``workers`` threads."""

    backend: str = "search"
    time_limit: float | None = None
    workers: int = 1


def join(
    folder: Path, results: Path | Sequence[Path], recheck: Recheck | None = None
) -> JoinResult:
    """Join the batch results (one folder ``results``, or several: e.g. the hard cubes run
    again with a longer time limit; a cube's yes, else its no, from any of them counts) of
    the cubes in ``folder`` (see the module docstring). Every solved cube's layout is
    lifted and checked; the first one the checker accepts is the answer.

    A cube's "no" counts only from a row that can prove it (:func:`row_proves_no`), for
    the cube's content as re-derived from the split, which must also be the cube file's
    content on disk now; other rows count unknown. With ``recheck``, each cube whose rows
    say "no" is solved again here and counts as a no only if that solve proves it (a
    layout found instead is lifted like a solved cube's).

    Raises:
        InputError: no manifest or results; the cube files are not the split of the
            original puzzle in the manifest (edited, or a different depth).
    """
    manifest = read_manifest(folder)
    source = str(manifest["puzzle"])
    about = named_puzzle(folder, source, manifest["puzzle_text"])
    # (an error in the copy is the manifest's, not the named file's)
    original = parse_puzzle(manifest["puzzle_text"], f"{folder / MANIFEST} puzzle_text")
    cubes = split(original, manifest["depth"])
    expected = [(cube_file(n, len(cubes)), sha256(cube_text(c, n, len(cubes), Path(source).name)))
                for n, c in enumerate(cubes, start=1)]  # fmt: skip
    if expected != [_listed(e) for e in manifest["cubes"]]:
        raise InputError("the cubes listed are not the split of the puzzle", path=str(folder))
    if not cubes:  # every layout lies in some cube: with none, the split is the proof
        return JoinResult("infeasible", cubes=0, puzzle=about)
    rows: dict[str, list[CubeRow]] = {}
    dropped: list[str] = []
    for where in [results] if isinstance(results, Path) else results:
        for key, found in read_rows(where, dropped).items():
            rows.setdefault(key, []).extend(found)
    out = JoinResult("unknown", cubes=len(cubes), puzzle=about, notes=dropped)
    for cube, entry in zip(cubes, expected):  # the manifest's entries, as just compared
        _join_cube(original, cube, entry, rows.get(entry[1], []), folder, recheck, out)
    if out.status != "solved" and out.infeasible == out.cubes:
        out.status = "infeasible"
    return out


def _join_cube(
    original: Problem,
    cube: Cube,
    entry: tuple[str, str],
    found: list[CubeRow],
    folder: Path,
    recheck: Recheck | None,
    out: JoinResult,
) -> None:
    """Count one cube's rows ``found`` (its content's) into ``out``: the first row in
    :func:`_ranked` order that the join does not reject answers for the cube; each
    rejected row (a layout the checker refuses, an error) is a line in ``out.problems``,
    and the next row is tried."""
    name = entry[0]
    if not found:
        out.missing += 1
        return
    for one in _ranked(found):
        row = one.row
        answer = row.get("answer") if row.get("status") == "done" else "error"
        if answer == "solved":
            # (read_row: a solved row names it, below solutions/ or sweeps/)
            solution = inside(one.folder, row.get("solution") or "")
            if solution is None:
                out.problems.append(
                    f"{name}: its solution file leads out of {shown(str(one.folder))}"
                )
                continue
            if not _count_layout(original, cube, solution, out, name):
                continue
        elif answer == "no" and recheck is not None:
            _recheck(original, cube, name, recheck, out)
        elif answer == "no":
            why = _on_disk(folder, entry) or row_proves_no(row)
            if why is None:
                out.infeasible += 1
                out.proof.append((str(one.folder / "results.jsonl"), str(row.get("answered_by"))))
            else:
                out.unknown += 1
                out.untrusted += 1
                out.notes.append(f"{name}: its no is not trusted ({why}): counted unknown")
        elif answer == "error":
            out.problems.append(f"{name}: {row.get('error')}")
            continue
        else:
            out.unknown += 1
        out.nodes += row.get("nodes") or 0
        out.seconds += row.get("seconds") or 0.0
        return
    out.rejected += 1  # rows, but none the join could use


def _listed(entry: object) -> tuple[object, object]:
    """A manifest entry's (file, SHA-256), or (None, None) for one that is no entry."""
    if not isinstance(entry, dict):
        return (None, None)
    return (entry.get("file"), entry.get("sha256"))


def _on_disk(folder: Path, entry: tuple[str, str]) -> str | None:
    """Why the cube file on disk is not the cube the manifest names (``entry``: its file
    and SHA-256; missing, or other content), or None if it is."""
    try:
        data = (folder / entry[0]).read_bytes()
    except OSError as e:
        return f"cube file cannot be read: {e.strerror or e}"
    if hashlib.sha256(data).hexdigest() != entry[1]:
        return "cube file changed since the split"
    return None


def _count_layout(original: Problem, cube: Cube, path: Path, out: JoinResult, name: str) -> bool:
    """A solved cube's row: its solution file's layout, lifted and checked (see
    :func:`_count_lifted`)."""
    try:
        added = read_solution(path).layout
    except InputError as e:
        out.problems.append(f"{name}: {e}")
        return False
    return _count_lifted(original, cube, added, out, name)


def _count_lifted(
    original: Problem, cube: Cube, added: dict[str, list[Placement]], out: JoinResult, name: str
) -> bool:
    """Count a cube's layout ``added`` (what a solve of the cube placed) with the cube's
    fixed placements put first, checked by the rule checker against the original problem:
    solved (the first one is the answer; True), or refused with a line in ``out.problems``
    and nothing counted (False)."""
    layout = {c: [p for k, p in cube.fixed if k == c] for c in original.colours}
    for colour, placements in added.items():
        if colour in layout:
            layout[colour] += placements
    raw = BackendResult("solved", layout, answered_by="cubes")
    try:
        lifted = checked_result(original, raw, "cubes", time.perf_counter())
    except SolverBug as e:
        out.problems.append(f"{name}: {e}")
        return False
    out.solved += 1
    if out.result is None:
        out.status, out.result, out.cube = "solved", lifted, name
    return True


def _recheck(original: Problem, cube: Cube, name: str, how: Recheck, out: JoinResult) -> None:
    """Solve the cube again with ``how``: a proven no counts (resting on this solve), a
    layout is lifted (the row's no was false), anything else is unknown."""
    options = SolveOptions(backend=how.backend, time_limit=how.time_limit, workers=how.workers)
    result = solve(cube.problem, options)
    out.rechecked += 1
    if result.status == "infeasible" and can_prove(result.backend):
        out.infeasible += 1
        out.proof.append(("recheck", result.backend))
    elif result.layout is not None and result.status == "solved":
        out.notes.append(f"{name}: its row says no, but the recheck found a layout")
        if not _count_lifted(original, cube, result.layout, out, name):
            out.rejected += 1
    else:
        out.unknown += 1
        out.notes.append(f"{name}: the recheck did not prove its no ({result.status})")


def _ranked(rows: list[CubeRow]) -> list[CubeRow]:
    """A cube's rows, most useful first: its yes rows, then its no rows that can prove,
    then its other no rows (each newest first), then its newest other row."""
    done = [r for r in reversed(rows) if r.row.get("status") == "done"]
    ranked = [r for r in done if r.row.get("answer") == "solved"]
    no = [r for r in done if r.row.get("answer") == "no"]
    ranked += [r for r in no if row_proves_no(r.row) is None]
    ranked += [r for r in no if row_proves_no(r.row) is not None]
    return ranked + [r for r in rows[-1:] if r not in ranked]
