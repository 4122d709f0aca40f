"""JSON and TOML text parsed the same way by every reader of user files (solution files,
puzzle files, the cubes manifest, batch results rows): what a parser cannot take is bad
input naming the file and the place, never an internal error.

- Nesting past :data:`MAX_NESTING`, or the parser's own depth limit
  (:func:`solver.formats.text.depth_limited`).
- A key given twice in one JSON object is refused (``json`` keeps the last value
  silently; TOML refuses it itself).
- Numbers: a whole number is at most :data:`MAX_WHOLE` either way (every count, counter,
  seed and size we write fits in 64 bits). Python cannot even read a whole number of more
  than 4300 digits (``int`` raises "Exceeds the limit (4300 digits)"), nor print one, so
  a field's own range (a board's side, a depth) could not be checked with a readable
  message; with this bound every reader can. In JSON, ``NaN`` and ``Infinity`` (Python's
  extension, not JSON) and a number past a float's range (``1e999``) are refused too.

A bad value is placed by its keys, as the readers name places (``colours[0].score``; in
TOML ``size[0]``, ``[start].blue``); bad syntax by its line and column.
"""

from __future__ import annotations

import json
import math
import re
import sys
import tomllib
from typing import Any

from solver.errors import InputError
from solver.formats.text import depth_limited

#: the largest whole number (either way) a file of ours may hold: 64 bits, signed
MAX_WHOLE = 2**63 - 1

#: the deepest nesting a file may have (ours nest 4 deep; the parsers' own limit,
#: Python's recursion limit, depends on how deep the stack already is)
MAX_NESTING = 100

#: a key, or an index into an array
Part = str | int


class SyntaxRefused(InputError):
    """The text is not JSON (or TOML) at all, e.g. a line cut short by a crash: readers of
    line-by-line files may skip such a line where they drop a bad row with a note."""


class _Refused:
    """What the JSON parser hands back for a number it refuses (found by :func:`_fault`:
    no reader ever sees one)."""

    def __init__(self, why: str):
        self.why = why


class _Object(dict[str, Any]):
    """A JSON object that remembers its first key given twice."""

    twice: str | None = None

    @classmethod
    def from_pairs(cls, pairs: list[tuple[str, Any]]) -> _Object:
        obj = cls()
        for key, value in pairs:
            if key in obj and obj.twice is None:
                obj.twice = key
            obj[key] = value
        return obj


def _whole(text: str) -> int | _Refused:
    digits = len(text.lstrip("-"))
    if digits > len(str(MAX_WHOLE)):  # (no int() of 5,000 digits: Python refuses those)
        return _Refused(f"number out of range: a whole number of {digits} digits")
    return int(text)


def _real(text: str) -> float | _Refused:
    number = float(text)
    if not math.isfinite(number):
        return _Refused(f"number out of range: {text[:20]}{'…' if len(text) > 20 else ''}")
    return number


def _constant(text: str) -> _Refused:
    return _Refused(f"{text} is not a number JSON allows")


def parse_json(text: str, path: str | None = None) -> Any:
    """The value of a JSON text (objects as dicts, arrays as lists).

    Raises:
        SyntaxRefused: not JSON (``where`` is the line and column).
        InputError: nested too deeply; a key given twice in one object; a number out of
            range (see the module docstring); ``where`` is the place (``colours[0].score``).
    """
    with depth_limited(path):
        try:
            data = json.loads(
                text,
                object_pairs_hook=_Object.from_pairs,
                parse_int=_whole,
                parse_float=_real,
                parse_constant=_constant,
            )
        except json.JSONDecodeError as e:
            raise SyntaxRefused(
                f"invalid JSON: {e.msg}", path=path, where=f"line {e.lineno}, column {e.colno}"
            ) from None
    _refuse_fault(data, path, toml=False)
    return data


def parse_toml(text: str, path: str | None = None) -> dict[str, Any]:
    """The table of a TOML text.

    Raises:
        SyntaxRefused: not TOML (``where`` is tomllib's line and column).
        InputError: nested too deeply; a whole number out of range (``where`` is its key,
            ``size[0]``, or for one of more digits than Python reads, its line).
    """
    with depth_limited(path):  # (a RecursionError is no ValueError: it passes the rest)
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            message, where = _toml_place(str(e))
            raise SyntaxRefused(f"invalid TOML: {message}", path=path, where=where) from None
        except ValueError:  # int() refused a number of more than sys.get_int_max_str_digits()
            limit = sys.get_int_max_str_digits()
            raise InputError(
                f"number out of range: a whole number of more than {limit} digits",
                path=path,
                where=_long_number_line(text, limit),
            ) from None
    _refuse_fault(data, path, toml=True)
    return data


def _toml_place(message: str) -> tuple[str, str | None]:
    """tomllib's message without its trailing "(at line L, column C)", and that place."""
    match = re.fullmatch(r"(.*) \(at (line \d+, column \d+|end of document)\)", message)
    return (match.group(1), match.group(2)) if match else (message, None)


def _long_number_line(text: str, limit: int) -> str | None:
    """The line of the first number of more than ``limit`` digits outside quotes (the
    number tomllib could not read), as "line N"; None if none is found."""
    number = re.compile(r"\d(?:_?\d){" + str(limit) + ",}")
    quoted = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'")
    for k, line in enumerate(text.splitlines(), start=1):
        if number.search(quoted.sub('""', line).split("#", 1)[0]):
            return f"line {k}"
    return None


def _refuse_fault(data: Any, path: str | None, toml: bool) -> None:
    """Raise InputError for the first fault in ``data``, in file order."""
    fault = _fault(data)
    if fault is not None:
        parts, why = fault
        raise InputError(why, path=path, where=place(parts, data if toml else None) or None)


def _fault(data: Any) -> tuple[tuple[Part, ...], str] | None:
    """The first key given twice, number out of range or nesting too deep in ``data``
    (depth first, in file order): its keys from the top and what is wrong; None if there
    is none. A loop, not
    recursion: the parser allows deeper nesting than a recursive walk from here would."""
    stack: list[tuple[tuple[Part, ...], Any]] = [((), data)]
    while stack:
        parts, value = stack.pop()
        if len(parts) > MAX_NESTING:
            why = (
                f"nested too deeply (more than {MAX_NESTING} brackets or tables one inside another)"
            )
            return (), why
        if isinstance(value, _Refused):
            return parts, value.why
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_WHOLE:
            digits = int(value.bit_length() * math.log10(2)) + 1  # (str() would refuse it)
            return parts, f"number out of range: a whole number of about {digits} digits"
        if isinstance(value, _Object) and value.twice is not None:
            return (*parts, value.twice), "this key is given twice in one object"
        if isinstance(value, dict):
            children: list[tuple[Part, Any]] = list(value.items())
        elif isinstance(value, list):
            children = list(enumerate(value))
        else:
            continue
        stack.extend(((*parts, key), child) for key, child in reversed(children))
    return None


def place(parts: tuple[Part, ...], toml: dict[str, Any] | None = None) -> str:
    """Keys from the top as a place: ``colours[0].score``; with the TOML document
    ``toml``, a top-level table's key as TOML names it: ``[start].blue``."""
    out = ""
    for k, part in enumerate(parts):
        if isinstance(part, int):
            out += f"[{part}]"
        elif k == 0 and toml is not None and isinstance(toml.get(part), dict) and len(parts) > 1:
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out
