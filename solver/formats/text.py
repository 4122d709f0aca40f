"""Reading text files: one decoding for every reader (puzzle TOML, solution JSON, SGF).

Every file is UTF-8 (TOML and JSON require it; Pentobi writes and reads only UTF-8). A
leading UTF-8 byte order mark, which some Windows editors add, is dropped, so a file reads
the same with or without it, and line and column numbers in messages count from the first
character after it.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from solver.errors import InputError
from solver.formats.files import check_file_name

_UTF16_32_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def is_file(path: str | Path) -> bool:
    """Whether ``path`` is a regular file here (links followed): for a name a file gave
    (a solution file's ``puzzle``, a results row's ``path``, a manifest's ``puzzle``),
    which may be one the file system refuses to look up (longer than it takes, a NUL byte,
    a folder on the way that cannot be entered): False then, never an error."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def read_text(path: str | Path) -> str:
    """The text of a file (see :func:`decode`).

    Raises:
        InputError: the file cannot be read (an empty name, a name no file system takes,
            missing, a folder, no permission), or is not UTF-8; ``path`` is set, and
            ``where`` names the line and column of the first byte that is not UTF-8.
    """
    name = str(path)
    check_file_name(name)
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror or e}", path=name) from None
    return decode(data, name)


def decode(data: bytes, path: str | None = None) -> str:
    """A file's bytes as text: UTF-8, without a leading byte order mark.

    Raises:
        InputError: the bytes are not UTF-8 (a UTF-16 or UTF-32 byte order mark is named
            as such); ``where`` names the line and column.
    """
    for bom, encoding in _UTF16_32_BOMS:
        if data.startswith(bom):
            raise InputError(
                f"the file is {encoding}; save it as UTF-8",
                path=path,
                where="line 1, column 1",
            )
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        before = data[: e.start].removeprefix(codecs.BOM_UTF8)
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise InputError(
            "the file is not valid UTF-8", path=path, where=f"line {line}, column {column}"
        ) from None


@contextmanager
def depth_limited(path: str | None = None) -> Iterator[None]:
    """Turn a parser's depth limit (Python's recursion limit, which ``tomllib`` and
    ``json`` hit at several hundred brackets or tables one inside another) into bad input.

    Raises:
        InputError: naming ``path``, for a RecursionError raised inside the block.
    """
    try:
        yield
    except RecursionError:
        raise InputError(
            "nested too deeply (brackets or tables one inside another past the parser's "
            "depth limit)",
            path=path,
        ) from None
