"""Cube-and-conquer, the split: a hard place-all puzzle split into many independent puzzle
files ("cubes") that the batch runner solves; :mod:`solver.trust.cube_join` joins their
answers back into one answer.

The split (:func:`split`) is a search tree cut at a fixed depth. A node is the original
puzzle with some placements fixed on the board and, for one played colour, some empty
squares blocked. A node is split on one square ``c``:

* A played colour with no square yet: ``c`` is its start square; one child per legal
  placement of that colour covering ``c`` (its first piece). Colours are taken in turn
  order, so with k colours the first k levels fix each colour's first piece.
* Otherwise, with exactly one played colour: ``c`` is the attach square of that colour
  (free, touching it at a corner only) with the fewest fitting placements; one child per
  fitting placement covering ``c`` ("c is covered by this piece"), and one child with
  ``c`` blocked ("c stays empty"), unless ``c`` is a square the layout must cover.
* Otherwise (several played colours, each with a first piece) the node is not split: it
  is a leaf (a cube) at whatever depth it has.

On Blokus Trigon a colour with no piece yet has no start square of its own: its first
piece covers any of the shared starting points that no piece covers. With one played
colour it is split as any other (its attach squares are then the free starting points:
``c`` the one with the fewest fitting placements), with the child "c stays empty" too,
since the colour may start at another. With several played colours and one of them yet to
start, the node is not split: "colour X's first piece is P" children overlap when X's
pieces cover two starting points, and a puzzle file cannot say "X does not cover c" while
another colour may (docs/geometry.md, "What runs on Trigon").

Why the cubes cover the whole search space (so "every cube infeasible" proves the original
infeasible): write Sol(N) for the layouts of the original puzzle that contain N's fixed
placements and leave N's blocked squares empty; Sol(root) is every layout. In a layout a
square is covered by at most one placement, so the children of a split on ``c`` partition
Sol(N): a colour's start square is covered by exactly one placement of that colour (its
first piece; any other colour on it makes the colour's first move impossible), and with
one played colour the square ``c`` is either covered by exactly one of its placements, which
then fits N (free squares of a piece the colour still has, no shared edge with it), or
stays empty (on Trigon also a starting point of a colour yet to start: it covers that one
with exactly one placement, or leaves it empty and starts at another). Blocking a square
means no colour covers it, which is "c stays empty" exactly when only one colour is played
(colours not played are frozen). So by induction Sol(root)
is the disjoint union of Sol(leaf) over the leaves; a cube's puzzle file has the fixed
placements on its board and the blocked squares blocked, so its layouts are exactly Sol(leaf)
less the fixed placements.

Symmetry: at a node, the board symmetries that map the node to itself (blocked squares,
every colour's squares, start squares and squares to cover,
:func:`solver.core.symmetry.position_symmetries`) and fix ``c`` permute its children and map
Sol(child) one-to-one onto Sol(image child), so a child is kept only if it is the least
(by its squares) of its orbit: Sol(N) is empty iff every kept child's is. A layout of a
kept cube is a layout of the original; a dropped cube's layouts are images of a kept one's.

Refused (InputError): goal max-score (a partition of layouts is not one of scores),
monomino-last and connect (a fixed first piece would change what those goals ask).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NotRequired, TypedDict

import numpy as np

from solver.core.board import Board
from solver.core.placements import board_placements, colour_masks, fitting_rows
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.core.symmetry import position_symmetries
from solver.errors import InputError, located
from solver.formats.files import TEMPORARY, write_text_atomic
from solver.formats.puzzle import parse_puzzle, puzzle_text
from solver.formats.structured import parse_json
from solver.formats.text import read_text
from solver.ranges import DEPTH

#: the manifest that :func:`write_cubes` writes beside the cube files
MANIFEST = "cubes.json"
FORMAT = "blokus-solo-cubes/1"


class FixedPiece(TypedDict):
    """A placement a cube fixes, in its manifest entry."""

    colour: str
    piece: str
    squares: list[str]


class CubeEntry(TypedDict):
    """A cube in the manifest: its file, the SHA-256 of its text, what it fixes."""

    file: str
    sha256: str
    fixed: list[FixedPiece]
    blocked: list[str]


class Manifest(TypedDict):
    """``cubes.json``. Read back (:func:`read_manifest`), ``cubes`` is as the file has it,
    each entry checked only when the join compares it with the split it re-derives; the
    split's counts are not read back."""

    format: str
    puzzle: str  # the puzzle's path as given to ``cubes split``
    puzzle_text: str
    depth: int
    nodes_per_level: NotRequired[list[int]]
    dropped_by_symmetry: NotRequired[int]
    cubes: Sequence[object]  # CubeEntry, as written


#: the folder of the cube files inside the cubes folder
CUBE_FOLDER = "cubes"


@dataclass(frozen=True)
class Cube:
    """One sub-problem.

    Attributes:
        problem: the original problem with ``fixed`` on the board and ``blocked`` blocked.
        fixed: (colour, placement) in the order fixed (a legal order of play).
        blocked: squares blocked by the split ("stays empty").
    """

    problem: Problem
    fixed: tuple[tuple[str, Placement], ...] = ()
    blocked: tuple[int, ...] = ()


@dataclass
class SplitStats:
    """Counts of a split: nodes per level and children dropped by symmetry."""

    nodes: list[int] = field(default_factory=list)
    dropped: int = 0


def check_splittable(problem: Problem) -> None:
    """Raises InputError for a problem :func:`split` refuses (see the module docstring)."""
    if problem.goal != "place-all":
        raise InputError("cubes: only goal place-all can be split")
    if problem.monomino_last:
        raise InputError("cubes: monomino-last cannot be split")
    if problem.connect:
        raise InputError("cubes: connect goals cannot be split")


def split(
    problem: Problem, depth: int, stats: SplitStats | None = None, symmetry: bool = True
) -> list[Cube]:
    """The cubes of ``problem`` at ``depth`` levels (see the module docstring).

    Args:
        problem: a place-all problem.
        depth: levels of splitting, >= 0 (0: the problem itself is the one cube).
        stats: filled with the nodes per level and the children dropped by symmetry.
        symmetry: keep one child per orbit of the node's symmetries (False: every child).

    Returns:
        The leaves in a stable order (children ordered by their squares).

    Raises:
        InputError: a problem :func:`check_splittable` refuses, or depth < 0.
    """
    check_splittable(problem)
    if depth < 0:
        raise InputError("cubes: the depth must be 0 or more")
    stats = stats if stats is not None else SplitStats()
    level = [Cube(problem)]
    for _ in range(depth):
        stats.nodes.append(len(level))
        nxt: list[Cube] = []
        for cube in level:
            children = _children(cube, stats, symmetry)
            nxt += [cube] if children is None else children
        level = nxt
    stats.nodes.append(len(level))
    return level


def _children(cube: Cube, stats: SplitStats, symmetry: bool) -> list[Cube] | None:
    """The kept children of a node, or None for a node that is not split."""
    problem = cube.problem
    position = problem.position
    colour, square = _branch_square(problem)
    if colour is None or square is None:
        return None
    table = board_placements(position.board)
    rows = fitting_rows(position, colour)
    covering = rows[(table.squares[rows] == square).any(axis=1)]
    options: list[Placement | int] = [table.placement(int(r)) for r in covering]
    state = position.colour(colour)
    first = not state.squares and state.start is not None  # (its own start: covered)
    if not first and square not in problem.cover:
        options.append(square)  # the square stays empty
    symmetries = (
        [g for g in position_symmetries(position, [problem.cover]) if int(g[square]) == square]
        if symmetry
        else []
    )
    kept = []
    for option in options:
        key = _key(option)
        if all(_key(option, g) >= key for g in symmetries[1:]):
            kept.append((key, option))
        else:
            stats.dropped += 1
    return [_child(cube, colour, option) for _, option in sorted(kept, key=lambda k: k[0])]


def _branch_square(problem: Problem) -> tuple[str | None, int | None]:
    """(colour, square) to split on, or (None, None) if the node is not split."""
    position = problem.position
    for colour in problem.colours:
        state = position.colour(colour)
        if state.remaining and not state.squares and state.start is not None:
            return colour, state.start
    if len(problem.colours) != 1:
        return None, None
    colour = problem.colours[0]
    if not position.colour(colour).remaining:
        return None, None
    _, attach = colour_masks(position, colour)
    squares = np.flatnonzero(attach)
    if len(squares) == 0:
        return None, None
    table = board_placements(position.board)
    covers = table.squares[fitting_rows(position, colour)]
    counts = [int((covers == s).any(axis=1).sum()) for s in squares]
    return colour, int(squares[int(np.argmin(counts))])


def _key(option: Placement | int, g: np.ndarray | None = None) -> tuple[int, tuple[int, ...]]:
    """A child's sort key (its image under the symmetry ``g``): kind, then squares."""
    if isinstance(option, int):
        return (1, (int(g[option]) if g is not None else option,))
    squares = option.squares if g is None else (int(g[s]) for s in option.squares)
    return (0, tuple(sorted(squares)))


def _child(cube: Cube, colour: str, option: Placement | int) -> Cube:
    problem = cube.problem
    position = problem.position
    if isinstance(option, int):
        board = position.board
        blocked = Board(board.rows, board.cols, board.blocked | {option}, board.grid)
        new = dataclasses.replace(position, board=blocked)
        return Cube(_with(problem, new), cube.fixed, cube.blocked + (option,))
    new = position.with_placement(colour, option)
    return Cube(_with(problem, new), cube.fixed + ((colour, option),), cube.blocked)


def _with(problem: Problem, position: Position) -> Problem:
    return Problem(
        position,
        problem.colours,
        problem.goal,
        problem.monomino_last,
        name=problem.name,
        title=problem.title,
        cover=problem.cover,
        connect=problem.connect,
    )


def cube_text(cube: Cube, number: int, total: int, source: str) -> str:
    """The puzzle file of a cube (``number`` of ``total``, split from ``source``)."""
    board = cube.problem.position.board
    fixed = "; ".join(f"{c} {p.piece} at {','.join(p.names(board))}" for c, p in cube.fixed)
    blocked = ", ".join(board.names(cube.blocked))
    description = f"fixed: {fixed or 'none'}; blocked: {blocked or 'none'}"
    return puzzle_text(cube.problem, f"cube {number} of {total} of {source}", description)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cube_file(number: int, total: int) -> str:
    """The file of cube ``number`` of ``total``, relative to the cubes folder:
    ``cubes/NNNNN.toml`` (at least 5 digits, as many as ``total`` has)."""
    return f"{CUBE_FOLDER}/{number:0{max(5, len(str(total)))}d}.toml"


def write_cubes(source: str, text: str, depth: int, out: Path) -> Manifest:
    """Split the puzzle ``text`` (read from ``source``) and write ``out/cubes/NNNNN.toml``
    (one per cube) and the manifest ``out/cubes.json`` (the original text, the depth, each
    cube's file, fixed placements, blocked squares and SHA-256).

    Returns:
        The manifest.

    Raises:
        InputError: bad puzzle text, a problem :func:`split` refuses, or ``out`` holding
            a different split already.
    """
    problem = parse_puzzle(text, source)
    stats = SplitStats()
    cubes = split(problem, depth, stats)
    board = problem.position.board
    entries: list[CubeEntry] = []
    texts: dict[str, str] = {}
    for n, cube in enumerate(cubes, start=1):
        name = cube_file(n, len(cubes))
        body = cube_text(cube, n, len(cubes), Path(source).name)
        texts[name] = body
        entries.append(
            {
                "file": name,
                "sha256": sha256(body),
                "fixed": [
                    {"colour": c, "piece": p.piece, "squares": p.names(board)}
                    for c, p in cube.fixed
                ],
                "blocked": board.names(cube.blocked),
            }
        )
    manifest: Manifest = {
        "format": FORMAT,
        "puzzle": source,
        "puzzle_text": text,
        "depth": depth,
        "nodes_per_level": stats.nodes,
        "dropped_by_symmetry": stats.dropped,
        "cubes": entries,
    }
    old = out / MANIFEST
    if old.exists() and read_manifest(out)["cubes"] != entries:
        raise InputError("holds a different split already", path=str(old))
    # the cube files plainly (syncing each costs 4 ms: 7 minutes at 100,000 cubes), the
    # manifest last and atomically: a split cut short has no manifest (join refuses it),
    # a cube file cut short gives a batch row whose hash matches no cube (missing), and
    # the same split run again rewrites them all
    try:
        (out / CUBE_FOLDER).mkdir(parents=True, exist_ok=True)
        for name, body in texts.items():
            (out / name).write_text(body, encoding="utf-8")
    except OSError as e:  # e.g. no space left: the split is refused, no manifest written
        raise InputError(f"cannot write: {e.strerror or e}", path=str(out / CUBE_FOLDER)) from None
    _remove_stale_manifests(out)
    write_text_atomic(old, json.dumps(manifest, indent=1) + "\n")
    return manifest


def _remove_stale_manifests(out: Path) -> None:
    """Remove the temporary manifests (``.cubes.json.XXXXXXXX``) of an earlier split that
    ``kill -9`` stopped between writing and renaming: never a result, and never read."""
    for path in out.glob("." + MANIFEST + ".*"):
        if TEMPORARY.match(path.name) and path.is_file():
            path.unlink()


def read_manifest(folder: Path) -> Manifest:
    """The manifest of the split in ``folder`` (``cubes.json``), its keys checked.

    Raises:
        InputError: no manifest, not readable, or not a cubes manifest.
    """
    path = folder / MANIFEST
    if not path.exists():
        raise InputError(f"no {MANIFEST} here (made by 'cubes split')", path=str(folder))
    data = parse_json(read_text(path), str(path))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"not a cubes manifest (format {FORMAT})", path=str(path))
    kinds = {"puzzle": str, "puzzle_text": str, "depth": int, "cubes": list}
    for key, kind in kinds.items():
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise InputError(f"expected {kind.__name__}", path=str(path), where=key)
    with located(path=str(path)):  # a split `cubes split` would not make
        DEPTH.check(data["depth"])
    return {
        "format": FORMAT,
        "puzzle": data["puzzle"],
        "puzzle_text": data["puzzle_text"],
        "depth": data["depth"],
        "cubes": data["cubes"],
    }
