"""Pictures of positions: the board as a list of shapes, drawn by :mod:`solver.pictures.svg` (SVG
text) and :mod:`solver.pictures.png` (a PNG image), so that both show the same picture.

The picture follows Pentobi's conventions: column letters a, b, ... along the bottom and
row numbers 1, 2, ... up the left side, ``a1`` the lower-left square (the letter i is
used). Each colour is drawn in its usual colour (blue, yellow, red, green; Duo and Junior
purple and orange; the values are close to Pentobi's default theme). Every piece has its
own thick outline, so that two pieces of one colour that touch at a corner, or pieces of
different colours that share an edge, are told apart at a glance; thin grid lines show the
squares. A free start square carries a dot in its colour; a square to cover (a star of
"Cover the Stars") a five-pointed star outline.

Coordinates are in squares: one square is 1 x 1, the board's top-left corner is at
(:attr:`Scene.left`, :attr:`Scene.top`), x grows to the right and y downwards.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypedDict

from solver.core.board import Board, column_name
from solver.core.order import interleave
from solver.core.position import Placement, Position, sorted_pieces
from solver.pictures.cells import Cells

#: Fill colour of each colour's squares (hex RGB), close to Pentobi's default theme.
COLOURS: dict[str, str] = {
    "blue": "#0073cf",
    "yellow": "#ebcd23",
    "red": "#e63e2c",
    "green": "#00a000",
    "purple": "#a12ccf",
    "orange": "#f09217",
}
BACKGROUND = "#ffffff"
EMPTY_FILL = "#e4e4e4"
BLOCKED_FILL = "#4d4d4d"
GRID = "#000000"  # drawn with GRID_OPACITY, so it shows on empty and coloured squares
GRID_OPACITY = 0.2
OUTLINE = "#1a1a1a"
START_SHARED = "#7a7a7a"  # a starting point shared by all colours (Trigon)
HIGHLIGHT = "#ffffff"  # the line inside the last piece's outline
LABEL = "#555555"

#: Line widths and sizes, in squares.
GRID_WIDTH = 0.04
OUTLINE_WIDTH = 0.12
LAST_WIDTH = 0.24
HIGHLIGHT_WIDTH = 0.08
START_RADIUS = 0.25
STAR_RADIUS = 0.36
STAR_WIDTH = 0.07
LABEL_SIZE = 0.5
MARGIN = 0.25  # around the board where no coordinates are drawn
LABEL_BAND = 1.0  # left and bottom, where the coordinates are drawn
FADE = 0.55  # how far pieces outside ``new`` are mixed towards white

#: Default picture width in pixels per square (board and margins).
PIXELS_PER_SQUARE = 24

Point = tuple[float, float]


@dataclass(frozen=True)
class Rect:
    """A filled rectangle (``fill`` None: not filled), optionally stroked."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None
    kind: str  # "background", "board", "square", "blocked", "frame"
    colour: str = ""  # the colour name, for kind "square"
    stroke: str | None = None
    width: float = 0.0


@dataclass(frozen=True)
class Polygon:
    """A filled polygon with no stroke: one cell of a board that is not square."""

    points: tuple[Point, ...]
    fill: str
    kind: str  # "cell" (empty, or covered: ``colour`` is its colour's name), "blocked"
    colour: str = ""


@dataclass(frozen=True)
class Lines:
    """Straight line segments of one stroke."""

    segments: tuple[tuple[Point, Point], ...]
    stroke: str
    width: float
    opacity: float
    kind: str  # "grid"


@dataclass(frozen=True)
class Outline:
    """A closed polygon drawn as a line (round joins): the boundary of one piece."""

    points: tuple[Point, ...]
    stroke: str
    width: float
    kind: str  # "piece" (one per piece), "last" (the highlight inside the last piece's),
    # "star" (a square to cover)
    colour: str = ""


@dataclass(frozen=True)
class Circle:
    """A filled circle."""

    cx: float
    cy: float
    r: float
    fill: str
    kind: str  # "start"
    colour: str = ""


@dataclass(frozen=True)
class Label:
    """Text centred on (x, y)."""

    x: float
    y: float
    text: str
    size: float  # font size in squares
    fill: str
    kind: str  # "coordinate" or "number"


Shape = Rect | Polygon | Lines | Outline | Circle | Label


@dataclass(frozen=True)
class Scene:
    """A picture as shapes, in drawing order.

    Attributes:
        width, height: the picture's size in squares (board and margins).
        left, top: where the board's top-left corner is.
        pixels: the picture's width in pixels; its height is ``pixel_height``.
        shapes: the shapes, back to front.
    """

    width: float
    height: float
    left: float
    top: float
    pixels: int
    shapes: tuple[Shape, ...]

    @property
    def scale(self) -> float:
        """Pixels per square."""
        return self.pixels / self.width

    @property
    def pixel_height(self) -> int:
        """The picture's height in pixels (rounded; at least 1)."""
        return max(1, round(self.height * self.scale))


class PictureOptions(TypedDict, total=False):
    """The keyword options of :func:`scene` (and of :func:`solver.pictures.svg.board` and
    :func:`solver.pictures.png.board`)."""

    size: int | None
    coordinates: bool
    numbers: bool
    order: Sequence[tuple[str, Placement]] | None
    last: Placement | None
    new: Collection[Placement] | None
    start_squares: bool
    colours: Mapping[str, str] | None
    stars: Collection[int]


def scene(
    position: Position,
    *,
    size: int | None = None,
    coordinates: bool = True,
    numbers: bool = False,
    order: Sequence[tuple[str, Placement]] | None = None,
    last: Placement | None = None,
    new: Collection[Placement] | None = None,
    start_squares: bool = True,
    colours: Mapping[str, str] | None = None,
    stars: Collection[int] = (),
) -> Scene:
    """The picture of a position as shapes.

    Args:
        position: the position (its board, blocked squares and every colour's pieces).
        size: the picture's width in pixels (default: 24 per square, margins included);
            the height follows from the board's shape.
        coordinates: draw column letters below the board and row numbers on its left.
        numbers: write on each piece its number in the order of play (``order``).
        order: the order of play as (colour, placement) pairs, the first numbered 1;
            default :func:`play_order` (each colour's pieces in its own order, the colours
            taking turns). Pieces on the board that are not in it get no number.
        last: a piece on the board to highlight (e.g. the last one placed): its outline is
            drawn wider with a white line inside.
        new: when given, the pieces not in it (e.g. those already on the board before a
            solver added the others) are drawn paler.
        start_squares: mark each free start square with a dot in its colour.
        colours: fill colours (hex ``#rrggbb``) by colour name, replacing :data:`COLOURS`.
        stars: squares to cover, each marked with a star outline (on top of any piece).

    Raises:
        ValueError: ``size`` is less than 1, ``last`` is not a piece on the board, or a
            colour has no fill colour.
    """
    if size is not None and size < 1:
        raise ValueError(f"picture size must be at least 1 pixel, not {size}")
    palette = {**COLOURS, **(colours or {})}
    pieces = [(c.name, p) for c in position.colours for p in c.placed]
    fills = {}
    for name, p in pieces:
        if name not in palette:
            raise ValueError(f"no fill colour for {name!r}")
        fills[p] = palette[name] if new is None or p in new else _mix(palette[name], FADE)
    if last is not None and last not in fills:
        raise ValueError(f"the piece to highlight ({last.piece}) is not on the board")
    if not position.board.square_grid:
        marks = _Marks(start_squares, stars, numbers, order, last)
        return _cell_scene(position, fills, palette, marks, size, coordinates)
    board = position.board
    left = LABEL_BAND if coordinates else MARGIN
    bottom = LABEL_BAND if coordinates else MARGIN
    width = left + board.cols + MARGIN
    height = MARGIN + board.rows + bottom
    pixels = size if size is not None else round(PIXELS_PER_SQUARE * width)
    at = _Grid(board, left, MARGIN)
    shapes: list[Shape] = [
        Rect(0, 0, width, height, BACKGROUND, "background"),
        Rect(left, MARGIN, board.cols, board.rows, EMPTY_FILL, "board"),
    ]
    shapes += [Rect(*at.corner(sq), 1, 1, BLOCKED_FILL, "blocked") for sq in sorted(board.blocked)]
    shapes += [
        Rect(*at.corner(sq), 1, 1, fills[p], "square", name)
        for name, p in pieces
        for sq in sorted(p.squares)
    ]
    if start_squares:
        shapes += [
            Circle(*at.centre(c.start), START_RADIUS, palette.get(c.name, OUTLINE), "start", c.name)
            for c in position.colours
            if c.start is not None and c.start not in position.occupied
        ]
    shapes.append(Lines(at.grid_lines(), GRID, GRID_WIDTH, GRID_OPACITY, "grid"))
    shapes += [
        Outline(at.outline(p.squares), OUTLINE, OUTLINE_WIDTH, "piece", name)
        for name, p in pieces
        if p != last
    ]
    shapes.append(
        Rect(left, MARGIN, board.cols, board.rows, None, "frame", "", OUTLINE, OUTLINE_WIDTH)
    )
    if last is not None:
        loop = at.outline(last.squares)
        shapes.append(
            Outline(loop, OUTLINE, LAST_WIDTH, "piece", position.owner[min(last.squares)])
        )
        shapes.append(Outline(loop, HIGHLIGHT, HIGHLIGHT_WIDTH, "last"))
    shapes += [Outline(_star(*at.centre(sq)), OUTLINE, STAR_WIDTH, "star") for sq in sorted(stars)]
    if numbers:
        shapes += _numbers(
            lambda squares: at.centre(_middle_square(board, squares)),
            fills,
            play_order(position) if order is None else order,
        )
    if coordinates:
        shapes += _coordinates(board, left, MARGIN)
    return Scene(width, height, left, MARGIN, pixels, tuple(shapes))


def play_order(position: Position) -> list[tuple[str, Placement]]:
    """Every piece on the board as (colour, placement), each colour's pieces in their
    order of play and the colours taking turns from the first (a legal order of play when
    each colour's own order is legal: colours do not constrain each other)."""
    names = position.colour_names
    if not names:
        return []
    return interleave({c.name: c.placed for c in position.colours}, names, names[0])


def with_layout(position: Position, layout: Mapping[str, Iterable[Placement]]) -> Position:
    """The position with each colour's added placements put on the board in order (no rule
    is checked). Raises InputError if a colour has no such piece left or squares clash."""
    for colour, placements in layout.items():
        for p in placements:
            position = position.with_placement(colour, p)
    return position


def layout_pieces(layout: Mapping[str, Iterable[Placement]] | None) -> list[Placement]:
    """Every placement of a layout (colour -> placements), colour by colour."""
    return [p for placements in (layout or {}).values() for p in placements]


def first_placements(
    position: Position, order: Sequence[tuple[str, Placement]], n: int
) -> Position:
    """The position with only the first ``n`` pieces of ``order`` on the board: the later
    ones go back to their colours' remaining pieces (pieces not in ``order`` stay).

    Raises:
        ValueError: ``n`` is negative or more than ``len(order)``.
    """
    if not 0 <= n <= len(order):
        raise ValueError(f"there are {len(order)} placements; no position after {n}")
    later = {p for _, p in order[n:]}
    colours = tuple(
        replace(
            c,
            placed=tuple(p for p in c.placed if p not in later),
            remaining=sorted_pieces(
                [*c.remaining, *(p.piece for p in c.placed if p in later)], c.grid
            ),
        )
        for c in position.colours
    )
    return replace(position, colours=colours)


@dataclass(frozen=True)
class _Marks:
    """What :func:`scene` draws on top of the cells (its arguments of the same names)."""

    start_squares: bool
    stars: Collection[int]
    numbers: bool
    order: Sequence[tuple[str, Placement]] | None
    last: Placement | None


def _cell_scene(
    position: Position,
    fills: Mapping[Placement, str],
    palette: Mapping[str, str],
    marks: _Marks,
    size: int | None,
    coordinates: bool,
) -> Scene:
    """:func:`scene` on a board that is not square (Trigon's triangles): one
    :class:`Polygon` per cell from the board's geometry (:class:`.cells.Cells`: a naming
    column is 1 wide), the same outlines, marks and labels as on squares."""
    board = position.board
    left = LABEL_BAND if coordinates else MARGIN
    at = Cells(board, left, MARGIN)
    width = left + at.width + MARGIN
    height = MARGIN + at.height + (LABEL_BAND if coordinates else MARGIN)
    pixels = size if size is not None else round(PIXELS_PER_SQUARE * width)
    shapes: list[Shape] = [Rect(0, 0, width, height, BACKGROUND, "background")]
    shapes += _cell_polygons(position, at, fills)
    if marks.start_squares:
        shapes += _start_marks(position, at, palette)
    shapes.append(Lines(at.grid_lines(), GRID, GRID_WIDTH, GRID_OPACITY, "grid"))
    pieces = [(c.name, p) for c in position.colours for p in c.placed if p != marks.last]
    shapes += [
        Outline(loop, OUTLINE, OUTLINE_WIDTH, "piece", name)
        for name, p in pieces
        for loop in at.outline(p.squares)
    ]
    everything = frozenset(range(board.size))
    shapes += [Outline(loop, OUTLINE, OUTLINE_WIDTH, "frame") for loop in at.outline(everything)]
    if marks.last is not None:
        colour = position.owner[min(marks.last.squares)]
        for loop in at.outline(marks.last.squares):
            shapes.append(Outline(loop, OUTLINE, LAST_WIDTH, "piece", colour))
            shapes.append(Outline(loop, HIGHLIGHT, HIGHLIGHT_WIDTH, "last"))
    shapes += [
        Outline(_star(*at.centre(c)), OUTLINE, STAR_WIDTH, "star") for c in sorted(marks.stars)
    ]
    if marks.numbers:
        order = play_order(position) if marks.order is None else marks.order
        shapes += _numbers(lambda cells: at.centre(_middle_cell(at, cells)), fills, order)
    if coordinates:
        shapes += _cell_coordinates(at)
    return Scene(width, height, left, MARGIN, pixels, tuple(shapes))


def _cell_polygons(position: Position, at: Cells, fills: Mapping[Placement, str]) -> list[Polygon]:
    """Every cell of the board, in cell order: in its piece's fill, blocked, or empty."""
    piece = {c: p for colour in position.colours for p in colour.placed for c in p.squares}
    owner = position.owner
    out = []
    for c in range(position.board.size):
        if c in piece:
            out.append(Polygon(at.corners(c), fills[piece[c]], "cell", owner[c]))
        elif c in position.board.blocked:
            out.append(Polygon(at.corners(c), BLOCKED_FILL, "blocked"))
        else:
            out.append(Polygon(at.corners(c), EMPTY_FILL, "cell"))
    return out


def _start_marks(position: Position, at: Cells, palette: Mapping[str, str]) -> list[Circle]:
    """A dot on each free starting point shared by all colours (:data:`START_SHARED`) and
    on each colour's own free start square (in its colour), at the cell's centroid."""
    free = [c for c in sorted(position.starting_points) if c not in position.occupied]
    dots = [Circle(*at.centre(c), START_RADIUS, START_SHARED, "start") for c in free]
    return dots + [
        Circle(*at.centre(c.start), START_RADIUS, palette.get(c.name, OUTLINE), "start", c.name)
        for c in position.colours
        if c.start is not None and c.start not in position.occupied
    ]


def _middle_cell(at: Cells, cells: frozenset[int]) -> int:
    """The cell of a piece whose centroid is nearest the piece's (the lowest number on a
    tie)."""
    points = {c: at.centre(c) for c in cells}
    mx = sum(x for x, _ in points.values()) / len(points)
    my = sum(y for _, y in points.values()) / len(points)
    return min(cells, key=lambda c: ((points[c][0] - mx) ** 2 + (points[c][1] - my) ** 2, c))


def _cell_coordinates(at: Cells) -> list[Label]:
    """Pentobi's names of the naming rectangle: a column's letters below the board under
    the column's middle, a row's number left of the board level with the row's middle."""
    below = at.top + at.height + LABEL_BAND / 2
    height = at.geometry.height
    letters = [
        Label(x, below, column_name(col), LABEL_SIZE, LABEL, "coordinate")
        for col, x in sorted(at.column_centres.items())
    ]
    numbers = [
        Label(at.left / 2, y, str(height - row), LABEL_SIZE, LABEL, "coordinate")
        for row, y in sorted(at.row_centres.items())
    ]
    return letters + numbers


@dataclass(frozen=True)
class _Grid:
    """Where a board's squares are in the picture."""

    board: Board
    left: float
    top: float

    def corner(self, sq: int) -> Point:
        r, c = self.board.row_col(sq)
        return (self.left + c, self.top + r)

    def centre(self, sq: int) -> Point:
        x, y = self.corner(sq)
        return (x + 0.5, y + 0.5)

    def grid_lines(self) -> tuple[tuple[Point, Point], ...]:
        b, x0, y0 = self.board, self.left, self.top
        rows = tuple(((x0, y0 + r), (x0 + b.cols, y0 + r)) for r in range(1, b.rows))
        cols = tuple(((x0 + c, y0), (x0 + c, y0 + b.rows)) for c in range(1, b.cols))
        return rows + cols

    def outline(self, squares: frozenset[int]) -> tuple[Point, ...]:
        """The boundary of a set of squares as one closed loop of corners (clockwise on
        screen, collinear corners dropped), starting at the top-left corner of its first
        square in reading order."""
        cells = {self.board.row_col(sq) for sq in squares}
        # directed boundary edges, the piece on the right-hand side (clockwise on screen)
        step: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for r, c in cells:
            for (dr, dc), a, b in (
                ((-1, 0), (r, c), (r, c + 1)),  # top edge, left to right
                ((0, 1), (r, c + 1), (r + 1, c + 1)),  # right edge, downwards
                ((1, 0), (r + 1, c + 1), (r + 1, c)),  # bottom edge, right to left
                ((0, -1), (r + 1, c), (r, c)),  # left edge, upwards
            ):
                if (r + dr, c + dc) not in cells:
                    step.setdefault(a, []).append(b)
        start = min(cells)
        point = start
        loop = [point]
        heading = (0, 1)
        while True:
            options = step[point]
            # at a corner shared by two diagonal squares, turn right (stay on this square)
            nxt = min(options, key=lambda q: _turn(heading, (q[0] - point[0], q[1] - point[1])))
            options.remove(nxt)
            heading = (nxt[0] - point[0], nxt[1] - point[1])
            point = nxt
            if point == start:
                break
            loop.append(point)
        corners = [
            p
            for k, p in enumerate(loop)
            if not _collinear(loop[k - 1], p, loop[(k + 1) % len(loop)])
        ]
        return tuple((self.left + c, self.top + r) for r, c in corners)


def _star(x: float, y: float) -> tuple[Point, ...]:
    """A five-pointed star centred on (x, y), one point up: 10 corners."""
    points = []
    for k in range(10):
        r = STAR_RADIUS if k % 2 == 0 else STAR_RADIUS * 0.42
        angle = math.pi * k / 5
        points.append((round(x + r * math.sin(angle), 4), round(y - r * math.cos(angle), 4)))
    return tuple(points)


def _turn(heading: tuple[int, int], new: tuple[int, int]) -> int:
    """0 for a right turn, 1 straight on, 2 for a left turn (row, col steps; rows down)."""
    cross = heading[0] * new[1] - heading[1] * new[0]
    return 0 if cross < 0 else (1 if cross == 0 else 2)


def _collinear(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> bool:
    return (b[0] - a[0]) * (c[1] - b[1]) == (b[1] - a[1]) * (c[0] - b[0])


def _numbers(
    where: Callable[[frozenset[int]], Point],
    fills: Mapping[Placement, str],
    order: Sequence[tuple[str, Placement]],
) -> list[Label]:
    """The number of each piece of ``order`` on the board, at ``where(its squares)``."""
    labels = []
    for k, (_, p) in enumerate(order, start=1):
        if p not in fills:
            continue
        x, y = where(p.squares)
        text = str(k)
        size = LABEL_SIZE if len(text) < 3 else LABEL_SIZE * 0.8
        labels.append(Label(x, y, text, size, _text_colour(fills[p]), "number"))
    return labels


def _middle_square(board: Board, squares: frozenset[int]) -> int:
    """The square of a piece nearest its centre (the first in reading order on a tie)."""
    cells = [board.row_col(s) for s in squares]
    mr = sum(r for r, _ in cells) / len(cells)
    mc = sum(c for _, c in cells) / len(cells)
    return min(
        squares,
        key=lambda s: ((board.row_col(s)[0] - mr) ** 2 + (board.row_col(s)[1] - mc) ** 2, s),
    )


def _coordinates(board: Board, left: float, top: float) -> list[Label]:
    below = top + board.rows + LABEL_BAND / 2
    letters = [
        Label(left + c + 0.5, below, column_name(c), LABEL_SIZE, LABEL, "coordinate")
        for c in range(board.cols)
    ]
    numbers = [
        Label(left / 2, top + r + 0.5, str(board.rows - r), LABEL_SIZE, LABEL, "coordinate")
        for r in range(board.rows)
    ]
    return letters + numbers


def rgb(colour: str) -> tuple[int, int, int]:
    """``#rrggbb`` as (r, g, b). Raises ValueError for another form."""
    if len(colour) != 7 or colour[0] != "#":
        raise ValueError(f"colour {colour!r} is not #rrggbb")
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def _mix(colour: str, towards_white: float) -> str:
    r, g, b = (round(v + (255 - v) * towards_white) for v in rgb(colour))
    return f"#{r:02x}{g:02x}{b:02x}"


def _text_colour(fill: str) -> str:
    """Black on light fills, white on dark ones (relative luminance, sRGB weights)."""
    r, g, b = rgb(fill)
    return "#000000" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 140 else "#ffffff"
