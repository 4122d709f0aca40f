"""Output files: checked before any work, then written atomically.

Every file the command line writes goes through :func:`write_text_atomic`: the text goes
to a hidden temporary file beside the target (``.NAME.XXXXXXXX``, :data:`TEMPORARY`; NAME
is the end of a long name, :data:`TEMPORARY_STEM`, so any name the file system takes has a
temporary name it takes too), is synced, and is renamed over the target. Any failure on
the way (no space left, an I/O error, Ctrl-C, SIGTERM raised as an exception) removes the
temporary file again and leaves the old file as it was. Only ``kill -9`` or a power cut
can leave a temporary file; ``batch`` removes those of its own folder when it starts.

:func:`check_output` and :func:`check_output_folder` refuse an output that cannot be
written (a missing folder, a file where a folder should be, a name or path too long for
the file system, no permission) before the work that would
fill it, so a long solve is never lost to a bad ``--out``.
"""

from __future__ import annotations

import os
import re
import signal
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from solver.errors import InputError
from solver.quoting import shown

#: the temporary files of :func:`write_text_atomic` (``tempfile.mkstemp`` adds 8 random
#: characters of ``[a-z0-9_]`` to the prefix ``.NAME.``)
TEMPORARY = re.compile(r"^\..+\.[A-Za-z0-9_]{8}$")

#: bytes the temporary name adds to the target's name: the leading dot, the dot before the
#: random part, and 8 random characters
TEMPORARY_EXTRA = 10

#: the most bytes of the target's name its temporary name keeps (its end: the suffix
#: tells ``batch`` whose temporary file it is), so that a name of NAME_MAX bytes (255 on
#: most file systems) still has a temporary name the file system takes
TEMPORARY_STEM = 100

#: the POSIX minimums, used where ``os.pathconf`` cannot tell (e.g. not on POSIX)
_NAME_MAX = 255
_PATH_MAX = 4096

#: a signal's handler, as :func:`signal.signal` takes and returns it
Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None


def check_file_name(name: str | Path, where: str | None = None) -> None:
    """Refuse a file name that no file system takes, before it reaches one: an empty name
    (the current folder to ``os.path.realpath``), a NUL character (``\\x00``, the end of
    a name in every system call; Python raises ValueError, not OSError), or a character
    the file system's encoding cannot write (a lone surrogate such as ``\\ud800``; the
    bytes of a name that is not UTF-8, read with ``surrogateescape``, can).

    Raises:
        InputError: naming the file (escaped, :func:`solver.quoting.shown`) and ``where``.
    """
    text = str(name)
    if not text:
        raise InputError("empty file name", where=where)
    if "\x00" in text:
        raise InputError("a file name cannot hold a NUL character (\\x00)", path=text, where=where)
    try:
        os.fsencode(text)
    except UnicodeEncodeError as e:
        bad = shown(e.object[e.start : e.end])
        raise InputError(
            f"a file name cannot hold {bad} (the file system's encoding cannot write it)",
            path=text,
            where=where,
        ) from None


def write_text_atomic(path: str | Path, text: str | bytes) -> None:
    """Write a file (text as UTF-8, or bytes as they are) so that it is either fully
    written or left as it was (a temporary file in the same folder, then renamed over
    it). The file gets the mode a plain ``open`` would give: an existing file's mode, else
    0o666 less the umask. A symbolic link is followed (its target is replaced), as ``open``
    would. On any failure, including KeyboardInterrupt and SystemExit, the temporary file
    is removed before the exception goes on.

    Raises:
        InputError: the folder does not exist or is not writable, the disk is full, an I/O
            error (the old file is kept, no temporary file is left).
    """
    check_file_name(path)
    path = Path(os.path.realpath(path))
    tmp: str | None = None
    with _signals_deferred():
        try:
            mode = path.stat().st_mode & 0o7777 if path.exists() else 0o666 & ~_umask()
            fd, tmp = tempfile.mkstemp(prefix=_temporary_prefix(path.name), dir=path.parent)
            with os.fdopen(fd, "wb") as f:
                f.write(text.encode("utf-8") if isinstance(text, str) else text)
                f.flush()
                os.fsync(f.fileno())  # on disk before the rename makes it visible
            os.chmod(tmp, mode)
            os.replace(tmp, path)
            tmp = None
        except OSError as e:
            raise InputError(f"cannot write: {e.strerror or e}", path=str(path)) from None
        finally:
            if tmp is not None:
                _remove(tmp)


#: the signals that end a command by default: held off while a file is written
_DEFERRED = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP off while a file is written (a few milliseconds):
    one that arrives is noted and raised again once the write is finished or undone, so
    its old handler (the default one: the end of the process) never finds a temporary
    file. Nothing changes outside the main thread, where handlers cannot be set."""
    arrived: list[int] = []
    old: dict[int, Handler] = {}
    try:
        for signum in _DEFERRED:
            if signal.getsignal(signum) is not None:  # (None: set outside Python, left be)
                old[signum] = signal.signal(signum, lambda s, _frame: arrived.append(s))
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        for signum, handler in old.items():
            signal.signal(signum, handler)
        for signum in arrived[:1]:
            signal.raise_signal(signum)


def _temporary_prefix(name: str) -> str:
    """``.NAME.``: the start of the temporary name of a file ``name``, NAME its last
    :data:`TEMPORARY_STEM` bytes at most, cut where a character starts (in UTF-8 a byte
    ``10xxxxxx`` continues one)."""
    tail = os.fsencode(name)[-TEMPORARY_STEM:]
    while tail and tail[0] & 0xC0 == 0x80:
        tail = tail[1:]
    return "." + os.fsdecode(tail) + "."


def _written_size(name: str) -> int:
    """The bytes of the longer of a file's name and its temporary name: what must fit."""
    size = len(os.fsencode(name))
    return max(size, min(size, TEMPORARY_STEM) + TEMPORARY_EXTRA)


def _remove(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:  # gone already, or the folder went away: nothing left to clean
        pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _limit(folder: Path, name: str, fallback: int) -> int:
    try:
        return os.pathconf(folder, name)
    except (OSError, ValueError, AttributeError):  # unknown here: the POSIX minimum
        return fallback


def check_output(out: str | Path, where: str = "--out") -> Path:
    """Check, before any work, that ``out`` can be written as a file by
    :func:`write_text_atomic`; links are followed as that function follows them.

    Returns:
        ``out`` as a Path (as given, not resolved).

    Raises:
        InputError: its folder is missing or not a folder (through links), it is a folder
            or a loop of links, its name (or its temporary name) is over the file system's
            NAME_MAX or its full path over PATH_MAX, or the folder (or an existing
            read-only file) cannot be written.
    """
    given = Path(out)
    check_file_name(out, where)
    try:
        target = Path(os.path.realpath(out))
        folder = target.parent
        if not folder.exists():
            raise InputError(f"folder {str(folder)!r} does not exist", path=str(out), where=where)
        if not folder.is_dir():
            raise InputError(f"{str(folder)!r} is not a folder", path=str(out), where=where)
        _check_lengths(folder, target.name, str(out), where)
        if os.path.lexists(out):
            try:
                os.stat(out)  # a loop of links raises here (caught below)
            except FileNotFoundError:  # a link to a file not there yet: written through it
                pass
        if target.is_dir():
            raise InputError("is a folder, not a file", path=str(out), where=where)
        if not os.access(folder, os.W_OK | os.X_OK) or (
            target.exists() and not os.access(target, os.W_OK)
        ):
            raise InputError("cannot write here (permission denied)", path=str(out), where=where)
    except OSError as e:  # e.g. a loop of links
        raise InputError(f"cannot write: {e.strerror or e}", path=str(out), where=where) from None
    return given


def _check_lengths(folder: Path, name: str, out: str, where: str) -> None:
    """Refuse a name, or a path, that the file system would refuse (for the file or for
    its temporary name)."""
    name_max = _limit(folder, "PC_NAME_MAX", _NAME_MAX)
    size = _written_size(name)
    if size > name_max:
        raise InputError(
            f"file name too long: {len(os.fsencode(name))} bytes, at most {name_max} here",
            path=out,
            where=where,
        )
    path_max = _limit(folder, "PC_PATH_MAX", _PATH_MAX)
    full = len(os.fsencode(str(folder))) + 1 + size
    if full >= path_max:
        raise InputError(
            f"path too long: {full} bytes with the temporary name, under {path_max} here",
            path=out,
            where=where,
        )


def check_names_inside(folder: Path, relative: str) -> None:
    """Check that a file ``relative`` (a path such as ``solutions/a/b.json``) can be
    written under ``folder`` (which need not exist yet) by :func:`write_text_atomic`: each
    part of its name (the last, and its temporary name) fits NAME_MAX, the whole path
    PATH_MAX, no folder on the way is a file, and the file is not a folder.

    Raises:
        InputError: a part or the whole is too long, or in the way (no ``path`` set: the
            caller names the file the name came from).
    """
    existing = Path(os.path.realpath(folder))
    while not existing.exists():
        existing = existing.parent
    name_max = _limit(existing, "PC_NAME_MAX", _NAME_MAX)
    parts = Path(relative).parts
    for k, part in enumerate(parts):
        last = k == len(parts) - 1
        size = _written_size(part) if last else len(os.fsencode(part))
        if size > name_max:
            raise InputError(
                f"its output file name would be too long: {shown(part)} is "
                f"{len(os.fsencode(part))} bytes, at most {name_max} here"
            )
        below = Path(folder, *parts[: k + 1])
        if last and below.is_dir():
            raise InputError(f"its output file {shown(below)} is a folder")
        if not last and below.exists() and not below.is_dir():
            raise InputError(f"its output folder {shown(below)} is a file")
    path_max = _limit(existing, "PC_PATH_MAX", _PATH_MAX)
    parent = Path(os.path.realpath(folder)) / Path(relative).parent
    full = len(os.fsencode(str(parent))) + 1 + _written_size(parts[-1])
    if full >= path_max:
        raise InputError(f"its output path would be too long: at most {path_max} bytes")


def check_output_folder(out: str | Path, longest: int = 40, where: str = "--out") -> Path:
    """Check, before any work, that ``out`` is a folder or can be made as one (the nearest
    existing folder above it is writable), following links, and that files of names up to
    ``longest`` bytes fit in it.

    Returns:
        ``out`` as a Path (as given).

    Raises:
        InputError: it (or a folder above it) is a file or a link to nothing, a part of it
            is too long, or it cannot be written or made.
    """
    folder = Path(out)
    check_file_name(out, where)
    try:
        target = Path(os.path.realpath(out))
        if target.exists() and not target.is_dir():
            raise InputError("is a file, not a folder", path=str(out), where=where)
        existing = target
        while not existing.exists():
            existing = existing.parent
        if not existing.is_dir():
            raise InputError(
                f"{str(existing)!r} is a file, not a folder", path=str(out), where=where
            )
        name_max = _limit(existing, "PC_NAME_MAX", _NAME_MAX)
        for part in target.relative_to(existing).parts:
            if len(os.fsencode(part)) > name_max:
                raise InputError(f"folder name too long (at most {name_max} bytes)", path=str(out))
        path_max = _limit(existing, "PC_PATH_MAX", _PATH_MAX)
        if len(os.fsencode(str(target))) + 1 + _written_size("x" * longest) >= path_max:
            raise InputError(
                f"path too long (at most {path_max} bytes)", path=str(out), where=where
            )
        if not os.access(existing, os.W_OK | os.X_OK):
            raise InputError("cannot write here (permission denied)", path=str(out), where=where)
    except OSError as e:  # e.g. a loop of links
        raise InputError(f"cannot write: {e.strerror or e}", path=str(out), where=where) from None
    return folder
