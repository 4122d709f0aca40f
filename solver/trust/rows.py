"""The shape of a results row (``results.jsonl`` of ``batch``): :class:`Row` and the
records of its colours, :class:`ColourRecord`, as ``batch`` writes them
(:mod:`solver.batch.work`) and as the readers that trust nothing in it read them back: a
row is only text, and anyone can edit it.

:func:`row_problem` says why a row read back cannot be used at all (a field of another JSON
type than :class:`Row` declares, a file name that no file can have): ``batch`` resuming a
folder drops such a row and does its item again, ``cubes join`` drops it and counts its
cube unknown, each with one ``note:`` line. :func:`read_row` is the one door from a parsed
JSON line to a :class:`Row`. Whether a well-formed row's claims can be trusted is
:mod:`solver.trust.proofs`'s question, and whether its solution file holds is the rule
checker's.
"""

from __future__ import annotations

from typing import Required, TypedDict, cast

from solver.formats.structured import shape_problem
from solver.tasks.endgame import EndgameRecord


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
    # the settings (solver.batch.work.Settings.key) and the threads per solve
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


#: a record's file names: text without NUL, never empty
_FILES = ("solution", "picture")


def row_problem(row: object) -> str | None:
    """Why ``row`` (one JSON line of ``results.jsonl``, parsed) is not a results row that
    a reader can use, or None: an object whose ``item`` is text, whose fields have the
    JSON types :class:`Row` declares (a whole number is never true/false; a number may be
    whole; fields it does not declare are left alone), whose ``colours`` is a list of
    objects each of the types :class:`ColourRecord` declares, whose file names are text
    without NUL, and whose puzzle "solved" names its solution file."""
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
            if name is not None and ("\x00" in name or not name):
                return f"{key} is not a file name"
    if row.get("kind") == "puzzle" and row.get("answer") == "solved" and not row.get("solution"):
        return "a solved puzzle row names no solution file"
    return None


def read_row(value: object) -> Row | str:
    """``value`` (a parsed JSON line) as a :class:`Row`, or why it is none
    (:func:`row_problem`)."""
    why = row_problem(value)
    # every field Row declares was just checked against its declared type
    return why if why is not None else cast(Row, value)
