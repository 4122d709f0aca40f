"""What a batch works on: the input files under the given paths, and the items (one puzzle,
or one position of a game record) made from them.

Folders are walked recursively in a stable order (sorted by path, hidden files and folders
skipped, each real folder once: a loop of symbolic links ends); in a folder only puzzle
files (``.toml``) and game records (``.blksgf``, ``.sgf``) are taken, so sidecar files
(``.json``, ``README.md``) are left alone. A file named directly on the command line is
always taken: one of another type becomes an error row.

Each file is read once, here: its bytes travel with the item to the worker (a Dask worker
may not see this file system) and its SHA-256 is the content hash that decides whether a
result in the output folder is still valid.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from solver.errors import InputError
from solver.formats.game import read_sgf_bytes
from solver.formats.sources import GAME_SUFFIXES

PUZZLE_SUFFIXES = (".toml",)
Kind = Literal["puzzle", "game", "unknown"]


def kind_of(path: Path) -> Kind:
    """The kind of input a file is, by its suffix (case-insensitive)."""
    suffix = path.suffix.lower()
    if suffix in PUZZLE_SUFFIXES:
        return "puzzle"
    if suffix in GAME_SUFFIXES:
        return "game"
    return "unknown"


@dataclass(frozen=True)
class Source:
    """One input file.

    Attributes:
        path: where to read it.
        name: its name in the results: for a file found in a folder argument, the folder's
            own name and the path below it (``puzzles/tiny-4x4-impossible.toml``), for a file
            argument its file name; the same whatever the current folder, so that a batch
            resumed from elsewhere finds its results. Two different files that would get
            the same name keep their paths as given instead.
        kind: puzzle, game or unknown (by suffix).
    """

    path: Path
    name: str
    kind: Kind


def find_sources(paths: Sequence[str | Path], skip: Path | None = None) -> list[Source]:
    """The input files under ``paths``, each once, in a stable order: the paths in the order
    given, each folder's files sorted by their path below it.

    Args:
        paths: files and folders.
        skip: a folder not to walk (the output folder, when it lies under a path).

    Raises:
        InputError: a path that does not exist, or a folder with no puzzle or game record.
    """
    found: list[tuple[Path, str, Kind]] = []
    skip = skip.resolve() if skip else None
    for given in paths:
        path = Path(given)
        if not path.exists():
            raise InputError("no such file or folder", path=str(given))
        if not path.is_dir():
            found.append((path, path.name, kind_of(path)))
            continue
        top = path.resolve().name or str(path.resolve())
        inside = sorted(_walk(path, skip), key=lambda p: p.relative_to(path).parts)
        if not inside:
            raise InputError(
                "no puzzle (.toml) or game record (.blksgf) in this folder", path=str(given)
            )
        found += [(p, f"{top}/{p.relative_to(path).as_posix()}", kind_of(p)) for p in inside]
    return _named(found)


def _walk(folder: Path, skip: Path | None) -> list[Path]:
    """Puzzle and game files under ``folder``, hidden entries and ``skip`` left out. Each
    real folder is walked once, the folders reached without a symbolic link first: a link
    back to a folder on the way (``loop -> .``, ``up -> ..``) or to one walked already is
    not followed again, so a loop of links ends at once, and a file keeps its name by the
    path without links where it has one."""
    seen: set[str] = set()
    out: list[Path] = []
    plain: list[Path] = [folder]
    links: list[Path] = []
    while plain or links:
        current = plain.pop() if plain else links.pop(0)
        real = os.path.realpath(current)
        if real in seen:
            continue
        seen.add(real)
        for entry in sorted(current.iterdir()):
            if entry.name.startswith("."):
                continue
            if entry.is_dir():
                if skip is None or entry.resolve() != skip:
                    (links if entry.is_symlink() else plain).append(entry)
            elif entry.is_file() and kind_of(entry) != "unknown":
                out.append(entry)
    return out


def _named(found: list[tuple[Path, str, Kind]]) -> list[Source]:
    """Sources without repeats (a file reached twice is taken once); where two different
    files share a name, both keep their paths as given."""
    seen: set[Path] = set()
    unique = []
    for path, name, kind in found:
        real = path.resolve()
        if real not in seen:
            seen.add(real)
            unique.append((path, name, kind))
    names = [name for _, name, _ in unique]
    return [
        Source(path, name if names.count(name) == 1 else path.as_posix(), kind)
        for path, name, kind in unique
    ]


@dataclass(frozen=True)
class Item:
    """One unit of work: a puzzle, or a game record at one position.

    Attributes:
        source: the file.
        data: its bytes (None if it could not be read).
        sha256: their hash, hex (None if unread).
        after: for a game, the number of placements of the position checked; None for a
            puzzle, or for a file that failed before a position could be chosen.
        end: whether ``after`` is the game's last position.
        error: what went wrong while reading the file or choosing positions (the item is
            then an error row without running), or None.
        seed: for one run of a seed sweep (``--seeds``), its seed; None otherwise (the
            batch's ``--seed``).
    """

    source: Source
    data: bytes | None
    sha256: str | None
    after: int | None = None
    end: bool = False
    error: str | None = None
    seed: int | None = None

    @property
    def key(self) -> tuple[str, int | None, int | None]:
        """What identifies the item in the results: its name, position and sweep seed."""
        return (self.source.name, self.after, self.seed)


def make_items(
    sources: Sequence[Source],
    every: int | None,
    after: int | None,
    seeds: Sequence[int] | None = None,
) -> list[Item]:
    """The items of each source, in order.

    A puzzle is one item, or with ``seeds`` (a seed sweep) one item per seed. A game
    record gives the position after ``after`` placements, or with ``every`` the positions
    after every, 2 * every, ... placements and its last position; by default its last
    position. A file that cannot be read, a game record that does not parse, ``after``
    past a game's end, or an unknown suffix gives one item with ``error`` set (the batch
    records it and goes on).
    """
    items = []
    for source in sources:
        where = str(source.path)
        try:
            data = source.path.read_bytes()
        except OSError as e:
            why = f"{where}: cannot read: {e.strerror or e}"
            items.append(Item(source, None, None, error=why))
            continue
        digest = hashlib.sha256(data).hexdigest()
        if source.kind == "unknown":
            why = f"{where}: unknown file type: batch reads puzzles (.toml) and game records "
            why += "(.blksgf)"
            items.append(Item(source, data, digest, error=why))
        elif source.kind == "puzzle" and seeds:
            items += [Item(source, data, digest, seed=seed) for seed in seeds]
        elif source.kind == "puzzle":
            items.append(Item(source, data, digest))
        else:
            items += _game_items(source, data, digest, every, after)
    return items


def _game_items(
    source: Source, data: bytes, digest: str, every: int | None, after: int | None
) -> list[Item]:
    try:
        total = read_sgf_bytes(data, str(source.path)).num_placements
    except InputError as e:
        return [Item(source, data, digest, error=str(e.located(path=str(source.path))))]
    if after is not None and after > total:
        why = f"--after {after}: the game has only {total} placements"
        return [Item(source, data, digest, error=f"{source.path}: {why}")]
    if every is not None:
        wanted = [*range(every, total, every), total]
    else:
        wanted = [total if after is None else after]
    return [Item(source, data, digest, n, end=n == total) for n in wanted]
