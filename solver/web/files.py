"""What the page can open and save.

Opening: the catalogue (built-in challenges, the shipped puzzles and cards, the files
named on the command line), each known to the page by an id only, and uploads, read from
their bytes by the project's own readers (:func:`~solver.formats.puzzle.parse_puzzle`,
:func:`~solver.formats.game.read_sgf_bytes`, :func:`~solver.answers.solution.
read_solution_text`), so that bad input gives the same one-line message as the command
line. No path that came from the browser is ever opened: an upload's name only picks the
reader and labels messages. Saving: the position as a Pentobi SGF or a puzzle TOML, the
picture as SVG or PNG.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from solver.answers.solution import read_solution_text, verify
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.core.variants import ALL_VARIANTS
from solver.errors import InputError, located
from solver.formats.game import read_sgf_bytes, write_sgf
from solver.formats.puzzle import parse_puzzle, puzzle_text
from solver.formats.text import decode
from solver.pictures.picture import with_layout
from solver.pictures.svg import board
from solver.web.session import Session, game_problem

#: the largest upload read, in bytes (a Pentobi game record is a few kilobytes)
MAX_UPLOAD = 1_000_000

#: the shipped puzzles in a source checkout (``puzzles/``, next to the package)
CHECKOUT_PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def shipped_puzzles() -> Path | None:
    """The folder of the shipped puzzles (``*.toml``, cards in ``cards/``): the package's
    own copy (``solver.puzzles``, built from ``puzzles/`` by pyproject.toml's
    ``package-dir``, so an installed copy, editable or not, has them), else the source
    checkout's ``puzzles/``; None when neither is there."""
    spec = importlib.util.find_spec("solver.puzzles")
    for folder in (*(spec.submodule_search_locations or () if spec else ()), CHECKOUT_PUZZLES):
        path = Path(folder)
        if (path / "cards").is_dir():
            return path
    return None


@dataclass(frozen=True)
class CatalogueEntry:
    """One thing the page can open: ``id`` (what the page sends), ``label``, ``group``
    (a heading in the menu) and ``make`` (builds a fresh session)."""

    id: str
    label: str
    group: str
    make: Callable[[], Session]

    def open(self) -> Session:
        """A fresh session of this entry (its ``opened`` is the entry's id)."""
        session = self.make()
        session.opened = self.id
        return session


def _challenge(variant: str, colours: tuple[str, ...], title: str) -> Callable[[], Session]:
    def make() -> Session:
        position = Position.empty(ALL_VARIANTS[variant])
        problem = Problem(position, colours, "place-all", True, name=title, title=title)
        return Session(problem, "solo", title)

    return make


BUILT_IN: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("classic-84", "classic", ("blue", "yellow", "red", "green"), "Classic: all 84 pieces"),
    ("duo-both", "duo", ("purple", "orange"), "Duo: both colours"),
    ("classic-blue", "classic", ("blue",), "Classic: one colour (blue)"),
    ("duo-purple", "duo", ("purple",), "Duo: one colour (purple)"),
    ("trigon-88", "trigon", ("blue", "yellow", "red", "green"), "Trigon: all 88 pieces"),
    ("trigon-blue", "trigon", ("blue",), "Trigon: one colour (blue)"),
)


def catalogue(
    files: tuple[str, ...] = (), puzzles: Path | None = None
) -> dict[str, CatalogueEntry]:
    """Everything the page can open, by id: the built-in challenges (each monomino last),
    the shipped puzzles (``puzzles/*.toml``) and cards (``puzzles/cards/*.toml``; from
    ``puzzles``, default :func:`shipped_puzzles`), and ``files`` (named on the command
    line: puzzles, game records, solutions).

    Raises:
        InputError: a file of ``files`` that cannot be read (checked here, at start).
    """
    out: dict[str, CatalogueEntry] = {}
    for key, variant, colours, title in BUILT_IN:
        out[key] = CatalogueEntry(key, title, "Solo challenge", _challenge(variant, colours, title))
    puzzles = puzzles or shipped_puzzles()
    if puzzles is not None and puzzles.is_dir():
        for path in sorted(puzzles.glob("*.toml")):
            out[f"puzzle:{path.stem}"] = _file_entry(path, f"puzzle:{path.stem}", "Puzzles")
        for path in sorted((puzzles / "cards").glob("*.toml")):
            out[f"card:{path.stem}"] = _file_entry(path, f"card:{path.stem}", "Cards")
    for k, name in enumerate(files):
        path = Path(name)
        entry = _file_entry(path, f"file:{k}", "Files given to serve")
        entry.open()  # bad input is refused at start, as every command does
        out[entry.id] = entry
    return out


def _file_entry(path: Path, key: str, group: str) -> CatalogueEntry:
    def make() -> Session:
        try:
            data = path.read_bytes()
        except OSError as e:
            raise InputError(f"cannot read: {e.strerror or e}", path=str(path)) from None
        return read_upload(path.name, data, label=str(path))

    return CatalogueEntry(key, path.stem, group, make)


def read_upload(name: str, data: bytes, label: str | None = None) -> Session:
    """A session from a file's bytes: a puzzle (``.toml``; cards, with a cover or connect
    goal or blocked squares, open in cards mode), a game record (``.blksgf``, ``.sgf``:
    the game viewer) or a solution (``.json``: its position, the solution drawn).

    Args:
        name: the file's name as the browser gave it (only its suffix is used, and it
            labels messages).
        data: the bytes.
        label: how messages name the file (default: ``name`` without folders).

    Raises:
        InputError: too large, an unknown kind, or whatever the reader refuses (one line,
            naming the file and the place). Every grid is read: a Trigon puzzle or game
            record is played on its triangles.
    """
    label = label or PurePath(name).name[:100] or "upload"
    with located(path=label):
        return _read(PurePath(name).suffix.lower(), data, label)


def _read(suffix: str, data: bytes, label: str) -> Session:
    if len(data) > MAX_UPLOAD:
        raise InputError(f"the file is larger than {MAX_UPLOAD // 1000} kB", path=label)
    if suffix == ".toml":
        problem = parse_puzzle(decode(data, label), label)
        card = bool(problem.cover or problem.connect or problem.position.board.blocked)
        return Session(problem, "cards" if card else "solo", label)
    if suffix in (".blksgf", ".sgf"):
        game = read_sgf_bytes(data, label)
        return Session(game_problem(game, 0), "game", label, game=game)
    if suffix == ".json":
        return _solution_session(data, label)
    raise InputError(
        "not a puzzle (.toml), a game record (.blksgf) or a solution (.json)", path=label
    )


def _solution_session(data: bytes, label: str) -> Session:
    """A solution file: its position and its layout drawn over it, once the rule checker
    has accepted it (a refused one is an error, as ``blokus-solo verify`` says)."""
    solution = read_solution_text(decode(data, label), label)
    report, false_claims = verify(solution)
    if not report.legal:
        raise InputError(f"the rule checker refuses the layout: {report.problem}", path=label)
    colours = tuple(c for c, ps in solution.layout.items() if ps)
    problem = Problem(
        solution.position,
        colours,
        "place-all",
        False,
        name=label,
        title=f"{label} (its solution drawn)",
        cover=solution.cover,
        connect=solution.connect,
    )
    session = Session(problem, "solo", label)
    session.shown = [
        [c, p.piece, sorted(p.squares)] for c, ps in solution.layout.items() for p in ps
    ]
    return session


def saved(session: Session, kind: str) -> tuple[bytes, str, str]:
    """The position as a file: (bytes, media type, file name). ``kind``: "sgf" (Pentobi,
    built-in boards only), "toml" (a puzzle file of the position as it stands), "svg" or
    "png" (the picture, with the shown layout if any, stars on the squares to cover).

    Raises:
        InputError: a position the format cannot hold (a custom board in SGF), an
            unknown kind.
    """
    problem = session.problem
    # a file name every system takes: "Classic: all 84 pieces" is saved as Classic-all-84-pieces
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", PurePath(session.source or "").stem).strip("-.")
    stem = stem or "position"
    if kind == "sgf":
        text = write_sgf(problem.position, name=session.start.title or None)
        return text.encode(), "application/x-blokus-sgf", f"{stem}.blksgf"
    if kind == "toml":
        title = f"{session.start.title or stem} ({len(session.moves)} moves played)"
        return puzzle_text(problem, title).encode(), "application/toml", f"{stem}.toml"
    if kind in ("svg", "png"):
        position, options = _picture(session)
        if kind == "svg":
            return board(position, **options).encode(), "image/svg+xml", f"{stem}.svg"
        # Pillow is loaded by the first PNG asked for, not by the server's start
        from solver.pictures.png import board as png_board

        return png_board(position, **options), "image/png", f"{stem}.png"
    raise InputError(f"cannot save as {kind!r} (sgf, toml, svg, png)")


def _picture(session: Session) -> tuple[Position, dict[str, Any]]:
    """The position to draw and its picture options (:func:`solver.pictures.picture.scene`)."""
    problem = session.problem
    position = problem.position
    options: dict[str, Any] = {"stars": problem.stars_left}
    if session.shown:
        layout: dict[str, list[Placement]] = {}
        for colour, piece, squares in session.shown:
            layout.setdefault(colour, []).append(Placement(piece, frozenset(squares)))
        final = with_layout(position, layout)
        options["new"] = [p for ps in layout.values() for p in ps]
        options["stars"] = problem.cover - final.occupied
        return final, options
    return position, options
