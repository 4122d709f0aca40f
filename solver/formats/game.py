"""Blokus game records in Pentobi SGF (``.blksgf``): reading, replaying, writing.

Meaning of the properties (Pentobi ``libpentobi_base/Pentobi-SGF.md``, ``NodeUtil.cpp``,
``BoardUpdater.cpp``):

- ``GM`` (root): the variant, one of the ``sgf_name`` of
  :data:`solver.core.variants.ALL_VARIANTS` (``Blokus``, ``Blokus Two-Player``, ``Blokus
  Three-Player``, ``Blokus Duo``, ``Blokus Junior``, ``Blokus Trigon``, ``Blokus Trigon
  Two-Player``, ``Blokus Trigon Three-Player``). Any other value is an unsupported
  variant. On Trigon a move lists triangles in Pentobi's Trigon coordinates
  (:mod:`solver.core.geometry.trigon`).
- Moves: in two-colour variants ``B`` / ``W`` (also ``1`` / ``2``, which Pentobi reads too);
  in the four-colour variants ``1``..``4`` (blue, yellow, red, green). ``B``/``W`` there are
  players, not colours, so a ``B``/``W`` move in a four-colour game is an error. Pentobi's
  pre-0.2 ``BLUE``/``YELLOW``/``RED``/``GREEN`` move properties are read as well. A value
  lists the piece's squares, comma-separated, in any order; several values are joined
  (Pentobi's deprecated old form); an empty value is a pass. At most one move per node.
- Setup, in any node: ``A1``..``A4`` (and ``AB``/``AW`` = colours 1 and 2) add pieces, one
  value per piece; then ``AE`` removes every piece that covers one of a value's squares
  (Pentobi removes only a piece whose squares equal the value; a value that removes
  nothing is an error here).
  Setup pieces must be on free squares and be pieces the colour still has, but need not
  follow the placement rules (they may come from a diagram). ``PL`` sets the colour to move.
  Within a node: setup first, then ``PL``, then the move (as in Pentobi's BoardUpdater).
- The game follows the main line (the first variation everywhere).

Every move is checked with :func:`solver.core.rules.move_problem` as it is read; the piece is
identified from its squares with :func:`solver.core.rules.shape_name`.

Our conventions (documented choices):

- A *placement* is a move that puts a piece down; passes and setup are not placements.
  ``Game.position(n)`` is the position after ``n`` placements, including every setup node
  and pass before the next placement; ``n = 0`` is the start (or setup) position. Pentobi's
  ``loadsgf FILE N`` is our ``position(N - 1)`` for files without passes or setup.
- Who is to move: the first colour of the variant at the start; ``PL`` sets it (in any
  node; Pentobi heeds it only in nodes with setup); after a
  move (a placement or a pass) by colour c it is the colour after c in turn order. Nothing
  is skipped, even a colour that has no legal move (as in Pentobi's ``Board::play``).
- Each colour's placed pieces are kept in order of play; setup pieces count as placed in
  the order they appear in the file (Pentobi itself gives no +5 for a colour that finished
  in a setup node; we judge the bonus from the last piece as listed).
- "move k" in messages counts the main line's move nodes, passes included, from 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path

from solver.core.board import Board
from solver.core.order import interleave
from solver.core.pieces import family
from solver.core.placements import legal_moves
from solver.core.position import Placement, Position, sorted_pieces
from solver.core.rules import move_problem, shape_name
from solver.core.variants import ALL_VARIANTS, Variant, colour_id, read_colour
from solver.errors import InputError, PieceError, RuleError, SquareError, located
from solver.formats.sgf import Location, Node, Property, format_property, parse
from solver.formats.text import decode, read_text
from solver.ranges import PLACEMENTS, Range, number_text

#: ``Game.position(after)``: a whole number (its range is the game's own)
_AFTER = Range(PLACEMENTS.name, whole=True)

APPLICATION = "blokus-solo"

#: Variants by Pentobi's ``GM`` value.
VARIANTS_BY_SGF: dict[str, Variant] = {v.sgf_name: v for v in ALL_VARIANTS.values()}

_OLD_COLOUR_IDS = ("BLUE", "YELLOW", "RED", "GREEN")
_SETUP_ORDER = ("A1", "A2", "A3", "A4", "AB", "AW")  # Pentobi's BoardUpdater order


# ---------------------------------------------------------------------------------------
# Colours and SGF identifiers


def move_ids(v: Variant) -> dict[str, str]:
    """Move property identifier -> colour name for a variant.

    Two colours: ``B``, ``W``, ``1``, ``2``, ``BLUE``, ``GREEN``; four colours: ``1``..``4``
    and ``BLUE``, ``YELLOW``, ``RED``, ``GREEN`` (Pentobi ``NodeUtil.cpp::get_move``).
    """
    if len(v.colours) == 2:
        first, second = v.colours
        return {"B": first, "W": second, "1": first, "2": second, "BLUE": first, "GREEN": second}
    ids = {str(k + 1): c for k, c in enumerate(v.colours)}
    ids.update(zip(_OLD_COLOUR_IDS, v.colours))
    return ids


def setup_id(v: Variant, colour: str) -> str:
    """The setup identifier Pentobi writes for a colour: ``AB``/``AW`` or ``A1``..``A4``."""
    return "A" + colour_id(v, colour)


def _setup_ids(v: Variant) -> dict[str, str]:
    ids = {f"A{k + 1}": c for k, c in enumerate(v.colours)}
    ids.update({"AB": v.colours[0], "AW": v.colours[1]})
    return ids


def squares_text(board: Board, squares: Iterable[int]) -> str:
    """Squares as an SGF move value: names comma-separated in Pentobi's order a1, b1, ..., a2."""
    return ",".join(board.names(squares))


def _player_ids(v: Variant) -> dict[str, str]:
    """``PL`` value -> colour (Pentobi ``NodeUtil.cpp::get_player``: ``B`` and ``W`` are
    the first two colours in every variant)."""
    ids = {str(k + 1): c for k, c in enumerate(v.colours)}
    ids.update({"B": v.colours[0], "W": v.colours[1]})
    return ids


# ---------------------------------------------------------------------------------------
# Game records


@dataclass(frozen=True)
class GameMove:
    """One move node of the main line.

    Attributes:
        number: 1-based count of move nodes (passes included).
        colour: the colour that moves.
        placement: the piece put down, or None for a pass.
        location: where the move property is in the file.
    """

    number: int
    colour: str
    placement: Placement | None
    location: Location

    @property
    def is_pass(self) -> bool:
        """Whether this move is a pass (an empty value)."""
        return self.placement is None


@dataclass(frozen=True, eq=False)
class Game:
    """A game record read from a ``.blksgf`` file, replayed into positions.

    Attributes:
        variant: the built-in variant (from ``GM``).
        moves: the main line's moves (placements and passes) in order.
        info: the root node's other properties as text (``GN``, ``PB``, ``C``, ...),
            first value of each.
        path: the file it was read from, if any.
        has_setup: whether any node on the main line has setup properties.
    """

    variant: Variant
    moves: tuple[GameMove, ...]
    info: Mapping[str, str]
    path: str | None
    has_setup: bool
    _positions: tuple[Position, ...] = field(repr=False)

    @property
    def num_placements(self) -> int:
        """Number of placements (moves that put a piece down) on the main line."""
        return len(self._positions) - 1

    def position(self, after: int | None = None) -> Position:
        """The position after ``after`` placements (default: the end of the game).

        ``position(0)`` is the start, or the setup position; ``to_move`` is set as described
        in the module docstring.

        Raises:
            InputError: ``after`` is negative or past the end (``where="--after N"``; a
                number of 5000 digits is named by its size), or not a whole number (1.5,
                True: ``where="after"``).
        """
        if after is None:
            return self._positions[-1]
        after = int(_AFTER.check(after))
        if not 0 <= after <= self.num_placements:
            number = number_text(after)
            raise InputError(
                f"the game has {self.num_placements} placements; there is no position "
                f"after {number}",
                path=self.path,
                where=f"--after {number}",
            )
        return self._positions[after]

    @property
    def final(self) -> Position:
        """The position at the end of the main line."""
        return self._positions[-1]

    @cached_property
    def setup_after(self) -> tuple[int, ...]:
        """The placements ``k`` (counts, 1 to :attr:`num_placements`) after which setup in
        mid-game changed the board: ``position(k)`` is not ``position(k - 1)`` with the
        k-th placement added (setup that puts pieces down or takes them away, ``AE``).
        Setup before the first placement is part of ``position(0)`` and is not listed.

        Only such setup can give a colour back a chance it had lost: a placement only takes
        squares and pieces away, so without it a proven "no" stays "no" to the end.
        """
        placements = [m for m in self.moves if m.placement is not None]
        out = []
        for k, move in enumerate(placements, start=1):
            assert move.placement is not None
            played = self._positions[k - 1].with_placement(move.colour, move.placement)
            if played.colours != self._positions[k].colours:
                out.append(k)
        return tuple(out)


def load_game(path: str | Path) -> Game:
    """Read a ``.blksgf`` file (UTF-8, see :func:`solver.formats.text.read_text`) into a
    :class:`Game`.

    Raises:
        InputError: the file cannot be read, is not UTF-8, is not well-formed SGF, holds
            more than one game tree, names an unsupported variant, or has a bad or illegal
            move or setup (with ``path`` and ``where``).
    """
    name = str(path)
    return read_sgf_text(read_text(name), path=name)


def read_sgf_bytes(data: bytes, path: str | None = None) -> Game:
    """:func:`read_sgf_text` for undecoded bytes (UTF-8). Raises InputError."""
    return read_sgf_text(decode(data, path), path=path)


def read_sgf_text(text: str, path: str | None = None) -> Game:
    """Read the game tree of an SGF text and replay its main line.

    A file holds one game: a collection of several game trees is refused, as Pentobi
    refuses it, naming the second tree's place (rather than reading only the first).

    Args:
        text: the file's text.
        path: the file name, used in error messages.

    Raises:
        InputError (or SquareError, PieceError, RuleError): see :func:`load_game`.
    """
    trees = parse(text, path)
    if len(trees) > 1:
        raise InputError(
            f"a second game tree (the file holds {len(trees)}; a game record holds one game)",
            path=path,
            where=str(trees[1].location),
        )
    return _Replay(trees[0].main_line(), path).run()


@cache
def start_position(variant_name: str) -> Position:
    """The empty start position of a built-in variant (one shared Board per variant)."""
    return Position.empty(ALL_VARIANTS[variant_name])


class _Replay:
    """Replays the main line of a game tree, checking every move and setup."""

    def __init__(self, nodes: list[Node], path: str | None):
        self.nodes = nodes
        self.path = path
        self.variant = self._variant(nodes[0])
        self.position = start_position(self.variant.name)
        self.board = self.position.board
        self.to_move = self.variant.colours[0]
        self.move_ids = move_ids(self.variant)
        self.setup_ids = _setup_ids(self.variant)
        self.player_ids = _player_ids(self.variant)

    def error(
        self,
        message: str,
        location: Location,
        where: str | None = None,
        kind: type[InputError] = InputError,
    ) -> InputError:
        return kind(message, path=self.path, where=where or str(location))

    def _variant(self, root: Node) -> Variant:
        gm = root.get("GM")
        if gm is None:
            raise InputError(
                "the root node has no GM property (the game variant)",
                path=self.path,
                where=str(root.location),
            )
        name = gm.value.strip()
        if name not in VARIANTS_BY_SGF:
            supported = ", ".join(VARIANTS_BY_SGF)
            raise InputError(
                f"unsupported variant GM[{gm.value}] (supported: {supported})",
                path=self.path,
                where=str(gm.value_locations[0]),
            )
        return VARIANTS_BY_SGF[name]

    def run(self) -> Game:
        positions: list[Position] = []
        moves: list[GameMove] = []
        has_setup = False
        for node in self.nodes:
            has_setup |= self._setup(node)
            self._player(node)
            move = self._move_property(node)
            if move is None:
                continue
            colour = self.move_ids[move.ident]
            number = len(moves) + 1
            placement = self._placement(move, colour, number)
            if placement is not None:
                positions.append(self._current())
                self.position = self.position.with_placement(colour, placement)
            moves.append(GameMove(number, colour, placement, move.location))
            colours = self.variant.colours
            self.to_move = colours[(colours.index(colour) + 1) % len(colours)]
        positions.append(self._current())
        root = self.nodes[0]
        info = {
            p.ident: p.value
            for p in root.properties
            if p.ident not in self.move_ids
            and p.ident not in self.setup_ids
            and p.ident not in ("AE", "PL")
        }
        return Game(self.variant, tuple(moves), info, self.path, has_setup, tuple(positions))

    def _current(self) -> Position:
        if self.position.to_move == self.to_move:
            return self.position
        return replace(self.position, to_move=self.to_move)

    # -- moves ---------------------------------------------------------------------------

    def _move_property(self, node: Node) -> Property | None:
        found = [p for p in node.properties if p.ident in self.move_ids]
        wrong = [
            p
            for p in node.properties
            if p.ident in ("B", "W", "1", "2", "3", "4") and p.ident not in self.move_ids
        ]
        if wrong:
            p = wrong[0]
            ids = "B and W" if len(self.variant.colours) == 2 else "1 to 4"
            raise self.error(
                f"{p.ident} is not a colour in {self.variant.sgf_name} (moves use {ids})",
                p.location,
            )
        if len(found) > 1:
            raise self.error(
                f"two moves in one node ({found[0].ident} and {found[1].ident})", found[1].location
            )
        return found[0] if found else None

    def _placement(self, prop: Property, colour: str, number: int) -> Placement | None:
        where = f"move {number} ({prop.location})"
        text = ",".join(v for v in prop.values if v.strip())
        if not text.strip():
            return None  # a pass
        squares = self._squares(text, prop.value_locations[0], where)
        piece = shape_name(self.board, squares)
        value = f"{prop.ident}[{text}]"
        if piece is None:
            raise self.error(
                f"{value}: the squares do not form a piece", prop.location, where, PieceError
            )
        placement = Placement(piece, squares)
        problem = move_problem(self.position, colour, placement)
        if problem:
            raise self.error(
                f"illegal move {value} ({colour} {piece}): {problem}",
                prop.location,
                where,
                RuleError,
            )
        return placement

    def _squares(self, text: str, location: Location, where: str | None = None) -> frozenset[int]:
        squares: list[int] = []
        for name in text.split(","):
            try:
                squares.append(self.board.parse(name))
            except SquareError as exc:
                raise self.error(exc.message, location, where, SquareError) from None
        if len(set(squares)) != len(squares):
            raise self.error(f"a square is listed twice in [{text}]", location, where, SquareError)
        most = family(self.board.grid).max_size
        if len(squares) > most:
            raise self.error(
                f"[{text}] has {len(squares)} squares; a piece has at most {most}",
                location,
                where,
                PieceError,
            )
        return frozenset(squares)

    # -- setup and player ----------------------------------------------------------------

    def _setup(self, node: Node) -> bool:
        """Apply the node's setup properties. Returns whether it had any."""
        present = [p for p in node.properties if p.ident in _SETUP_ORDER or p.ident == "AE"]
        if not present:
            return False
        for ident in _SETUP_ORDER:
            prop = node.get(ident)
            if prop is None:
                continue
            if ident not in self.setup_ids:
                raise self.error(
                    f"{ident} is not a colour in {self.variant.sgf_name}", prop.location
                )
            for value, location in zip(prop.values, prop.value_locations):
                self._add_setup(self.setup_ids[ident], ident, value, location)
        prop = node.get("AE")
        if prop is not None:
            for value, location in zip(prop.values, prop.value_locations):
                self._remove_setup(value, location)
        return True

    def _add_setup(self, colour: str, ident: str, value: str, location: Location) -> None:
        squares = self._squares(value, location)
        piece = shape_name(self.board, squares)
        if piece is None:
            raise self.error(
                f"setup {ident}[{value}]: the squares do not form a piece",
                location,
                kind=PieceError,
            )
        if piece not in self.position.colour(colour).remaining:
            raise self.error(
                f"setup {ident}[{value}]: {colour} has no {piece} left to place",
                location,
                kind=RuleError,
            )
        taken = sorted(squares & self.position.occupied)
        if taken:
            owner = self.position.owner[taken[0]]
            raise self.error(
                f"setup {ident}[{value}]: square {self.board.name(taken[0])} "
                f"is already taken by {owner}",
                location,
                kind=RuleError,
            )
        self.position = self.position.with_placement(colour, Placement(piece, squares))

    def _remove_setup(self, value: str, location: Location) -> None:
        squares = self._squares(value, location) if value.strip() else frozenset()
        removed = False
        colours = []
        for state in self.position.colours:
            keep = tuple(p for p in state.placed if not p.squares & squares)
            if len(keep) != len(state.placed):
                removed = True
                gone = [p.piece for p in state.placed if p.squares & squares]
                state = replace(
                    state,
                    placed=keep,
                    remaining=sorted_pieces(list(state.remaining) + gone, state.grid),
                )
            colours.append(state)
        if not removed:
            raise self.error(f"AE[{value}]: there is no piece on these squares to remove", location)
        self.position = replace(self.position, colours=tuple(colours))

    def _player(self, node: Node) -> None:
        prop = node.get("PL")
        if prop is None:
            return
        key = prop.value.strip().upper()
        if key not in self.player_ids:
            choices = ", ".join(self.player_ids)
            raise self.error(
                f"PL[{prop.value}] is not a colour in {self.variant.sgf_name} (one of {choices})",
                prop.value_locations[0],
            )
        self.to_move = self.player_ids[key]


# ---------------------------------------------------------------------------------------
# Legal moves in SGF notation


def sgf_moves(position: Position, colour: str) -> list[str]:
    """Every legal next move of a colour, in SGF notation, sorted.

    Each move is its squares comma-separated in Pentobi's order (``a1, b1, ..., a2``). The
    list is sorted by piece (standard order of the set), then by the squares in Pentobi's
    order (row number, then column). A piece a colour has twice (Junior) gives each
    placement once, as Pentobi's ``all_legal`` does.
    """
    return sorted_moves(position.board, legal_moves(position, colour))


def sorted_moves(board: Board, placements: Iterable[Placement]) -> list[str]:
    """Placements in SGF notation (squares in Pentobi's order a1, b1, ..., a2), sorted by
    piece (standard order of the set), then by the squares (row number, then column)."""

    def key(placement: Placement) -> tuple[int, list[tuple[int, int]]]:
        cells = sorted((board.rows - r, c) for r, c in map(board.row_col, placement.squares))
        return family(board.grid).index[placement.piece], cells

    return [squares_text(board, p.squares) for p in sorted(placements, key=key)]


def game_moves(path: str | Path, colour: str, after: int | None = None) -> list[str]:
    """The legal moves of a colour in a game file after ``after`` placements (default: end).

    ``colour`` may be an SGF id (``B``, ``W``, ``1``..``4``), a colour name or a letter.
    Returns the moves as :func:`sgf_moves` gives them.

    Raises:
        InputError: a bad file, a bad colour, or ``after`` past the end.
    """
    game = load_game(path)
    with located(path=str(path), where="--colour"):
        name = read_colour(colour, game.variant.colours, game.variant)
    return sgf_moves(game.position(after), name)


# ---------------------------------------------------------------------------------------
# Writing


def sgf_variant(position: Position) -> Variant:
    """The built-in variant a position can be written as.

    Raises:
        InputError: the position is not on a built-in variant's board with its colours.
    """
    v = ALL_VARIANTS.get(position.variant)
    board = position.board
    ok = v is not None and (
        board.rows == v.rows
        and board.cols == v.cols
        and board.grid == v.grid
        and not board.blocked
        and position.colour_names == v.colours
        and all(c.start == board.parse(s) for c, s in zip(position.colours, v.starts))
        and position.starting_points == start_position(v.name).starting_points
    )
    if v is None or not ok:
        raise InputError(
            "SGF supports only the classic, duo and junior boards and the Trigon hexagons, "
            f"without blocked cells (the built-in variants {', '.join(ALL_VARIANTS)}); "
            f"this position is {position.variant!r} on a "
            f"{board.rows}x{board.cols} board"
            + (f" with {len(board.blocked)} blocked squares" if board.blocked else "")
        )
    return v


def _replays_as_moves(position: Position, v: Variant) -> bool:
    """Whether every colour's placed pieces, in their order, are legal moves from the start."""
    current = start_position(v.name)
    for colour, placement in interleave(
        {c.name: c.placed for c in position.colours}, v.colours, v.colours[0]
    ):
        if move_problem(current, colour, placement):
            return False
        current = current.with_placement(colour, placement)
    return True


def _root(v: Variant, name: str | None) -> list[str]:
    """The root node's game properties: ``GM``, ``FF``, ``CA``, ``AP`` and ``GN``."""
    root = [
        format_property("GM", [v.sgf_name]),
        "FF[4]",
        "CA[UTF-8]",
        format_property("AP", [APPLICATION]),
    ]
    if name:
        root.append(format_property("GN", [name]))
    return root


def _setup(position: Position, v: Variant) -> list[str]:
    """The pieces on the board as setup properties (one value per piece, in order of
    play), then ``PL``: the colour to move."""
    props = [
        format_property(
            setup_id(v, state.name), [squares_text(position.board, p.squares) for p in state.placed]
        )
        for state in position.colours
        if state.placed
    ]
    return props + [format_property("PL", [colour_id(v, position.to_move or v.colours[0])])]


def write_moves(
    start: Position,
    moves: Sequence[tuple[str, Placement]],
    *,
    after: Sequence[Position] | None = None,
    name: str | None = None,
    comment: str | None = None,
) -> str:
    """A game as a ``.blksgf`` text that Pentobi opens: the start (the variant's empty
    board, or the pieces on it as setup in the root node, with ``PL``) and then the moves,
    each in its own node, in the order given; with ``after``, each move is followed by the
    setup that made the position after it (:func:`_setup_nodes`). Reading it back
    (:func:`read_sgf_text`) replays the same moves (and setup), so every position after a
    move is the same: ``after[k]``, or the move played (and the next colour to move).

    Args:
        start: a position of a built-in variant: where the moves start.
        moves: (colour, placement) in order of play, each legal where it is played (not
            checked here).
        after: the position after each move, as a game record has it (``Game.position(k +
            1)``: setup in mid-game, passes and ``PL`` before the next move included);
            None: each move's own.
        name: a game name for ``GN``.
        comment: a comment (``C``) on the last node (the root when there are no moves),
            which Pentobi shows beside the board there.

    Raises:
        InputError: ``start`` is not a built-in variant's position (see :func:`sgf_variant`).
    """
    v = sgf_variant(start)
    root = _root(v, name)
    if any(state.placed for state in start.colours):
        root += _setup(start, v)
    elif start.to_move not in (None, v.colours[0]):
        root.append(format_property("PL", [colour_id(v, start.to_move)]))
    lines = []
    current = start
    for k, (colour, p) in enumerate(moves):
        lines.append(
            ";" + format_property(colour_id(v, colour), [squares_text(start.board, p.squares)])
        )
        played = current.with_placement(colour, p)
        played = replace(played, to_move=v.colours[(v.colours.index(colour) + 1) % len(v.colours)])
        current = played if after is None else after[k]
        lines += [";" + node for node in _setup_nodes(played, current, v)]
    if comment:
        note = format_property("C", [comment])
        if lines:
            lines[-1] += note
        else:
            root.append(note)
    return "(;" + "".join(root) + "".join("\n" + line for line in lines) + "\n)\n"


def _setup_nodes(before: Position, after: Position, v: Variant) -> list[str]:
    """The setup nodes that turn ``before`` into ``after`` (none when they are the same):
    an ``AE`` node taking away the pieces ``after`` lacks (one value per piece, its squares
    exactly, as Pentobi's ``AE`` wants them), then a node adding the new ones (``AB``/``AW``
    or ``A1``..``A4``, in order of play), and ``PL`` in the last node when the colour to
    move is not the one after the mover. Two nodes, because within a node setup adds
    before it takes away."""
    removed: list[str] = []
    added: list[str] = []
    for old, new in zip(before.colours, after.colours):
        gone, extra = _placed_change(old.placed, new.placed)
        removed += [squares_text(before.board, p.squares) for p in gone]
        if extra:
            added.append(
                format_property(
                    setup_id(v, new.name), [squares_text(before.board, p.squares) for p in extra]
                )
            )
    nodes = [format_property("AE", removed)] if removed else []
    if added:
        nodes.append("".join(added))
    if after.to_move is not None and after.to_move != before.to_move:
        player = format_property("PL", [colour_id(v, after.to_move)])
        nodes = [*nodes[:-1], nodes[-1] + player] if nodes else [player]
    return nodes


def _placed_change(
    before: Sequence[Placement], after: Sequence[Placement]
) -> tuple[list[Placement], list[Placement]]:
    """(the pieces to take away, the pieces to add, in order) that turn one colour's
    placed pieces ``before`` into ``after``, order of play kept: setup keeps the pieces
    not taken away in their order and adds new ones at the end."""
    kept = [p for p in before if p in after]
    if list(after[: len(kept)]) != kept:  # another order: take back from where they part
        n = 0
        while n < min(len(before), len(after)) and before[n] == after[n]:
            n += 1
        kept = list(before[:n])
    return [p for p in before if p not in kept], list(after[len(kept) :])


def write_sgf(
    position: Position,
    layout: Mapping[str, Sequence[Placement]] | None = None,
    *,
    name: str | None = None,
) -> str:
    """A position, and optionally new pieces, as a ``.blksgf`` text that Pentobi opens.

    The pieces already on the board are written as moves when each colour's placed
    pieces, in their order of play, are legal moves from the start (interleaved in turn
    order; a colour with fewer pieces is skipped, no pass is written). Otherwise (e.g. a
    position from a diagram) they are written as setup (``AB``/``AW`` or ``A1``..``A4``,
    one value per piece, in order of play) in the root node with ``PL``. The new pieces
    of ``layout`` follow as moves, interleaved in turn order from ``position.to_move``
    (or the first colour). Squares in each value are in Pentobi's order a1, b1, ..., a2.

    SGF stores only the pieces on the board: reading the file back gives each colour the
    variant's full set minus its placed pieces as remaining pieces.

    Args:
        position: a position of a built-in variant.
        layout: colour -> the placements it adds, in order of play (legal from
            ``position``).
        name: a game name for ``GN``.

    Raises:
        InputError: a custom board ("SGF supports only the classic, duo and junior
            boards..."), a colour with more of a piece than the set has, or an illegal
            layout move.
    """
    v = sgf_variant(position)
    board = position.board
    for state in position.colours:
        extra = Counter(p.piece for p in state.placed) - v.pieces
        if extra:
            raise InputError(
                f"{state.name} has more {next(iter(extra))} pieces on the board "
                f"than {v.sgf_name} has"
            )
    root = _root(v, name)
    lines: list[str] = []
    if _replays_as_moves(position, v):
        queues = {c.name: c.placed for c in position.colours}
        for colour, placement in interleave(queues, v.colours, v.colours[0]):
            lines.append(
                ";"
                + format_property(colour_id(v, colour), [squares_text(board, placement.squares)])
            )
    else:
        root += _setup(position, v)
    if layout:
        current = position
        for colour in layout:
            if colour not in v.colours:
                raise InputError(f"the layout names {colour!r}, not a colour of {v.sgf_name}")
        first = position.to_move if position.to_move in v.colours else v.colours[0]
        for colour, placement in interleave(layout, v.colours, first):
            problem = move_problem(current, colour, placement)
            if problem:
                raise RuleError(
                    f"layout move {placement.piece} of {colour} at "
                    f"{squares_text(board, placement.squares)} is illegal: {problem}"
                )
            current = current.with_placement(colour, placement)
            lines.append(
                ";"
                + format_property(colour_id(v, colour), [squares_text(board, placement.squares)])
            )
    return "(;" + "".join(root) + "".join("\n" + line for line in lines) + "\n)\n"
