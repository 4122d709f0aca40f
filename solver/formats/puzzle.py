"""Puzzle files (TOML): a board, what is on it, who plays and what counts as solved.

Keys (all optional except where said; see docs/formats.md, "Puzzle files")::

    title = "..."               # shown when solving
    variant = "custom"          # classic | classic2 | classic3 | duo | junior |
                                # trigon | trigon2 | trigon3 | custom (default: classic)
    size = [5, 5]               # rows, columns (custom boards; default from the diagram)
    colours = ["blue"]          # colours the solver plays (default: all of the variant's)
    goal = "place-all"          # or "max-score"
    monomino-last = false       # place-all: each played colour must end with the monomino
    blocked = ["c3"]            # blocked squares (or '#' in the diagram)
    cover = ["c4"]              # place-all: squares the layout must cover (or '*')
    connect = true              # place-all: each played colour's groups end as one
                                # (or a list of colours)
    diagram = '''...'''         # rows top to bottom: . empty, # blocked, * to cover,
                                # B Y R G P O taken
    [start]                     # colour = square; default: the variant's start squares
    blue = "a5"
    [pieces]                    # colour = list of pieces still to place
    blue = ["1", "2", "V3"]     # default: the variant's set minus the pieces on the board

On Trigon (``trigon``, ``trigon2``, ``trigon3``: :mod:`solver.formats.trigon`) cells are
triangles named as Pentobi names them, pieces are the 22 Trigon pieces, there is no
``[start]`` (the six starting points are shared) and a diagram is Pentobi's naming
rectangle with a space off the hexagon (:meth:`Diagram.parse_trigon`); a colour's pieces
on the board must grow, by corner contact, from a starting point.

Every error names the file and the key or diagram line.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, TypeVar, overload

from solver.core.board import MAX_SIDE, Board
from solver.core.order import order_of_play
from solver.core.pieces import family
from solver.core.position import ColourState, Placement, Position, sorted_pieces
from solver.core.problem import (
    Problem,
    check_connect,
    check_connect_groups,
    check_goal,
    check_goal_kind,
    check_star,
)
from solver.core.variants import (
    COLOUR_LETTERS,
    CUSTOM,
    FULL_SET,
    Variant,
    check_piece_counts,
    colour_name,
    set_name,
)
from solver.errors import InputError, located
from solver.formats.diagram import Diagram
from solver.formats.diagram import render as render_diagram
from solver.formats.structured import parse_toml
from solver.formats.text import depth_limited, read_text
from solver.formats.trigon import (
    file_variant,
    is_trigon,
    no_start_square,
    starting_points,
    trigon_board,
)

T = TypeVar("T")

KEYS = {
    "title",
    "description",
    "source",
    "variant",
    "size",
    "colours",
    "goal",
    "monomino-last",
    "blocked",
    "cover",
    "connect",
    "diagram",
    "start",
    "pieces",
}


def load_puzzle(path: str | Path) -> Problem:
    """Read a puzzle file.

    Returns:
        The :class:`Problem` it describes; ``name`` is the path, ``title`` its title.

    Raises:
        InputError: unreadable file, bad TOML, unknown key/variant/colour/piece, a diagram
            with wrong row lengths or groups that are not pieces, a piece listed more often
            than the set has it, a start square off the board...
    """
    path = str(path)
    text = read_text(path)
    with located(path=path):
        return parse_puzzle(text, path)


def parse_puzzle(text: str, path: str = "<puzzle>") -> Problem:
    """Parse the text of a puzzle file (see :func:`load_puzzle`). A key given twice is
    invalid TOML (``tomllib`` refuses it, naming its line and column)."""
    data = parse_toml(text, path)
    with depth_limited(path):
        for key in data:
            if key not in KEYS:
                raise InputError(f"unknown key (keys: {', '.join(sorted(KEYS))})", where=key)
        return _Reader(data, text).problem(path)


class _Reader:
    """Turns the TOML table into a Problem, one key at a time."""

    def __init__(self, data: dict[str, Any], text: str):
        self.data = data
        self.text = text
        self.diagram: Diagram | None = None
        with located(where="variant"):
            self.variant: Variant | None = file_variant(self._get("variant", str, "classic"))

    @overload
    def _get(self, key: str, kind: type[T], default: T) -> T: ...
    @overload
    def _get(self, key: str, kind: type[T], default: None = None) -> T | None: ...
    def _get(self, key: str, kind: type[T], default: T | None = None) -> T | None:
        """The value of a top-level key, checked to be a ``kind``; ``default`` if absent."""
        value = self.data.get(key, default)
        if value is None or isinstance(value, kind):
            return value
        name = "table" if kind is dict else kind.__name__
        raise InputError(f"expected {name}, got {value!r}"[:120], where=key)

    def problem(self, path: str) -> Problem:
        board, diagram = self._board()
        on_board = diagram.pieces(board) if diagram else {}
        if self.variant and diagram:
            self._check_diagram_colours(self.variant, diagram, board, on_board)
        starts = self._starts(board)
        names = self._colour_names(starts, on_board)
        played = self._played(names)
        colours = tuple(self._colour(board, c, starts.get(c), on_board.get(c, [])) for c in names)
        position = Position(
            board,
            colours,
            bonus=self.variant.bonus if self.variant else True,
            variant=self.variant.name if self.variant else CUSTOM,
            starting_points=starting_points(board),
        )
        with located(where="goal"):
            goal = check_goal(self._get("goal", str, "place-all"))
        mono = self._get("monomino-last", bool, False)
        cover = self._cover(position, played, goal)
        connect = self._connect(position, played, goal)
        return Problem(
            position,
            played,
            goal,
            mono,
            name=path,
            title=self._get("title", str, ""),
            cover=cover,
            connect=connect,
        )

    def _cover(self, position: Position, played: tuple[str, ...], goal: str) -> frozenset[int]:
        """The squares to cover: ``cover`` names and the diagram's ``*``, each checked
        (:func:`solver.core.problem.check_star`) and given once."""
        board = position.board
        listed: list[object] = self._get("cover", list, [])
        stars: list[tuple[int, str]] = []
        for k, name in enumerate(listed):
            if not isinstance(name, str):
                raise InputError(f"expected a square name, got {name!r}", where=f"cover[{k}]")
            stars.append((_square(board, name, f"cover[{k}]"), f"cover[{k}]"))
        if self.diagram:
            stars += self.diagram.stars(board)
        seen: dict[int, str] = {}
        for square, where in stars:
            with located(where=where):
                check_goal_kind(goal, "cover", True)
                if square in seen:
                    raise InputError(
                        f"star {board.name(square)} is given twice (also at {seen[square]})"
                    )
                check_star(position, played, square)
            seen[square] = where
        return frozenset(seen)

    def _connect(self, position: Position, played: tuple[str, ...], goal: str) -> tuple[str, ...]:
        """The colours to connect: ``connect = true`` (every played colour) or a list of
        colours, each played with two or more groups on the board."""
        value = self.data.get("connect", False)
        if isinstance(value, bool):
            colours = [(c, "connect") for c in played] if value else []
        elif isinstance(value, list):
            colours = [
                (_colour(item, f"connect[{k}]"), f"connect[{k}]") for k, item in enumerate(value)
            ]
        else:
            raise InputError(
                f"expected true, false or a list of colours, got {value!r}"[:120], where="connect"
            )
        out: list[str] = []
        for colour, where in colours:
            with located(where=where):
                check_goal_kind(goal, "connect", True)
                if colour in out:
                    raise InputError(f"{colour} is given twice")
                if colour not in position.colour_names:
                    raise InputError(f"no colour {colour} on this board")
                check_connect(position, played, colour)
                check_connect_groups(position, colour)
            out.append(colour)
        return tuple(out)

    @staticmethod
    def _check_diagram_colours(
        variant: Variant, diagram: Diagram, board: Board, on_board: dict[str, list[Placement]]
    ) -> None:
        for colour, placements in on_board.items():
            r, c = board.row_col(min(placements[0].squares))
            with located(where=diagram.where(r, c)):
                variant.check_colour(colour)

    def _table(self, key: str) -> dict[str, tuple[str, object]]:
        """A [start] or [pieces] table keyed by colour name: colour -> (key as written, value).
        Raises InputError for an unknown colour, a colour the variant lacks, or a colour
        named twice (e.g. blue and B)."""
        out: dict[str, tuple[str, object]] = {}
        for raw, value in self._get(key, dict, {}).items():
            where = f"[{key}].{raw}"
            colour = _colour(raw, where)
            if self.variant:
                with located(where=where):
                    self.variant.check_colour(colour)
            if colour in out:
                raise InputError(
                    f"{colour} is given twice (also as {out[colour][0]!r})", where=where
                )
            out[colour] = (raw, value)
        return out

    def _board(self) -> tuple[Board, Diagram | None]:
        size = self.data.get("size")
        rows: int | None = None
        cols: int | None = None
        if size is not None:
            if not (
                isinstance(size, list) and len(size) == 2 and all(type(n) is int for n in size)
            ):
                raise InputError(f"expected [rows, columns], got {size!r}", where="size")
            rows, cols = size
            if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
                raise InputError(f"board size {rows}x{cols} is outside 1..{MAX_SIDE}", where="size")
        if self.variant:
            if rows is not None and cols is not None:
                with located(where="size"):
                    self.variant.check_size(rows, cols)
            rows, cols = self.variant.rows, self.variant.cols
        text = self._get("diagram", str)
        if self.variant and is_trigon(self.variant):
            return self._trigon_board(self.variant, text)
        diagram = Diagram.parse(text, self._line_of("diagram")) if text is not None else None
        self.diagram = diagram
        if diagram:
            board = diagram.board(rows, cols)
        elif rows is None or cols is None:
            raise InputError("a custom board needs 'size' or 'diagram'", where="size")
        else:
            board = Board(rows, cols)
        return self._with_blocked(board), diagram

    def _trigon_board(self, variant: Variant, text: str | None) -> tuple[Board, Diagram | None]:
        """A Trigon variant's hexagon, with the diagram's blocked triangles (a diagram is the
        naming rectangle: :meth:`Diagram.parse_trigon`) and ``blocked``."""
        board = trigon_board(variant)
        if text is not None:
            self.diagram = Diagram.parse_trigon(text, self._line_of("diagram"))
            board = self.diagram.trigon_board(board)
        return self._with_blocked(board), self.diagram

    def _diagram_where(self, row: int, col: int) -> str:
        return self.diagram.where(row, col) if self.diagram else "diagram"

    def _line_of(self, key: str) -> int | None:
        """Line number of the first diagram row: TOML drops a newline right after '''."""
        for n, line in enumerate(self.text.split("\n"), start=1):
            stripped = line.lstrip()
            if stripped.startswith(key) and stripped[len(key) :].lstrip().startswith("="):
                after = stripped.split("=", 1)[1].strip()
                opener = after[:3]
                return n + 1 if opener in ('"""', "'''") and after == opener else n
        return None

    def _with_blocked(self, board: Board) -> Board:
        listed: list[object] = self._get("blocked", list, [])
        blocked = set(board.blocked)
        for k, name in enumerate(listed):
            if not isinstance(name, str):
                raise InputError(f"expected a square name, got {name!r}", where=f"blocked[{k}]")
            blocked.add(_square(board, name, f"blocked[{k}]"))
        return Board(board.rows, board.cols, frozenset(blocked), board.grid)

    def _starts(self, board: Board) -> dict[str, int]:
        starts: dict[str, int] = {}
        if self.variant:
            starts = {c: board.parse(s) for c, s in zip(self.variant.colours, self.variant.starts)}
        for colour, (key, value) in self._table("start").items():
            where = f"[start].{key}"
            if self.variant and is_trigon(self.variant):
                raise no_start_square(self.variant, where)
            if not isinstance(value, str):
                raise InputError(f"expected a square name, got {value!r}", where=where)
            starts[colour] = _square(board, value, where)
            if starts[colour] in board.blocked:
                raise InputError(f"start square {value} is blocked", where=where)
        return starts

    def _colour_names(
        self, starts: dict[str, int], on_board: dict[str, list[Placement]]
    ) -> tuple[str, ...]:
        if self.variant:
            return self.variant.colours
        named = set(starts) | set(on_board) | set(self._table("pieces"))
        named |= {
            _colour(c, "colours") for c in self._get("colours", list, []) if isinstance(c, str)
        }
        if not named:
            raise InputError(
                'a custom board needs a start square: add [start] blue = "a1"', where="start"
            )
        return tuple(c for c in COLOUR_LETTERS if c in named)

    def _played(self, names: tuple[str, ...]) -> tuple[str, ...]:
        listed: list[object] | None = self._get("colours", list)
        if listed is None:
            given = set(self._table("start")) | set(self._table("pieces"))
            return names if self.variant else tuple(c for c in names if c in given)
        if not listed:
            raise InputError("no colour to play: list at least one", where="colours")
        played = []
        for k, item in enumerate(listed):
            colour = _colour(item, f"colours[{k}]") if isinstance(item, str) else None
            if colour is None or colour not in names:
                raise InputError(f"no colour {item!r} on this board", where=f"colours[{k}]")
            played.append(colour)
        if len(set(played)) != len(played):
            raise InputError("a colour is listed twice", where="colours")
        return tuple(c for c in names if c in played)

    def _colour(
        self, board: Board, colour: str, start: int | None, placed: list[Placement]
    ) -> ColourState:
        pieces = self.variant.pieces if self.variant else FULL_SET
        name = set_name(self.variant)
        # without a start square the pieces on the board are printed on the card (they
        # are the start), not taken from the set: only their shapes are checked; on
        # Trigon no colour has a start square: its pieces grow from a starting point
        card = start is None and board.square_grid
        for k, p in enumerate(placed):  # the first piece too many, by its place
            with located(where=self._diagram_where(*board.row_col(min(p.squares)))):
                if card:
                    check_piece_counts(pieces, {}, name, printed=[p.piece])
                else:
                    on_board = [q.piece for q in placed[: k + 1]]
                    check_piece_counts(pieces, {"on the board": on_board}, name)
        if (start is not None or not card) and placed:
            placed = self._ordered(board, colour, start, placed)
        used = [p.piece for p in placed]
        listed = self._pieces_of(colour, board.grid)
        if listed is None:
            remaining = sorted_pieces((Counter(pieces) - Counter(used)).elements(), board.grid)
        else:
            sources = {"listed": listed} if card else {"on the board": used, "listed": listed}
            with located(where=f"[pieces].{self._table('pieces')[colour][0]}"):
                check_piece_counts(pieces, sources, name)
            remaining = sorted_pieces(listed, board.grid)
        return ColourState(colour, start, tuple(placed), remaining, board.grid)

    def _pieces_of(self, colour: str, grid: str) -> list[str] | None:
        """The pieces ``[pieces]`` lists for a colour (names of the grid's family), or
        None."""
        if colour in self._table("pieces"):
            key, value = self._table("pieces")[colour]
            where = f"[pieces].{key}"
            if not isinstance(value, list):
                raise InputError(f"expected a list of piece names, got {value!r}", where=where)
            with located(where=where):
                return [family(grid).canonical(str(v)) for v in value]
        return None

    @staticmethod
    def _ordered(
        board: Board, colour: str, start: int | None, placed: list[Placement]
    ) -> list[Placement]:
        """The colour's pieces on the board in a legal order of play from its start square
        (on Trigon, from one of the shared starting points)."""
        pieces = tuple(p.piece for p in placed)
        state = ColourState(colour, start, (), pieces, board.grid)
        empty = Position(board, (state,), starting_points=starting_points(board))
        order = order_of_play(empty, colour, placed, monomino_last=True)
        if order is None:
            origin = (
                f"its start square {board.name(start)}"
                if start is not None
                else "a starting point (" + " ".join(board.names(empty.starting_points)) + ")"
            )
            raise InputError(
                f"{colour}'s pieces on the board are not all connected by corner "
                f"contact to {origin}",
                where="diagram",
            )
        return order


def _colour(text: object, where: str) -> str:
    with located(where=where):
        return colour_name(str(text))


def _square(board: Board, name: str, where: str) -> int:
    with located(where=where):
        return board.parse(name)


def puzzle_text(problem: Problem, title: str = "", description: str = "") -> str:
    """A problem as the text of a puzzle file that :func:`parse_puzzle` reads back to the
    same problem (board, pieces on it, start squares, pieces left, played colours, goal,
    monomino-last, squares to cover as ``*`` in the diagram, colours to connect).

    Built-in variants are written with their variant name; the pieces on a colour's board
    must be in a legal order of play from its start square, as the reader requires.
    """
    position = problem.position
    board = position.board
    lines = []
    if title:
        lines.append(f"title = {_toml_string(title)}")
    if description:
        lines.append(f"description = {_toml_string(description)}")
    lines.append(f"variant = {_toml_string(position.variant)}")
    if position.variant == CUSTOM:
        lines.append(f"size = [{board.rows}, {board.cols}]")
    lines.append("colours = [" + ", ".join(_toml_string(c) for c in problem.colours) + "]")
    if problem.goal != "place-all":
        lines.append(f"goal = {_toml_string(problem.goal)}")
    if problem.monomino_last:
        lines.append("monomino-last = true")
    if problem.connect:
        lines.append("connect = [" + ", ".join(_toml_string(c) for c in problem.connect) + "]")
    lines.append('diagram = """')
    lines += render_diagram(position, problem.cover)
    lines.append('"""')
    starts = [(c.name, c.start) for c in position.colours if c.start is not None]
    if starts:
        lines += ["", "[start]"]
        lines += [f"{name} = {_toml_string(board.name(sq))}" for name, sq in starts]
    lines += ["", "[pieces]"]
    for c in position.colours:
        lines.append(f"{c.name} = [" + ", ".join(_toml_string(p) for p in c.remaining) + "]")
    return "\n".join(lines) + "\n"


def _toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, and ASCII output is safe)."""
    return json.dumps(text, ensure_ascii=True)
