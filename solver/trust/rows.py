"""The shape of a results row (``results.jsonl`` of ``batch``): :class:`Row` and the
records of its colours, :class:`ColourRecord`, as ``batch`` writes them
(:mod:`solver.batch.work`) and as the readers that trust nothing in it read them back: a
row is only text, and anyone can edit it.

:func:`row_problem` says why a row read back cannot be used at all (a field of another JSON
type than :class:`Row` declares, a file name that is not a file of a results folder):
``batch`` resuming a folder drops such a row and does its item again, ``batch-merge``
drops it (its item has no result), ``cubes join`` drops it and counts its cube unknown,
each with one ``note:`` line. :func:`file_problem` and :func:`inside` are the one check of
every file a results folder names: below ``solutions/`` or ``sweeps/``, never out of the
folder. :func:`read_row` is the one door from a parsed JSON line to a :class:`Row`.
Whether a well-formed row's claims can be trusted is :mod:`solver.trust.proofs`'s
question, and whether its solution file holds is the rule checker's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Required, TypedDict, cast

from solver.errors import InputError
from solver.formats.structured import SyntaxRefused, parse_json, shape_problem
from solver.quoting import shown
from solver.tasks.endgame import EndgameRecord

#: the folder of a results folder that holds the solution files and their pictures
SOLUTIONS = "solutions"
#: the folder of a results folder that holds a seed sweep's solution files: a folder of
#: its own, since any name under SOLUTIONS may be some puzzle's own solution file
SWEEPS = "sweeps"


class ColourRecord(EndgameRecord, total=False):
    """One colour's answer in a results row (its ``colours``). A game position checked per
    colour: the endgame record (:func:`solver.tasks.endgame.answer_record`, docs/formats.md)
    with the files ``batch`` wrote for it; ``batch --together``: one joint record, colour
    ``together``, with the ``colours`` it is about and the ``reason`` of a no; a puzzle: a
    played colour's part of the answer (``all_placed``)."""

    colours: list[str]
    reason: str
    all_placed: bool | None
    short: dict[str, list[str]] | None
    solution: str | None
    picture: str | None


class Row(TypedDict, total=False):
    """One line of ``results.jsonl`` (docs/batch.md): an item, the settings it ran with and
    its answer. Rows written by older versions may lack fields added since (``together``,
    ``setup_after``, ``best_left``, ...): readers use ``get``; only ``item`` is always
    there."""

    item: Required[str]
    path: str
    kind: str  # puzzle / game
    sha256: str | None  # None: the file could not be read (an error row)
    after: int | None
    end: bool
    # the settings (solver.batch.work.BatchSettings.key) and the threads per solve
    backend: str
    time_limit: float | None
    seed: int
    params: str
    together: bool
    sweep: bool
    workers: int
    # the answer
    status: str  # done / error
    answer: str | None  # a puzzle's solved / no / unknown; a joint answer; else None
    solve_status: str
    goal: str
    score: int | None
    bound: int | None
    nodes: int | None
    colours: list[ColourRecord]
    best_left: int | None
    short: dict[str, list[str]] | None
    fit: str | None
    setup_after: list[int]
    answered_by: str | None
    error: str | None
    error_kind: str | None
    solution: str | None
    picture: str | None
    finished: str
    worker: str
    seconds: float
    # set by solver.trust.proofs.as_trusted for a report, never written
    not_trusted: str


#: a record's file names (:func:`file_problem`)
_FILES = ("solution", "picture")


def file_problem(name: str) -> str | None:
    """Why ``name``, a file a results row names (its ``solution`` or ``picture``, a colour
    record's), is not a file of a results folder, or None: it must be a relative path
    below ``solutions/`` or ``sweeps/``, each part a name (none empty, ``.`` or ``..``, no
    NUL), so that joined to any folder it stays inside it (:func:`inside`)."""
    parts = name.split("/")
    if not name or "\x00" in name:
        return "is not a file name"
    if parts[0] not in (SOLUTIONS, SWEEPS) or len(parts) < 2:
        return f"'{shown(name)}' is not below {SOLUTIONS}/ or {SWEEPS}/"
    if any(part in ("", ".", "..") for part in parts):
        return f"'{shown(name)}' leads out of its folder (an empty part, . or ..)"
    return None


def inside(folder: Path, name: str) -> Path | None:
    """``folder / name`` when ``name`` is a file a results row may name
    (:func:`file_problem`) and that path, its symbolic links followed, lies inside
    ``folder`` (its links followed too); None otherwise. Every file a results folder
    names is read, written or removed only through this check."""
    if file_problem(name) is not None:
        return None
    path = folder / name
    real, top = os.path.realpath(path), os.path.realpath(folder)
    return path if os.path.commonpath([real, top]) == top and real != top else None


def row_problem(row: object) -> str | None:
    """Why ``row`` (one JSON line of ``results.jsonl``, parsed) is not a results row that
    a reader can use, or None: an object whose ``item`` is text, whose fields have the
    JSON types :class:`Row` declares (a whole number is never true/false; a number may be
    whole; fields it does not declare are left alone), whose ``colours`` is a list of
    objects each of the types :class:`ColourRecord` declares, whose file names are files
    of a results folder (:func:`file_problem`: below ``solutions/`` or ``sweeps/``, never
    out of it), whose sweep row has its seed, whose puzzle "solved" names its solution
    file, and whose answers follow from what they rest on (a done puzzle's "solved" from
    its ``solve_status``; a game colour's yes for pieces left names its solution file)."""
    if not isinstance(row, dict):
        return "not an object"
    if not isinstance(row.get("item"), str):
        return "item is not text"
    colours = row.get("colours", [])
    if not isinstance(colours, list) or not all(isinstance(c, dict) for c in colours):
        return "colours is not a list of objects"
    why = shape_problem(row, Row) or next(
        (f"colours: {w}" for c in colours if (w := shape_problem(c, ColourRecord))), None
    )
    if why is not None:
        return why
    for record in (row, *colours):
        for key in _FILES:
            name = record.get(key)
            why = None if name is None else file_problem(name)
            if why is not None:
                return f"{key} {why}"
    if row.get("sweep") and "seed" not in row:
        return "a sweep row's seed is not a whole number"
    if row.get("kind") == "puzzle" and row.get("answer") == "solved" and not row.get("solution"):
        return "a solved puzzle row names no solution file"
    return _answer_problem(row, colours)


def _answer_problem(row: dict[str, object], colours: list[dict[str, object]]) -> str | None:
    """Why a done row's yes does not rest on what it should: a puzzle's "solved" on a
    solve status solved or optimal (a "no" that does not follow from its status is an
    untrusted claim: :mod:`solver.trust.proofs`), a game colour's (or joint) yes for
    pieces left on the solution file that holds its layout."""
    if row.get("status") != "done":
        return None
    if row.get("kind") == "puzzle":
        status = row.get("solve_status")
        if row.get("answer") == "solved" and status not in ("solved", "optimal"):
            return f"answer solved but solve_status {shown(str(status))}"
    elif row.get("kind") == "game":
        for c in colours:
            if c.get("answer") == "yes" and c.get("left") and not c.get("solution"):
                return f"colours: {shown(str(c.get('colour')))} yes names no solution file"
    return None


def read_row(value: object) -> Row | str:
    """``value`` (a parsed JSON line) as a :class:`Row`, or why it is none
    (:func:`row_problem`)."""
    why = row_problem(value)
    # every field Row declares was just checked against its declared type
    return why if why is not None else cast(Row, value)


def read_line(line: bytes) -> Row | str | None:
    """One line of ``results.jsonl`` (without its newline) as a :class:`Row`; why it is
    none (not UTF-8, refused by :func:`solver.formats.structured.parse_json`: a number out
    of range, nested too deeply, a key twice; :func:`row_problem`), for a ``note:`` line;
    or None for a line that is not JSON at all (cut short by a crash: dropped quietly)."""
    try:
        return read_row(parse_json(line.decode("utf-8")))
    except UnicodeDecodeError:
        return "not UTF-8"
    except SyntaxRefused:
        return None
    except InputError as e:
        return str(e)
