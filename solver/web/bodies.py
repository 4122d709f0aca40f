"""What the API reads from a request's body: a small JSON object, and its fields, each
of the type it must be.

Every body that is not one gives one line and a 4xx, never a traceback: not UTF-8, not
JSON, not an object, nested too deep, a number of more than :data:`MAX_DIGITS` digits
(Python refuses to convert integers of over 4,300 digits, and no field needs more than
a few), ``NaN`` or ``Infinity``, or a field of the wrong type. The size is capped before
any of this (:class:`solver.web.middleware.BodyLimit`, :data:`MAX_BODY`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from solver.errors import InputError
from solver.quoting import shown

#: the largest JSON body read, in bytes (the largest the page sends, a kept game to
#: restore, is a few kilobytes)
MAX_BODY = 64_000
#: the most digits a number in a body may have
MAX_DIGITS = 15


class Malformed(InputError):
    """A body that is not a JSON object of sensible numbers (400, not 422)."""


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise Malformed(f"a number in the request has more than {MAX_DIGITS} digits")
    return int(text)


def _constant(text: str) -> float:
    raise Malformed(f"{text} is not a number the request may hold")


def json_object(raw: bytes) -> dict[str, Any]:
    """The body as a JSON object (an empty body is ``{}``).

    Raises:
        Malformed: not UTF-8, not JSON, nested too deep, a number too long, not an object.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Malformed(f"the request is not UTF-8 (byte {e.start})") from None
    try:
        data = json.loads(text or "{}", parse_int=_integer, parse_constant=_constant)
    except json.JSONDecodeError as e:
        raise Malformed(f"the request is not JSON ({e.msg} at character {e.pos})") from None
    except RecursionError:
        raise Malformed("the request is nested too deeply") from None
    if not isinstance(data, dict):
        raise Malformed("the request is not a JSON object")
    return data


def text(data: Mapping[str, Any], key: str, default: str | None = None) -> str | None:
    """The string ``data[key]`` (``default`` when absent or null).

    Raises:
        InputError: present and not a string.
    """
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise InputError(f"{key} must be a string, not {shown(json.dumps(value), 40)}")
    return value


def integer(data: Mapping[str, Any], key: str) -> int:
    """The integer ``data[key]`` (not a boolean). Raises InputError: anything else."""
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"{key} must be a whole number")
    return value


def flag(data: Mapping[str, Any], key: str) -> bool:
    """The boolean ``data[key]`` (false when absent). Raises InputError: anything else."""
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise InputError(f"{key} must be true or false")
    return value


def seconds(data: Mapping[str, Any], key: str, most: float) -> float | None:
    """``data[key]``: seconds in (0, ``most``], or None (absent or null: no limit).

    Raises:
        InputError: anything else (a string, a boolean, 0, a negative number, too many).
    """
    value = data.get(key)
    if value is None:
        return None
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if not (number and math.isfinite(value) and 0 < value <= most):
        raise InputError(f"{key} must be seconds between 0 and {most:g}, or null")
    return float(value)


def cells(data: Mapping[str, Any], key: str) -> list[tuple[int, int]]:
    """``data[key]``: a list of ``[row, column]`` pairs of whole numbers.

    Raises:
        InputError: anything else.
    """
    value = data.get(key)
    if not isinstance(value, list) or not all(
        isinstance(c, list)
        and len(c) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in c)
        for c in value
    ):
        raise InputError(f"{key} must be [row, column] pairs")
    return [(r, c) for r, c in value]


def numbers(data: Mapping[str, Any], key: str) -> list[int]:
    """``data[key]``: a list of whole numbers (cell numbers).

    Raises:
        InputError: anything else.
    """
    value = data.get(key)
    if not isinstance(value, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in value
    ):
        raise InputError(f"{key} must be a list of cell numbers")
    return list(value)
