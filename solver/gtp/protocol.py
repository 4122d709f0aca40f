"""GTP command lines and responses, as Pentobi's engine reads and writes them.

Source: the GTP 2 draft (Gunnar Farnebäck, lysator.liu.se/~gunnar/gtp) and Pentobi's
``libboardgame_gtp`` (``CmdLine.cpp``, ``Arguments.cpp``, ``Response.cpp``,
``GtpEngine.cpp``), which this module follows where the two differ:

- a line whose first non-space character is ``#``, or that is blank, is skipped (no
  response);
- the words of a line are split at white space; a double-quoted part is one word (quotes
  removed); the first word is a command id if there are at least two words and it reads
  as an integer;
- a response is ``=`` (success) or ``?`` (failure), the id if one was given, a space, the
  text, and an empty line; an empty line inside the text is written as a line holding
  one space (GTP forbids empty lines inside a response).

Our own code rather than a library: the GTP libraries on PyPI (gomill 0.8.3, 2019; pygtp,
2017; gtp, 2016) are unmaintained and speak Go (vertices, black/white), and Pentobi's
argument rules and error texts, which its controllers meet, are a page of code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

from solver.errors import MESSAGE_LIMIT
from solver.quoting import shown

_ID = re.compile(r"^[+-]?[0-9]+")
_INT = re.compile(r"^\s*[+-]?[0-9]+")

#: C++'s ``int``, the type Pentobi reads ids and most integer arguments as
INT_MIN, INT_MAX = -(2**31), 2**31 - 1

#: digits past which a number is past every bound without being converted (19 digits
#: hold every 64-bit number), and the number it then stands as (with its sign)
_DIGITS = 19
_PAST: int = 10**_DIGITS

#: characters of a ``?`` answer at most, as of an error's message on the command line
FAILURE_LIMIT = MESSAGE_LIMIT


def failure_text(message: str) -> str:
    """The text of a ``?`` answer: one line, control characters written as escapes
    (``\\x1b``, ``\\n``), cut in the middle to :data:`FAILURE_LIMIT` characters
    (:func:`solver.quoting.shown`), whatever user text (a command name, an argument, a file
    name) it quotes."""
    return shown(message, FAILURE_LIMIT)


def leading_int(text: str) -> int | None:
    """The integer ``text`` starts with (spaces, a sign, digits: C++'s ``>>``), or None.
    A number of more than 19 digits is given as ``±10**19``, past every bound a command
    takes (it is never converted whole)."""
    m = _INT.match(text)
    if not m:
        return None
    digits = m.group().strip()
    if len(digits.lstrip("+-").lstrip("0")) > _DIGITS:
        return -_PAST if digits.startswith("-") else _PAST
    return int(digits)


class GtpError(Exception):
    """A command failed: its message is the text of the ``?`` response."""


@dataclass(frozen=True)
class Command:
    """One command line, split into words.

    Attributes:
        line: the line as read (without its end of line).
        id: the command id as written (e.g. ``"12"``), or None.
        name: the command name.
        words: the words after the name (quotes removed).
        rest: the text after the name, spaces trimmed (Pentobi ``Arguments::get_line``).
        tails: the text after the name (``tails[0] == rest``) and after each argument
            (``tails[i + 1]``), spaces trimmed.
    """

    line: str
    id: str | None
    name: str
    words: tuple[str, ...]
    rest: str
    tails: tuple[str, ...] = ()

    def check_size(self, n: int) -> None:
        """Raises GtpError unless the command has ``n`` arguments (Pentobi's texts)."""
        if len(self.words) == n:
            return
        if n == 0:
            raise GtpError("no arguments allowed")
        raise GtpError("command needs one argument" if n == 1 else f"command needs {n} arguments")

    def check_at_most(self, n: int) -> None:
        """Raises GtpError if the command has more than ``n`` arguments."""
        if len(self.words) > n:
            raise GtpError(
                "command needs at most one argument"
                if n == 1
                else f"command needs at most {n} arguments"
            )

    def arg(self, i: int) -> str:
        """Argument ``i`` (0-based). Raises GtpError ("missing argument 1") if absent."""
        if i < len(self.words):
            return self.words[i]
        raise GtpError(f"missing argument {i + 1}")

    def int_arg(self, i: int, least: int = INT_MIN, most: int = INT_MAX) -> int:
        """Argument ``i`` as an integer from ``least`` to ``most`` (its leading digits, as
        C++'s ``>>`` reads them; by default the range of C++'s ``int``).

        Raises:
            GtpError: absent, not a number, below ``least`` or above ``most`` (Pentobi's
                texts: "argument 2 must be greater or equal 1", "... less or equal ...").
        """
        text = self.arg(i)
        value = leading_int(text)
        if value is None:
            raise GtpError(f"argument {i + 1} ('{text}') has invalid type")
        if value < least:
            raise GtpError(f"argument {i + 1} must be greater or equal {least}")
        if value > most:
            raise GtpError(f"argument {i + 1} must be less or equal {most}")
        return value

    def rest_after(self, i: int) -> str:
        """The line after argument ``i``, spaces trimmed (Pentobi
        ``Arguments::get_remaining_line(i)``): the text of a move that may hold spaces.
        Raises GtpError if there is no argument ``i``."""
        self.arg(i)
        return self.tails[i + 1]


def split_words(text: str) -> list[tuple[str, int]]:
    """Words of a line with the index just past each: split at white space, a
    double-quoted part one word (a quote preceded by a backslash does not count), as
    Pentobi's ``CmdLine::find_elem``."""
    words: list[tuple[str, int]] = []
    begin = 0
    in_string = False
    escape = False
    for i, c in enumerate(text):
        if c == '"' and not escape:
            if in_string:
                words.append((text[begin:i], i))
            begin = i + 1
            in_string = not in_string
        elif c.isspace() and not in_string:
            if i > begin:
                words.append((text[begin:i], i))
            begin = i + 1
        escape = c == "\\" and not escape
    if len(text) > begin:
        words.append((text[begin:], len(text)))
    return words


def _tail(line: str, end: int) -> str:
    """The line after index ``end``, an opening quote skipped, spaces trimmed (Pentobi
    ``CmdLine::get_trimmed_line_after_elem``)."""
    after = line[end:]
    if after.startswith('"'):
        after = after[1:]
    return after.strip()


def parse_line(line: str) -> Command | None:
    """The command on a line, or None for a blank line or a comment."""
    line = line.rstrip("\r\n").replace("\t", " ")
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    words = split_words(line)
    if not words:  # only quotes: the name is empty
        return Command(line, None, "", (), "", ("",))
    ident = None
    if len(words) >= 2 and _is_id(words[0][0]):
        ident, words = words[0][0], words[1:]
    tails = tuple(_tail(line, end) for _, end in words)
    return Command(line, ident, words[0][0], tuple(w for w, _ in words[1:]), tails[0], tails)


def _is_id(word: str) -> bool:
    """Whether a line's first word is a command id: it starts with an integer that fits
    C++'s ``int`` (Pentobi ``CmdLine::parse_id``)."""
    value = leading_int(word) if _ID.match(word) else None
    return value is not None and INT_MIN <= value <= INT_MAX


def response(ok: bool, ident: str | None, text: str) -> str:
    """The response text: status, id, a space, the text, an empty line (Pentobi
    ``Response::write``: an empty line inside becomes a line with one space). A failure's
    text is :func:`failure_text`'s, and the id is written as user text
    (:func:`solver.quoting.shown`) too."""
    if not ok:
        text = failure_text(text)
    body = text.replace("\n\n", "\n \n").replace("\n\n", "\n \n")
    if not body.endswith("\n"):
        body += "\n"
    return f"{'=' if ok else '?'}{shown(ident) if ident else ''} {body}\n"


def run(
    handle: Callable[[Command], tuple[bool, str]],
    stdin: IO[str],
    stdout: IO[str],
    done: Callable[[], bool],
) -> None:
    """The command loop: read a line, answer it, flush; until ``done()`` after a command,
    or the end of the input. A stream that can be reconfigured (a text file) reads bytes
    that are not UTF-8 as ``surrogateescape`` does (a file name in another encoding still
    opens; an answer writes such a byte as ``\\udcff``).

    Args:
        handle: a command -> (success, response text).
        stdin, stdout: the streams.
        done: whether the engine has quit.
    """
    for stream in (stdin, stdout):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="surrogateescape")
    for line in stdin:
        command = parse_line(line)
        if command is None:
            continue
        ok, text = handle(command)
        stdout.write(response(ok, command.id, text))
        stdout.flush()
        if done():
            return
