"""Puzzle files (TOML): a board, what is on it, who plays and what counts as solved.

Keys (all optional except where said; see README "Puzzle files")::

    title = "..."               # shown when solving
    variant = "custom"          # classic | duo | junior | custom (default: classic)
    size = [5, 5]               # rows, columns (custom boards; default from the diagram)
    colours = ["blue"]          # colours the solver plays (default: all of the variant's)
    goal = "place-all"          # or "max-score"
    monomino-last = false       # place-all: each played colour must end with the monomino
    blocked = ["c3"]            # blocked squares (or '#' in the diagram)
    diagram = '''...'''         # rows top to bottom: . empty, # blocked, B Y R G P O taken
    [start]                     # colour = square; default: the variant's start squares
    blue = "a5"
    [pieces]                    # colour = list of pieces still to place
    blue = ["1", "2", "V3"]     # default: the variant's set minus the pieces on the board

Every error names the file and the key or diagram line.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

from solver.board import MAX_SIDE, Board
from solver.errors import InputError
from solver.formats.diagram import Diagram
from solver.order import order_of_play
from solver.pieces import MONOMINO, canonical_name
from solver.position import ColourState, Placement, Position, sorted_pieces
from solver.problem import GOALS, Problem
from solver.variants import COLOUR_LETTERS, FULL_SET, VARIANTS, colour_name

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
    "diagram",
    "start",
    "pieces",
}
PUZZLE_VARIANTS = ("classic", "duo", "junior", "custom")


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
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise InputError(f"cannot read puzzle: {why}", path=path) from None
    try:
        return parse_puzzle(text, path)
    except InputError as e:
        raise e.located(path=path) from None


def parse_puzzle(text: str, path: str = "<puzzle>") -> Problem:
    """Parse the text of a puzzle file (see :func:`load_puzzle`)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"invalid TOML: {e}", path=path) from None
    for key in data:
        if key not in KEYS:
            raise InputError(f"unknown key (keys: {', '.join(sorted(KEYS))})", where=key)
    return _Reader(data, text).problem(path)


class _Reader:
    """Turns the TOML table into a Problem, one key at a time."""

    def __init__(self, data: dict, text: str):
        self.data = data
        self.text = text
        name = self._get("variant", str, "classic").strip().lower()
        if name not in PUZZLE_VARIANTS:
            raise InputError(
                f"unknown variant {name!r} (variants: {', '.join(PUZZLE_VARIANTS)})",
                where="variant",
            )
        self.variant = VARIANTS.get(name)

    def _get(self, key, kind, default=None):
        value = self.data.get(key, default)
        if value is not None and not isinstance(value, kind):
            raise InputError(
                f"expected {kind.__name__ if isinstance(kind, type) else 'a table'}, got {value!r}",
                where=key,
            )
        return value

    def problem(self, path: str) -> Problem:
        board, diagram = self._board()
        on_board = diagram.pieces(board) if diagram else {}
        if self.variant and diagram:
            self._check_diagram_colours(diagram, board, on_board)
        starts = self._starts(board)
        names = self._colour_names(starts, on_board)
        played = self._played(names)
        colours = tuple(self._colour(board, c, starts.get(c), on_board.get(c, [])) for c in names)
        position = Position(
            board,
            colours,
            bonus=self.variant.bonus if self.variant else True,
            variant=self.variant.name if self.variant else "custom",
        )
        goal = self._get("goal", str, "place-all")
        if goal not in GOALS:
            raise InputError(f"unknown goal {goal!r} (goals: {', '.join(GOALS)})", where="goal")
        mono = self._get("monomino-last", bool, False)
        if mono:
            self._check_monomino_last(goal, played, colours)
        try:
            return Problem(
                position, played, goal, mono, name=path, title=self._get("title", str, "")
            )
        except InputError as e:
            raise e.located(where="colours") from None

    @staticmethod
    def _check_monomino_last(goal: str, played, colours) -> None:
        if goal != "place-all":
            raise InputError(
                "applies to goal place-all only (max-score counts the +5 bonus "
                "whenever the monomino can be last)",
                where="monomino-last",
            )
        for state in colours:
            if state.name in played and state.remaining and MONOMINO not in state.remaining:
                raise InputError(
                    f"{state.name} has no monomino left to place last", where="monomino-last"
                )

    def _check_diagram_colours(self, diagram: Diagram, board: Board, on_board: dict) -> None:
        for colour, placements in on_board.items():
            if colour not in self.variant.colours:
                r, c = board.row_col(min(placements[0].squares))
                raise InputError(
                    f"{self.variant.name} has no colour {colour} "
                    f"(colours: {', '.join(self.variant.colours)})",
                    where=diagram.where(r, c),
                )

    def _table(self, key: str) -> dict[str, tuple[str, object]]:
        """A [start] or [pieces] table keyed by colour name: colour -> (key as written, value).
        Raises InputError for an unknown colour, a colour the variant lacks, or a colour
        named twice (e.g. blue and B)."""
        out: dict[str, tuple[str, object]] = {}
        for raw, value in self._get(key, dict, {}).items():
            where = f"[{key}].{raw}"
            colour = _colour(raw, where)
            if self.variant and colour not in self.variant.colours:
                raise InputError(f"{self.variant.name} has no colour {colour}", where=where)
            if colour in out:
                raise InputError(
                    f"{colour} is given twice (also as {out[colour][0]!r})", where=where
                )
            out[colour] = (raw, value)
        return out

    def _board(self) -> tuple[Board, Diagram | None]:
        size = self.data.get("size")
        rows = cols = None
        if size is not None:
            if not (
                isinstance(size, list) and len(size) == 2 and all(type(n) is int for n in size)
            ):
                raise InputError(f"expected [rows, columns], got {size!r}", where="size")
            rows, cols = size
            if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
                raise InputError(f"board size {rows}x{cols} is outside 1..{MAX_SIDE}", where="size")
        if self.variant:
            if size is not None and (rows, cols) != (self.variant.rows, self.variant.cols):
                raise InputError(
                    f"{self.variant.name} is {self.variant.rows}x{self.variant.cols}", where="size"
                )
            rows, cols = self.variant.rows, self.variant.cols
        text = self._get("diagram", str)
        diagram = Diagram.parse(text, self._line_of("diagram")) if text is not None else None
        self.diagram = diagram
        if diagram:
            board = diagram.board(rows, cols)
        elif rows is None:
            raise InputError("a custom board needs 'size' or 'diagram'", where="size")
        else:
            board = Board(rows, cols)
        return self._with_blocked(board), diagram

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
        listed = self._get("blocked", list, [])
        blocked = set(board.blocked)
        for k, name in enumerate(listed):
            if not isinstance(name, str):
                raise InputError(f"expected a square name, got {name!r}", where=f"blocked[{k}]")
            blocked.add(_square(board, name, f"blocked[{k}]"))
        return Board(board.rows, board.cols, frozenset(blocked))

    def _starts(self, board: Board) -> dict[str, int]:
        starts = {}
        if self.variant:
            starts = {c: board.parse(s) for c, s in zip(self.variant.colours, self.variant.starts)}
        for colour, (key, value) in self._table("start").items():
            where = f"[start].{key}"
            if not isinstance(value, str):
                raise InputError(f"expected a square name, got {value!r}", where=where)
            starts[colour] = _square(board, value, where)
            if starts[colour] in board.blocked:
                raise InputError(f"start square {value} is blocked", where=where)
        return starts

    def _colour_names(self, starts: dict[str, int], on_board: dict) -> tuple[str, ...]:
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
        listed = self._get("colours", list)
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
        set_name = self.variant.name if self.variant else "the set"
        used = Counter()
        for p in placed:
            used[p.piece] += 1
            if used[p.piece] > pieces[p.piece]:
                r, c = board.row_col(min(p.squares))
                raise InputError(
                    f"{colour} has piece {p.piece} on the board {_times(used[p.piece])}; "
                    f"{set_name} has it {_times(pieces[p.piece])}",
                    where=self._diagram_where(r, c),
                )
        if start is not None and placed:
            placed = self._ordered(board, colour, start, placed)
        listed = self._pieces_of(colour)
        if listed is None:
            remaining = sorted_pieces((Counter(pieces) - used).elements())
        else:
            remaining = sorted_pieces(listed)
            where = f"[pieces].{self._table('pieces')[colour][0]}"
            for name, n in Counter(listed).items():
                if not pieces[name]:
                    raise InputError(f"{set_name} has no piece {name}", where=where)
                if n + used[name] > pieces[name]:
                    why = (
                        f"is already on the board {_times(used[name])}"
                        if used[name]
                        else f"is listed {_times(n)}"
                    )
                    raise InputError(
                        f"piece {name} {why}; {set_name} has it {_times(pieces[name])}", where=where
                    )
        return ColourState(colour, start, tuple(placed), remaining)

    def _pieces_of(self, colour: str) -> list[str] | None:
        if colour in self._table("pieces"):
            key, value = self._table("pieces")[colour]
            where = f"[pieces].{key}"
            if not isinstance(value, list):
                raise InputError(f"expected a list of piece names, got {value!r}", where=where)
            try:
                return [canonical_name(str(v)) for v in value]
            except InputError as e:
                raise e.located(where=where) from None
        return None

    @staticmethod
    def _ordered(board: Board, colour: str, start: int, placed: list[Placement]) -> list[Placement]:
        """The colour's pieces on the board in a legal order of play from its start square."""
        empty = Position(board, (ColourState(colour, start, (), tuple(p.piece for p in placed)),))
        order = order_of_play(empty, colour, placed, monomino_last=True)
        if order is None:
            raise InputError(
                f"{colour}'s pieces on the board are not all connected by corner "
                f"contact to its start square {board.name(start)}",
                where="diagram",
            )
        return order


def _times(n: int) -> str:
    return {0: "no times", 1: "once", 2: "twice"}.get(n, f"{n} times")


def _colour(text, where: str) -> str:
    try:
        return colour_name(str(text))
    except InputError as e:
        raise e.located(where=where) from None


def _square(board: Board, name: str, where: str) -> int:
    try:
        return board.parse(name)
    except InputError as e:
        raise e.located(where=where) from None
