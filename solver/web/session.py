"""One page's game: the problem it started from, the moves played, undo and redo.

A session is the state behind one open page (its key is the page's token). Solo and card
puzzles keep a stack of problems, one per move (``history[0]`` the start), so that undo is
a pop and every position is the one the rules produced; the game viewer keeps a game
record and the number of placements shown. Every rule comes from :mod:`solver.core.rules` and
:func:`solver.tasks.hints.play`; the page only draws what :meth:`Session.state` says.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from solver.answers.words import plural
from solver.companion.page import (
    MAX_KNOWN,
    FollowRequest,
    Known,
    fingerprint,
    follow_request,
    followable,
)
from solver.core.board import Board, cell_word, column_name
from solver.core.checker import unmet_goals
from solver.core.pieces import MONOMINO, PIECES, family
from solver.core.placements import legal_moves
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.core.variants import ALL_VARIANTS, read_colour
from solver.errors import InputError
from solver.formats.game import Game
from solver.pictures.cells import Cells
from solver.pictures.picture import COLOURS
from solver.tasks.hints import play

Mode = Literal["solo", "cards", "game"]


@dataclass(frozen=True)
class SessionMove:
    """One entry of the history: a placement (or a pass, ``placement`` None) and the
    problem after it."""

    colour: str
    placement: Placement | None
    after: Problem


@dataclass
class Session:
    """The state of one page.

    Attributes:
        start: the problem the page opened (a puzzle, a card, a built-in challenge).
        mode: "solo", "cards" or "game".
        source: what the page opened, for titles (a catalogue label or a file name).
        moves: the moves played since ``start``, in order.
        undone: moves taken back, the next redo last.
        selected: the colour to move (the player picks it in solo).
        turn_order: whether the colour to move follows the turn order after each move.
        game: the game record of the game viewer, and ``step`` the placements shown.
        review: the review chart of the game, once asked for (JSON-ready).
        shown: a layout to draw over the board (``[colour, piece, squares]`` rows).
        known: the joint answers known, by position (:mod:`solver.companion.page`): the
            solo companion carries them along the line of play.
        opened: the catalogue entry the session was opened from (its id), None for an
            upload; with ``from_step``, the placements of the game record shown when
            "play on from here" made it (what a kept game is rebuilt from:
            :mod:`solver.web.snapshot`).
    """

    start: Problem
    mode: Mode = "solo"
    source: str = ""
    moves: list[SessionMove] = field(default_factory=list)
    undone: list[SessionMove] = field(default_factory=list)
    selected: str | None = None
    turn_order: bool = False
    game: Game | None = None
    step: int = 0
    review: dict[str, Any] | None = None
    shown: list[list[Any]] | None = None
    known: dict[str, Known] = field(default_factory=dict)
    opened: str | None = None
    from_step: int | None = None

    def __post_init__(self) -> None:
        if self.selected is None:
            self.selected = self._next_colour(None)

    @property
    def problem(self) -> Problem:
        """The problem as it stands (after the moves)."""
        if self.game is not None:
            return game_problem(self.game, self.step)
        return self.moves[-1].after if self.moves else self.start

    def place(self, colour: str, cells: list[tuple[int, int]]) -> None:
        """Play a piece of ``colour`` on the cells at (row from top, column) ``cells``
        (on Trigon, of the naming rectangle: :meth:`solver.core.board.Board.square`).

        Raises:
            InputError: the rule the move breaks, in words (:func:`solver.core.rules.move_problem`,
                through :func:`solver.tasks.hints.play`), or a colour that is not played.
        """
        board = self.problem.position.board
        self._check_move(colour)
        if any(not (0 <= r < board.rows and 0 <= c < board.cols) for r, c in cells):
            raise InputError("the piece lies partly off the board")
        self._place(colour, [board.square(r, c) for r, c in cells])

    def place_squares(self, colour: str, squares: list[int]) -> None:
        """Play a piece of ``colour`` on the cells numbered ``squares`` (the board's own
        numbers, on any grid: what the page sends on a board that is not of squares).

        Raises:
            InputError: as :meth:`place`.
        """
        board = self.problem.position.board
        self._check_move(colour)
        if any(not 0 <= s < board.size for s in squares):
            raise InputError("the piece lies partly off the board")
        self._place(colour, squares)

    def _check_move(self, colour: str) -> None:
        if self.game is not None:
            raise InputError("a game record is shown: choose 'play on from here' to play")
        self.played(colour)

    def _place(self, colour: str, squares: list[int]) -> None:
        problem = self.problem
        board = problem.position.board
        colour = self.played(colour)
        if not squares:
            raise InputError("no squares given")
        text = f"{colour}:" + ",".join(board.names(frozenset(squares)))
        try:
            after = play(problem, [text], label="move")
        except InputError as e:
            raise InputError(e.message) from None
        state = after.position.colour(colour)
        self.moves.append(SessionMove(colour, state.placed[-1], after))
        self.undone.clear()
        self.shown = None
        self._advance(colour)

    def pass_turn(self) -> None:
        """The colour to move passes: the next colour with pieces left is to move."""
        if self.game is not None or self.selected is None:
            return
        self.moves.append(SessionMove(self.selected, None, self.problem))
        self.undone.clear()
        self.selected = self._next_colour(self.selected)

    def undo(self) -> bool:
        """Take back the last move (placement or pass); False if there is none."""
        if not self.moves:
            return False
        move = self.moves.pop()
        self.undone.append(move)
        self.selected = move.colour
        self.shown = None
        return True

    def redo(self) -> bool:
        """Play again the last move taken back; False if there is none."""
        if not self.undone:
            return False
        move = self.undone.pop()
        self.moves.append(move)
        self.shown = None
        self._advance(move.colour) if move.placement else self._pass_from(move.colour)
        return True

    def line(self) -> list[tuple[str | None, Placement | None, Problem]]:
        """The line of play to the position shown: ``(None, None, start)`` then each move
        ``(colour, placement or None for a pass, problem after)``; in the game viewer
        only the position shown."""
        if self.game is not None:
            return [(None, None, self.problem)]
        return [(None, None, self.start)] + [(m.colour, m.placement, m.after) for m in self.moves]

    def joint_request(self) -> FollowRequest | Problem:
        """What the joint question is asked with: the solo companion's request from the
        nearest known answer on the line of play, or the problem (a check from scratch).
        On every grid: on Trigon the companion has no opening book, and its compiled
        repair search reads the board's geometry."""
        return follow_request(self.line(), self.known) or self.problem

    def learn(self, key: str, known: Known) -> None:
        """File a joint answer, joined to what is known there already (the pool grows:
        :meth:`solver.companion.page.Known.merged`; the oldest positions dropped beyond
        :data:`MAX_KNOWN`)."""
        old = self.known.pop(key, None)
        self.known[key] = known if old is None else old.merged(known)
        while len(self.known) > MAX_KNOWN:
            del self.known[next(iter(self.known))]

    def played(self, text: object) -> str:
        """The played colour ``text`` names, read by the one colour rule
        (:func:`solver.core.variants.read_colour`, as ``--colour`` and the API read it:
        ``B`` is purple in Duo).

        Raises:
            InputError: not a colour here, or one that is not played.
        """
        position = self.problem.position
        colour = read_colour(text, position.colour_names, ALL_VARIANTS.get(position.variant))
        if colour not in self.problem.colours:
            raise InputError(f"{colour} is not played here")
        return colour

    def select(self, colour: str) -> None:
        """Pick the colour to move (:meth:`played`). Raises InputError: a colour that is not
        played."""
        self.selected = self.played(colour)

    def follow_turn(self) -> None:
        """The colour to move of the position shown (a game record's turn), when it has
        pieces left; otherwise the first colour that has."""
        problem = self.problem
        to_move = problem.position.to_move
        self.selected = to_move if to_move in problem.colours else self._next_colour(None)

    def _pass_from(self, colour: str) -> None:
        self.selected = self._next_colour(colour)

    def _advance(self, colour: str) -> None:
        """After ``colour`` moved: with the turn order, the next colour with pieces left;
        without, the same colour while it has pieces left."""
        if self.turn_order or not self.problem.position.colour(colour).remaining:
            self.selected = self._next_colour(colour)

    def _next_colour(self, after: str | None) -> str | None:
        """The played colour after ``after`` in turn order that has pieces left (the
        first such colour when ``after`` is None), or None when all are done."""
        problem = self.problem
        names = list(problem.colours)
        if not names:
            return None
        k = names.index(after) + 1 if after in names else 0
        for name in names[k:] + names[:k]:
            if problem.position.colour(name).remaining:
                return name
        return names[0] if after is None else after

    def state(self) -> dict[str, Any]:
        """Everything the page draws, as JSON: the board, each colour's pieces on it and
        left, the colour to move, its legal placements and corner squares, the goals,
        the history, and in the game viewer the moves and the review."""
        problem = self.problem
        position = problem.position
        colour = self.selected
        out: dict[str, Any] = {
            "mode": self.mode,
            "source": self.source,
            "title": self.start.title or self.source,
            **position_json(position),
            "played": list(problem.colours),
            "goal": problem.goal,
            "monomino_last": problem.monomino_last,
            "cover": sorted(problem.cover),
            "stars_left": sorted(problem.stars_left),
            "connect": list(problem.connect),
            "selected": colour,
            "turn_order": self.turn_order,
            "moves": len(self.moves),
            "redo": len(self.undone),
            "shown": self.shown,
            # the squares under the pieces on the board from the start (a card's printed ones)
            "printed": sorted(self.start.position.occupied),
            "legal": [],
            "corners": [],
            "pieces": {name: list(p.cells) for name, p in PIECES.items()},
        }
        if not position.board.square_grid:  # drawn from the geometry, not as squares
            out["pieces"] = {}
            out["shapes"] = shapes_json(position.board)
        if colour is not None and self.game is None:
            out["legal"] = legal_json(problem, colour)
            if position.colour(colour).remaining:
                out["corners"] = sorted(corner_squares(position, colour))
        out["status"] = self._status(problem, out["legal"])
        out["goal_text"] = goal_text(problem)
        if self.game is not None:
            out["game"] = game_json(self.game, self.step)
            out["review"] = self.review
        return out

    def _status(self, problem: Problem, legal: list[list[Any]]) -> str:
        """One line on the state of play."""
        if self.game is not None:
            line = f"after {self.step} of {self.game.num_placements} placements"
            if self.review:  # each colour's review answer here: can it still place all?
                answers = {c: d["answers"][self.step] for c, d in self.review["colours"].items()}
                line += "; can still place all: " + ", ".join(
                    f"{c} {a}" for c, a in answers.items()
                )
            return line
        position = problem.position
        left = [c for c in problem.colours if position.colour(c).remaining]
        if not left:
            unmet = unmet_goals(position, problem.cover, problem.connect)
            if unmet:
                return "every piece is placed, but " + "; ".join(unmet)
            return "solved: every piece is placed" + (
                ", every goal met" if problem.has_card_goals else ""
            )
        if self.selected is not None and not legal:
            return f"{self.selected} has no legal move: undo, pass or pick another colour"
        played = len(problem.colours)
        if played == 1:  # not "1 of 1 colours have pieces left"
            pieces = len(position.colour(left[0]).remaining)
            return f"{self.selected} to move; {pieces} {plural(pieces, 'piece')} left"
        has = "has" if len(left) == 1 else "have"
        return f"{self.selected} to move; {len(left)} of {played} colours {has} pieces left"


def goal_text(problem: Problem) -> str:
    """The goal in words, for the page: what to place, stars to cover, groups to join."""
    if problem.goal == "max-score":
        return "Goal: the highest total score of the played colours."
    words = "place every piece of " + ", ".join(problem.colours)
    if problem.monomino_last:
        words += ", each monomino last"
    if problem.cover:
        n = len(problem.cover)
        words += "; cover the star" if n == 1 else f"; cover the {n} stars"
    for colour in problem.connect:
        words += f"; join {colour}'s pieces into one group (corner to corner)"
    board = problem.position.board
    if board.blocked:
        words += f"; the dark {cell_word(board.grid)}s (Xs) stay free"
    return "Goal: " + words + "."


def position_json(position: Position) -> dict[str, Any]:
    """A position as JSON: size, the names of its columns and rows (top first), blocked
    squares, each colour's fill, start, pieces placed (``[piece, squares]`` in order of
    play), pieces left and score."""
    board = position.board
    out: dict[str, Any] = {
        "rows": board.rows,
        "cols": board.cols,
        # the squares' names as hints and answers write them: a1 is the lower left
        "column_names": [column_name(c) for c in range(board.cols)],
        "row_names": [str(board.rows - r) for r in range(board.rows)],
        "blocked": sorted(board.blocked),
        "colours": [
            {
                "name": c.name,
                "fill": COLOURS.get(c.name, "#888888"),
                "start": c.start,
                "placed": [[p.piece, sorted(p.squares)] for p in c.placed],
                "remaining": list(c.remaining),
                "score": position.score(c.name),
            }
            for c in position.colours
        ],
    }
    if not board.square_grid:
        # the cells as the geometry draws them, and the starting points the colours share
        out["grid"] = board.grid
        out["cells"] = cells_json(board)
        out["starting_points"] = sorted(position.starting_points)
    return out


def cells_json(board: Board) -> dict[str, Any]:
    """A board that is not of squares as the page draws it (:func:`_cells_json`)."""
    return _cells_json(board.grid, board.rows, board.cols)


@cache
def _cells_json(grid: str, rows: int, cols: int) -> dict[str, Any]:
    """The cells of a board (blocked ones aside) for the page, from its geometry, in
    picture units (one column of the naming rectangle 1 wide, as the pictures:
    :class:`solver.pictures.cells.Cells`): ``polygons`` (each cell's corners), ``tiles``
    (each cell's lattice coordinates: a piece's orientation is placed by a translation
    of the lattice), ``kinds`` (each cell's kind: a translation maps a tile to one of the
    same kind, e.g. a triangle pointing up to one pointing up), ``names`` (as Pentobi
    writes them), ``width``, ``height``, and the labels around the board: ``columns``
    (``[letters, x]``) and ``rows`` (``[number, y]``)."""
    board = Board(rows, cols, grid=grid)
    geometry = board.geometry
    drawn = Cells(board, 0.0, 0.0)
    columns: dict[str, float] = {}
    for x, centre in sorted(drawn.column_centres.items()):
        columns[column_name(x)] = round(centre, 3)
    return {
        "polygons": [[[round(float(v), 3) for v in p] for p in cell] for cell in drawn.polygons],
        "tiles": [list(t) for t in geometry.cells],
        "kinds": [geometry.lattice.kind(t) for t in geometry.cells],
        "names": list(geometry.names),
        "width": round(drawn.width, 3),
        "height": round(drawn.height, 3),
        "columns": [[name, x] for name, x in columns.items()],
        "rows": [[str(rows - y), round(c, 3)] for y, c in sorted(drawn.row_centres.items())],
    }


def shapes_json(board: Board) -> dict[str, Any]:
    """The pieces of a board that is not of squares (:func:`_shapes_json`)."""
    return _shapes_json(board.grid, board.rows, board.cols)


@cache
def _shapes_json(grid: str, rows: int, cols: int) -> dict[str, Any]:
    """Each piece of the grid's family (:func:`solver.core.pieces.family`) as the page
    turns and places it, by name: ``tiles`` (each fixed orientation, as lattice
    coordinates, normalised), ``kinds`` (each tile's kind), ``polygons`` (each tile's
    corners in picture units, for the tray), ``turn`` and ``flip`` (the orientation after
    the lattice's first turn, clockwise on the page, and after the left-right mirror, by
    index) and ``first`` (the piece as the family lists it)."""
    geometry = Board(rows, cols, grid=grid).geometry
    lattice = geometry.lattice
    scale = Cells(Board(rows, cols, grid=grid), 0.0, 0.0).scale
    mirror = lattice.transform_names.index("mirror+identity")
    pieces = family(grid)
    out: dict[str, Any] = {}
    for name, shape in zip(pieces.names, pieces.shapes, strict=True):
        shapes = list(lattice.orientations(shape))
        index = {s: k for k, s in enumerate(shapes)}
        turn = [index[lattice.normalise(lattice.transform_cells(1, s))] for s in shapes]
        flip = [index[lattice.normalise(lattice.transform_cells(mirror, s))] for s in shapes]
        drawn = []
        for s in shapes:
            corners = [[lattice.point(v) for v in lattice.vertices(t)] for t in s]
            x0 = min(x for c in corners for x, _ in c)
            y0 = min(y for c in corners for _, y in c)
            drawn.append(
                [
                    [[round((x - x0) * scale, 3), round((y - y0) * scale, 3)] for x, y in c]
                    for c in corners
                ]
            )
        out[name] = {
            "tiles": [[list(t) for t in s] for s in shapes],
            "kinds": [[lattice.kind(t) for t in s] for s in shapes],
            "polygons": drawn,
            "turn": turn,
            "flip": flip,
            "first": index[lattice.normalise(shape)],
        }
    return out


def legal_json(problem: Problem, colour: str) -> list[list[Any]]:
    """The legal placements of ``colour`` as ``[piece, sorted squares]`` (the page tests
    its ghost against this set); with monomino-last, the monomino only as the last piece."""
    position = problem.position
    state = position.colour(colour)
    if colour not in problem.colours or not state.remaining:
        return []
    early_monomino = problem.monomino_last and len(state.remaining) > 1
    return [
        [p.piece, sorted(p.squares)]
        for p in legal_moves(position, colour)
        if not (early_monomino and p.piece == MONOMINO)
    ]


def corner_squares(position: Position, colour: str) -> set[int]:
    """The squares where ``colour`` may put its next piece: free squares that share a
    corner with its pieces and no edge (its start square before its first piece)."""
    board = position.board
    state = position.colour(colour)
    taken = position.occupied | board.blocked
    if not state.squares:
        if position.starting_points:  # shared by the colours (Trigon): the free ones
            return set(position.starting_points - taken)
        return {state.start} if state.start is not None and state.start not in taken else set()
    own = state.squares
    near = {n for s in own for n in board.edge_neighbours[s]}
    return {n for s in own for n in board.corner_neighbours[s]} - taken - near


def game_problem(game: Game, step: int) -> Problem:
    """The game after ``step`` placements as a problem: every colour with pieces left
    played, goal place-all (as ``blokus-solo check`` reads a game record)."""
    position = game.position(step)
    colours = tuple(c.name for c in position.colours if c.remaining)
    return Problem(position, colours, "place-all", False, name=game.path or "game")


def game_json(game: Game, step: int) -> dict[str, Any]:
    """The game viewer's data: placements, the step shown, each move's colour and piece."""
    moves = [
        [m.colour, m.placement.piece if m.placement else None]
        for m in game.moves
        if m.placement is not None
    ]
    return {"placements": game.num_placements, "step": step, "moves": moves}


def from_here(session: Session) -> Session:
    """A solo session that plays on from the game viewer's position; the rest of the
    game record (when its pieces are left to place) is kept as the companion's first witness (an
    unknown's layout: checked by the worker before it answers anything)."""
    problem = session.problem
    out = Session(
        dataclasses.replace(problem, title=f"{session.source} after {session.step} placements"),
        "solo",
        session.source,
        opened=session.opened,
        from_step=session.step,
    )
    game = session.game
    if game is not None and followable(problem):
        placements = [(m.colour, m.placement) for m in game.moves if m.placement is not None]
        rest = placements[session.step :]
        position = problem.position
        try:  # the rest must be pieces each colour has left (setup may change that)
            for colour, placement in rest:
                position = position.with_placement(colour, placement)
        except InputError:
            return out
        witness = tuple((c, p.piece, tuple(sorted(p.squares))) for c, p in rest)
        out.learn(fingerprint(problem.position), Known("unknown", witness))
    return out
