"""The shape of a results row (``results.jsonl`` of ``batch``), as the readers that trust
nothing in it need it: a row is only text, and anyone can edit it.

:func:`row_problem` says why a row read back cannot be used at all (a field of the wrong
JSON type, a file name that no file can have): ``batch`` resuming a folder drops such a
row and does its item again, ``cubes join`` drops it and counts its cube unknown, each
with one ``note:`` line. Whether a well-formed row's claims can be trusted is
:mod:`solver.trust.proofs`'s question, and whether its solution file holds is the rule
checker's.
"""

from __future__ import annotations

#: fields that are text or null when present
_TEXT = (
    "item", "path", "kind", "sha256", "status", "answer", "solve_status", "goal", "backend",
    "answered_by", "params", "error", "error_kind", "solution", "picture",
)  # fmt: skip
#: fields that are whole numbers or null when present (never true/false)
_WHOLE = ("after", "seed", "workers")
#: a colour record's file names
_FILES = ("solution", "picture")


def row_problem(row: object) -> str | None:
    """Why ``row`` (one JSON line of ``results.jsonl``, parsed) is not a results row that
    a reader can use, or None: an object whose ``item`` is text, whose text and number
    fields have those types, whose ``colours`` (if any) is a list of objects, whose file
    names are text without NUL, and whose puzzle "solved" names its solution file."""
    if not isinstance(row, dict):
        return "not an object"
    if not isinstance(row.get("item"), str):
        return "item is not text"
    for key in _TEXT:
        if row.get(key) is not None and not isinstance(row[key], str):
            return f"{key} is not text"
    for key in _WHOLE:
        value = row.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            return f"{key} is not a whole number"
    limit = row.get("time_limit")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, float))):
        return "time_limit is not a number"
    colours = row.get("colours", [])
    if not isinstance(colours, list) or not all(isinstance(c, dict) for c in colours):
        return "colours is not a list of objects"
    for record in (row, *colours):
        for key in _FILES:
            name = record.get(key)
            if name is not None and (not isinstance(name, str) or "\x00" in name or not name):
                return f"{key} is not a file name"
    if row.get("kind") == "puzzle" and row.get("answer") == "solved" and not row.get("solution"):
        return "a solved puzzle row names no solution file"
    return None
