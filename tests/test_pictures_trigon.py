"""Pictures of Trigon boards (issue 43): one polygon per triangle, pointing up or down as
Pentobi's (x, y) says, filled in its owner's colour from a game record of Pentobi's; the
free starting points marked; one outline per piece enclosing exactly its triangles;
Pentobi's names along the naming rectangle; the PNG shows the same colours; ``show``
draws Trigon records. The model of where a triangle is drawn is written out here, not
read from the code: one naming column is 1 wide (``svg.UNIT`` user units), a triangle's
edge 2, a row sqrt(3) high."""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import helpers
import pytest
from click.testing import CliRunner
from PIL import Image
from test_pictures import elements, parse, shoelace  # the SVG's elements by class

from solver.cli.commands import main
from solver.core.board import Board
from solver.core.geometry.base import letters
from solver.core.placements import empty_board_placements
from solver.core.position import Position
from solver.core.variants import ALL_VARIANTS
from solver.formats.game import load_game
from solver.pictures import png, svg
from solver.pictures.cells import Cells
from solver.pictures.picture import (
    COLOURS,
    EMPTY_FILL,
    START_SHARED,
    _Grid,
    first_placements,
    rgb,
    scene,
)

UNIT = svg.UNIT
ROW = math.sqrt(3)  # a row of triangles' height, in naming columns
GAME = helpers.ROOT / "tests" / "data" / "trigon" / "trigon-L1-s9100.blksgf"
STARTING_POINTS = {"r15", "r4", "j12", "j7", "z12", "z7"}  # Pentobi's, side 9


def game_and_order():
    game = load_game(str(GAME))
    order = [(m.colour, m.placement) for m in game.moves if m.placement is not None]
    return game, order


def polygon_points(e: ET.Element) -> list[tuple[float, float]]:
    """A polygon's corners in naming columns (user units / UNIT)."""
    return [
        (float(x) / UNIT, float(y) / UNIT)
        for x, y in (p.split(",") for p in e.get("points").split())
    ]


def path_points(d: str) -> list[tuple[float, float]]:
    """The corners of a closed outline path "Mx,yLx,y...Z", in naming columns."""
    assert d.startswith("M") and d.endswith("Z")
    return [tuple(float(v) / UNIT for v in p.split(",")) for p in d[1:-1].split("L")]


def perimeter(points) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:] + points[:1]))


def name_of(corners, left: float, top: float) -> tuple[str, bool]:
    """The Pentobi name of the triangle with these corners (the model: column x's middle
    at left + x + 1, row y from top + y * sqrt(3)), and whether it points up (one corner
    on top)."""
    cx = sum(x for x, _ in corners) / 3
    cy = sum(y for _, y in corners) / 3
    x = round(cx - left - 1)
    y = math.floor((cy - top) / ROW)
    top_y = min(y for _, y in corners)
    up = sum(abs(py - top_y) < 1e-6 for _, py in corners) == 1
    return f"{letters(x)}{18 - y}", up


def test_every_triangle_once_the_right_way_up_in_its_owners_colour():
    game, _ = game_and_order()
    position = game.position()
    board = position.board
    picture = scene(position)
    root = parse(svg.board(position))
    cells = elements(root, "polygon", "cell")
    assert len(cells) == 486 and len(elements(root, "rect", "square")) == 0
    named = {}
    for e in cells:
        name, up = name_of(polygon_points(e), picture.left, picture.top)
        x, y = board.geometry.coords[board.parse(name)]
        assert up == ((x + y) % 2 == 0), name  # Pentobi: up when x + y is even (side 9)
        named[name] = e
    assert len(named) == 486  # each triangle drawn once
    owner = position.owner
    for name, e in named.items():
        colour = owner.get(board.parse(name))
        assert e.get("class") == (f"cell {colour}" if colour else "cell")
        assert e.get("fill") == (COLOURS[colour] if colour else EMPTY_FILL)
    # the game's first moves, as Pentobi wrote them
    assert {n: named[n].get("fill") for n in ("t12", "r15", "r4", "r7", "j12", "y7")} == {
        "t12": COLOURS["blue"],
        "r15": COLOURS["blue"],
        "r4": COLOURS["yellow"],
        "r7": COLOURS["yellow"],
        "j12": COLOURS["red"],
        "y7": COLOURS["green"],
    }
    by_colour = Counter(e.get("class").split()[1] for e in cells if " " in e.get("class"))
    assert by_colour == Counter(owner.values())
    assert sum(by_colour.values()) < 486  # some triangles are left empty


def test_one_outline_per_piece_enclosing_its_triangles_and_the_hexagon_frame():
    game, _ = game_and_order()
    position = game.position()
    board = position.board
    root = parse(svg.board(position))
    pieces = [(c.name, p) for c in position.colours for p in c.placed]
    outlines = elements(root, "path", "piece")
    assert len(outlines) == len(pieces) == 77
    triangle = ROW  # the area of a triangle of edge 2
    expected = Counter()
    for name, p in pieces:
        inner = sum(1 for a in p.squares for b in board.edge_neighbours[a] if b in p.squares)
        edges = 3 * len(p.squares) - inner  # inner counts each shared edge twice
        expected[(name, round(len(p.squares) * triangle, 2), round(2 * edges, 2))] += 1
    found = Counter()
    for e in outlines:
        points = path_points(e.get("d"))
        found[
            (e.get("class").split()[1], round(shoelace(points), 2), round(perimeter(points), 2))
        ] += 1
    assert found == expected
    (frame,) = elements(root, "path", "frame")
    hexagon = path_points(frame.get("d"))
    assert len(hexagon) == 6 and shoelace(hexagon) == pytest.approx(486 * triangle, rel=1e-4)
    assert perimeter(hexagon) == pytest.approx(6 * 9 * 2, rel=1e-4)


def test_free_starting_points_are_marked():
    empty = Position.empty(ALL_VARIANTS["trigon"])
    picture = scene(empty)
    root = parse(svg.board(empty))
    starts = elements(root, "circle", "start")
    assert all(e.get("fill") == START_SHARED for e in starts)
    board = empty.board
    polygons = {
        name_of(polygon_points(e), picture.left, picture.top)[0]: polygon_points(e)
        for e in elements(root, "polygon", "cell")
    }

    def marked(circles) -> set[str]:
        out = set()
        for e in circles:
            cx, cy = float(e.get("cx")) / UNIT, float(e.get("cy")) / UNIT
            (name,) = [
                n
                for n, ps in polygons.items()
                if math.dist((cx, cy), (sum(x for x, _ in ps) / 3, sum(y for _, y in ps) / 3))
                < 1e-3
            ]
            out.add(name)
        return out

    assert marked(starts) == STARTING_POINTS
    assert {board.name(c) for c in empty.starting_points} == STARTING_POINTS
    game, _ = game_and_order()
    after = game.position(10)
    assert marked(elements(parse(svg.board(after)), "circle", "start")) == {"j7", "z12"}
    assert elements(parse(svg.board(game.position())), "circle", "start") == []
    assert elements(parse(svg.board(empty, start_squares=False)), "circle", "start") == []


def test_coordinates_name_the_naming_rectangle():
    empty = Position.empty(ALL_VARIANTS["trigon"])
    picture = scene(empty)
    root = parse(svg.board(empty))
    labels = [e.text for e in elements(root, "text", "coordinate")]
    assert labels == [letters(x) for x in range(35)] + [str(n) for n in range(18, 0, -1)]
    texts = {e.text: e for e in elements(root, "text", "coordinate")}
    # "i" under the top row's first triangle i18, "ai" under the middle row's last, a9
    for letter, x in (("a", 0), ("i", 8), ("ai", 34)):
        assert float(texts[letter].get("x")) / UNIT == pytest.approx(picture.left + x + 1)
    # each row number between its row's top and bottom, left of the board
    for n in (18, 9, 1):
        y = float(texts[str(n)].get("y")) / UNIT
        row_top = picture.top + (18 - n) * ROW
        assert row_top < y < row_top + ROW
        assert float(texts[str(n)].get("x")) / UNIT < picture.left
    assert picture.width == pytest.approx(picture.left + 36 + 0.25)
    assert picture.height == pytest.approx(0.25 + 18 * ROW + 1)
    assert elements(parse(svg.board(empty, coordinates=False)), "text", "coordinate") == []


def test_png_colours_at_known_triangles():
    game, order = game_and_order()
    position = game.position(20)
    data = png.board(position)
    image = Image.open(io.BytesIO(data))
    picture = scene(position)
    assert image.format == "PNG" and image.size == (round(24 * picture.width), picture.pixel_height)
    assert data == png.board(game.position(20))  # deterministic
    board = position.board
    k = picture.scale

    def pixel(name: str):
        x, y = board.geometry.coords[board.parse(name)]
        up = (x + y) % 2 == 0
        cx = picture.left + x + 1
        cy = picture.top + y * ROW + (2 / 3 if up else 1 / 3) * ROW  # the centroid
        return image.getpixel((round(cx * k), round(cy * k)))

    def close(actual, expected):
        return all(abs(a - b) <= 6 for a, b in zip(actual, expected, strict=True))

    owner = position.owner
    for name in ("t12", "r15", "r4", "r7", "j12", "y7", "o11", "m11"):
        assert close(pixel(name), rgb(COLOURS[owner[board.parse(name)]])), name
    assert close(pixel("a9"), rgb(EMPTY_FILL)) and close(pixel("i18"), rgb(EMPTY_FILL))
    assert close(pixel("j7"), rgb(START_SHARED))  # a free starting point's dot


def test_outline_of_any_grid_agrees_with_the_square_pictures():
    """The polygon path's outlines, on the square grid, are the square pictures' own for
    every orientation of every piece; two triangles touching at a corner are two loops."""
    board = Board(8, 8)
    at, grid = Cells(board, 1.0, 0.25), _Grid(board, 1.0, 0.25)
    orientations = {}  # one placement per shape, by the shape moved to the top-left corner
    for row in empty_board_placements(8, 8).squares:
        squares = frozenset(int(s) for s in row if s >= 0)
        cells = [board.row_col(s) for s in squares]
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        orientations.setdefault(frozenset((r - r0, c - c0) for r, c in cells), squares)
    assert len(orientations) == 91
    for squares in orientations.values():
        assert at.outline(squares) == (grid.outline(squares),)
    trigon = Board.trigon(9)
    cells = Cells(trigon, 0.0, 0.0)
    up, down = trigon.parse("r15"), trigon.parse("r16")  # touch at r15's apex only
    assert down not in trigon.edge_neighbours[up] and down in trigon.corner_neighbours[up]
    loops = cells.outline(frozenset({up, down}))
    assert [len(loop) for loop in loops] == [3, 3]
    assert [shoelace(loop) for loop in loops] == pytest.approx([ROW, ROW])


def test_first_placements_keeps_trigon_pieces_in_their_order():
    game, order = game_and_order()
    earlier = first_placements(game.position(), order, 10)
    assert [c.remaining for c in earlier.colours] == [
        c.remaining for c in game.position(10).colours
    ]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_show_draws_a_trigon_record(tmp_path: Path, suffix: str):
    out = tmp_path / f"trigon{suffix}"
    result = run("show", GAME, "--after", 10, "--out", out, "--numbers")
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {out}\n"
    position = load_game(str(GAME)).position(10)
    if suffix == ".svg":
        root = ET.parse(out).getroot()
        classes = [e.get("class", "") for e in root.iter()]
        assert sum(c.startswith("cell") for c in classes) == 486
        assert sum(c.startswith("cell ") for c in classes) == len(position.occupied) == 60
        assert sum(c.startswith("piece ") for c in classes) == 10
        assert classes.count("number") == 10 and classes.count("last") == 1
    else:
        image = Image.open(out)
        assert image.size == (round(24 * scene(position).width), scene(position).pixel_height)


def test_show_bad_after_on_a_trigon_record_is_one_line_exit_2(tmp_path: Path):
    result = run("show", GAME, "--after", 78, "--out", tmp_path / "x.svg")
    assert result.exit_code == 2, result.output
    assert "the game has 77 placements; there is no position after 78" in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []
