"""User text (file names, titles, keys) inside our messages: one line, of a sensible length.

A file name may hold a newline or an escape sequence and a title may be megabytes long;
printed as they are, they would split a one-line error in two, drive the terminal, or
flood it. :func:`shown` escapes what a terminal would act on and cuts what is too long.
Own code: ``repr`` escapes but adds quotes and escapes every non-ASCII character in some
contexts, and ``textwrap.shorten`` collapses spaces; neither cuts in the middle.
"""

from __future__ import annotations

import unicodedata

#: characters cut to: a title or a file name in a line of output
LIMIT = 200

#: the mark where text was cut
ELLIPSIS = "…"


def _escape(ch: str) -> str:
    """``ch`` as Python writes it in a string literal: ``\\n``, ``\\x1b``, ``\\u202e``."""
    return ch.encode("unicode_escape").decode("ascii")


#: the bidirectional controls, which reorder the text around them on screen (Unicode
#: UAX #9); other format characters (the zero-width joiner of emoji) are kept
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _is_control(ch: str) -> bool:
    """Control characters (C0, DEL, C1), line and paragraph separators, the
    bidirectional controls, and lone surrogates (a byte that was not UTF-8, read with
    ``surrogateescape``, as file names from the command line are: no stream with a
    strict encoding can write one)."""
    return ch in _BIDI or unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs")


def escaped(text: str) -> str:
    """``text`` with every control character written as an escape (``\\n``, ``\\x1b``;
    a lone surrogate ``\\udcff``); other characters (accents, emoji) are kept."""
    if text.isprintable():  # the common case, fast
        return text
    return "".join(_escape(ch) if _is_control(ch) else ch for ch in text)


def shown(text: object, limit: int = LIMIT) -> str:
    """``str(text)`` fit to print inside a one-line message: control characters escaped
    (:func:`escaped`), and, when longer than ``limit`` characters, cut in the middle to
    about ``limit`` characters with :data:`ELLIPSIS` (the start and the end of a path
    are the parts that tell which file it is).
    """
    text = str(text)
    if len(text) > 4 * limit:  # escaping at most quadruples a character's length
        text = text[: 2 * limit] + ELLIPSIS + text[-2 * limit :]
    text = escaped(text)
    if len(text) <= limit:
        return text
    head = (limit * 2) // 3
    tail = limit - head - 1
    return text[:head] + ELLIPSIS + text[-tail:]
