"""Pictures: the SVG parses, shows one filled square per covered square and one outline per
piece that encloses exactly that piece, Pentobi's coordinates and each colour's fill; the
PNG decodes to the asked size with the same colours; both are deterministic."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import helpers
import pytest
from PIL import Image

from solver.backends.base import SolveOptions
from solver.core.board import Board
from solver.core.pieces import PIECES
from solver.core.placements import empty_board_placements
from solver.core.position import ColourState, Placement, Position
from solver.core.variants import VARIANTS
from solver.formats.game import load_game
from solver.formats.puzzle import load_puzzle
from solver.pictures import png, svg
from solver.pictures.picture import (
    COLOURS,
    EMPTY_FILL,
    FADE,
    first_placements,
    play_order,
    rgb,
    scene,
    with_layout,
)
from solver.tasks.solve import solve

NS = "{http://www.w3.org/2000/svg}"
UNIT = svg.UNIT
ROOT = helpers.ROOT
DUO_GAME = helpers.GAMES / "duo-L4-s29.blksgf"


def placement(board: Board, piece: str, *names: str) -> Placement:
    return Placement(piece, frozenset(board.parse(n) for n in names))


def small_position() -> Position:
    """5x5, c3 blocked: blue V3 and 2 (touching at a corner), green 1 on a1 next to a red
    2 (sharing an edge), yellow with nothing placed (start e5 free)."""
    board = Board(5, 5, frozenset({Board(5, 5).parse("c3")}))
    blue = (placement(board, "V3", "a5", "a4", "b5"), placement(board, "2", "b3", "b2"))
    return Position(
        board,
        (
            ColourState("blue", board.parse("a5"), blue, ("1",)),
            ColourState("yellow", board.parse("e5"), (), ("1",)),
            ColourState("red", board.parse("c1"), (placement(board, "2", "b1", "c1"),), ()),
            ColourState("green", board.parse("a1"), (placement(board, "1", "a1"),), ()),
        ),
    )


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg" and root.get("version") == "1.1"
    return root


def elements(root: ET.Element, tag: str, kind: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if e.get("class", "").split()[0] == kind]


def path_points(d: str) -> list[tuple[float, float]]:
    """The corners of a closed outline path "Mx,yLx,y...Z"."""
    assert d.startswith("M") and d.endswith("Z")
    return [tuple(float(v) for v in p.split(",")) for p in d[1:-1].split("L")]


def unit_edges(points, left: float, top: float) -> set[frozenset[tuple[int, int]]]:
    """The unit edges (pairs of grid corners (row, col)) a closed polygon runs along."""
    corners = [(round((y - top) / UNIT), round((x - left) / UNIT)) for x, y in points]
    edges = set()
    for (r0, c0), (r1, c1) in zip(corners, corners[1:] + corners[:1]):
        assert r0 == r1 or c0 == c1, "outlines run along grid lines"
        steps = max(abs(r1 - r0), abs(c1 - c0))
        dr, dc = (r1 - r0) // steps, (c1 - c0) // steps
        for k in range(steps):
            a = (r0 + k * dr, c0 + k * dc)
            edges.add(frozenset({a, (a[0] + dr, a[1] + dc)}))
    return edges


def square_edges(board: Board, sq: int) -> set[frozenset[tuple[int, int]]]:
    r, c = board.row_col(sq)
    a, b, d, e = (r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c)
    return {frozenset(p) for p in ((a, b), (b, d), (d, e), (e, a))}


def shoelace(points) -> float:
    return abs(
        sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1])) / 2
    )


def test_svg_of_a_small_position_squares_outlines_colours_coordinates():
    position = small_position()
    board = position.board
    root = parse(svg.board(position))
    squares = elements(root, "rect", "square")
    # one filled square per covered square, in its colour's fill
    assert len(squares) == 3 + 2 + 2 + 1
    by_colour = Counter(e.get("class").split()[1] for e in squares)
    assert by_colour == {"blue": 5, "red": 2, "green": 1}
    for e in squares:
        assert e.get("fill") == COLOURS[e.get("class").split()[1]]
    assert [e.get("fill") for e in elements(root, "rect", "board")] == [EMPTY_FILL]
    assert len(elements(root, "rect", "blocked")) == 1
    # one outline per piece; the free start square (yellow e5) is marked, covered ones not
    outlines = elements(root, "path", "piece")
    assert sorted(e.get("class") for e in outlines) == [
        "piece blue",
        "piece blue",
        "piece green",
        "piece red",
    ]
    starts = elements(root, "circle", "start")
    assert [e.get("class") for e in starts] == ["start yellow"]
    assert starts[0].get("fill") == COLOURS["yellow"]

    # Pentobi's coordinates: a1 is the lower-left square, letters below, numbers on the left
    frame = elements(root, "rect", "board")[0]
    left, top = float(frame.get("x")), float(frame.get("y"))
    green = [e for e in squares if "green" in e.get("class")][0]
    assert (float(green.get("x")), float(green.get("y"))) == (left, top + 4 * UNIT)
    blocked = elements(root, "rect", "blocked")[0]  # c3: third column, middle row
    assert (float(blocked.get("x")), float(blocked.get("y"))) == (left + 2 * UNIT, top + 2 * UNIT)
    labels = {e.text: e for e in elements(root, "text", "coordinate")}
    assert sorted(labels) == ["1", "2", "3", "4", "5", "a", "b", "c", "d", "e"]
    bottom = top + 5 * UNIT
    for k, letter in enumerate("abcde"):
        assert float(labels[letter].get("x")) == left + (k + 0.5) * UNIT
        assert float(labels[letter].get("y")) > bottom
    for k in range(5):  # row k from the top is number 5 - k
        y = float(labels[str(5 - k)].get("y"))
        assert top + k * UNIT < y < top + (k + 1) * UNIT
        assert float(labels[str(5 - k)].get("x")) < left

    # each outline encloses exactly its piece's squares: its edges are the piece's
    # boundary (thick between pieces, none inside a piece)
    pieces = [(c.name, p) for c in position.colours for p in c.placed]
    for e in outlines:
        edges = unit_edges(path_points(e.get("d")), left, top)
        matches = [
            p
            for name, p in pieces
            if name == e.get("class").split()[1]
            and edges == _boundary(board, p.squares)
            and shoelace(path_points(e.get("d"))) == len(p.squares) * UNIT * UNIT
        ]
        assert len(matches) == 1
    # the red domino shares an edge with the green monomino (a1|b1) and with the blue
    # domino (b2|b1): both pieces' outlines run along it
    shared = frozenset({(4, 1), (5, 1)})  # the edge between a1 and b1
    assert sum(shared in unit_edges(path_points(e.get("d")), left, top) for e in outlines) == 2


def _boundary(board: Board, squares: frozenset[int]) -> set[frozenset[tuple[int, int]]]:
    edges: Counter = Counter()
    for sq in squares:
        edges.update(square_edges(board, sq))
    return {e for e, n in edges.items() if n == 1}


def test_every_orientation_has_one_closed_outline_of_its_area_and_perimeter():
    table = empty_board_placements(8, 8)
    board = Board(8, 8)
    seen = set()
    for k in range(len(table.piece)):
        sq = table.squares[k]
        squares = frozenset(int(s) for s in sq[sq >= 0])
        rows, cols = zip(*(board.row_col(s) for s in squares))
        shape = frozenset((r - min(rows), c - min(cols)) for r, c in zip(rows, cols))
        if shape in seen:
            continue
        seen.add(shape)
        position = Position(board, (ColourState("blue", None, (Placement("X", squares),)),))
        outline = [s for s in scene(position).shapes if getattr(s, "kind", "") == "piece"][0]
        points = [(x * UNIT, y * UNIT) for x, y in outline.points]
        left, top = scene(position).left * UNIT, scene(position).top * UNIT
        assert shoelace(points) == len(squares) * UNIT * UNIT
        assert unit_edges(points, left, top) == _boundary(board, squares)
        assert len(points) == len(set(points))  # a simple loop, collinear corners dropped
    assert len(seen) == 91


def test_numbers_follow_the_order_of_play_and_the_last_piece_is_highlighted():
    game = load_game(DUO_GAME)
    position = game.position(10)
    order = [(m.colour, m.placement) for m in game.moves if m.placement][:10]
    root = parse(svg.board(position, numbers=True, order=order, last=order[-1][1]))
    numbers = elements(root, "text", "number")
    assert [e.text for e in numbers] == [str(k) for k in range(1, 11)]
    board = position.board
    frame = elements(root, "rect", "board")[0]
    left, top = float(frame.get("x")), float(frame.get("y"))
    for e, (_, p) in zip(numbers, order):  # each number is on a square of its piece
        col = int((float(e.get("x")) - left) // UNIT)
        row = int((float(e.get("y")) - top) // UNIT)
        assert board.square(row, col) in p.squares
    # text colour readable on its piece: black on orange, white on purple
    assert {e.get("fill") for e, (c, _) in zip(numbers, order) if c == "orange"} == {"#000000"}
    assert {e.get("fill") for e, (c, _) in zip(numbers, order) if c == "purple"} == {"#ffffff"}
    assert {c for c in COLOURS if f"square {c}" in {e.get("class") for e in root.iter()}} == {
        "purple",
        "orange",
    }
    last = elements(root, "path", "last")
    assert len(last) == 1 and len(elements(root, "path", "piece")) == 10
    assert unit_edges(path_points(last[0].get("d")), left, top) == _boundary(
        board, order[-1][1].squares
    )
    with pytest.raises(ValueError, match="not on the board"):
        svg.board(game.position(5), last=order[-1][1])


def test_new_pieces_stand_out_and_options_are_checked():
    position = small_position()
    blue_v3 = position.colour("blue").placed[0]
    root = parse(svg.board(position, new=[blue_v3], coordinates=False, start_squares=False))
    fills = {e.get("fill") for e in elements(root, "rect", "square") if "blue" in e.get("class")}
    assert len(fills) == 2 and COLOURS["blue"] in fills  # the other blue piece is paler
    assert not elements(root, "text", "coordinate") and not elements(root, "circle", "start")
    with pytest.raises(ValueError, match="at least 1"):
        svg.board(position, size=0)
    custom = parse(svg.board(position, colours={"blue": "#123456"}))
    assert {
        e.get("fill") for e in elements(custom, "rect", "square") if "blue" in e.get("class")
    } == {"#123456"}


def test_svg_size_and_determinism():
    position = Position.empty(VARIANTS["classic"])
    text = svg.board(position, size=400)
    root = parse(text)
    assert root.get("width") == "400"
    width, height = (float(v) for v in root.get("viewBox").split()[2:])
    assert int(root.get("height")) == round(400 * height / width)
    assert text == svg.board(Position.empty(VARIANTS["classic"]), size=400)
    # the four start corners are marked in their colours: blue a20 top-left, red t1
    # lower-right
    starts = {e.get("class").split()[1]: e for e in elements(root, "circle", "start")}
    assert float(starts["blue"].get("cx")) < float(starts["red"].get("cx"))
    assert float(starts["blue"].get("cy")) < float(starts["red"].get("cy"))
    assert float(starts["green"].get("cy")) == float(starts["red"].get("cy"))


def test_png_decodes_to_the_asked_size_with_the_colours():
    position = small_position()
    data = png.board(position, size=300)
    image = Image.open(io.BytesIO(data))
    image.load()
    picture = scene(position, size=300)
    assert image.format == "PNG" and image.size == (300, picture.pixel_height)
    assert data == png.board(small_position(), size=300)  # deterministic
    k = picture.scale
    board = position.board

    def pixel(name: str):
        r, c = board.row_col(board.parse(name))
        return image.getpixel((int((picture.left + c + 0.5) * k), int((picture.top + r + 0.5) * k)))

    def close(actual, expected):
        return all(abs(a - b) <= 6 for a, b in zip(actual, expected))

    assert close(pixel("a4"), rgb(COLOURS["blue"]))
    assert close(pixel("c1"), rgb(COLOURS["red"]))
    assert close(pixel("a1"), rgb(COLOURS["green"]))
    assert close(pixel("e5"), rgb(COLOURS["yellow"]))  # the start dot
    assert close(pixel("d4"), rgb(EMPTY_FILL))
    # default size: 24 pixels per square of the picture
    default = Image.open(io.BytesIO(png.board(position)))
    assert default.size[0] == round(24 * picture.width)


def test_play_order_and_first_placements():
    position = small_position()
    order = play_order(position)
    assert [(c, p.piece) for c, p in order] == [
        ("blue", "V3"),
        ("red", "2"),
        ("green", "1"),
        ("blue", "2"),
    ]
    two = first_placements(position, order, 2)
    assert [len(c.placed) for c in two.colours] == [1, 0, 1, 0]
    assert sorted(two.colour("blue").remaining) == ["1", "2"]
    assert sorted(two.colour("green").remaining) == ["1"]
    back = with_layout(two, {"green": [order[2][1]], "blue": [order[3][1]]})
    assert back.occupied == position.occupied
    with pytest.raises(ValueError):
        first_placements(position, order, 5)


def test_repr_svg_for_notebooks():
    from solver.answers.solution import read_solution

    solution = read_solution(ROOT / "results" / "classic-solo-84.json")
    root = parse(solution._repr_svg_())
    assert len(elements(root, "rect", "square")) == 4 * sum(p.size for p in PIECES.values())
    assert len(elements(root, "path", "piece")) == 84
    root = parse(Position.empty(VARIANTS["duo"])._repr_svg_())
    assert not elements(root, "rect", "square") and len(elements(root, "circle", "start")) == 2
    # a solver's answer: its final board, the piece already there paler, the square to
    # cover starred (as solve --out draws it)
    problem = load_puzzle(helpers.PUZZLES / "cards" / "cover-2-medium.toml")
    result = solve(problem, SolveOptions(backend="search"))
    root = parse(result._repr_svg_())
    fills = Counter(e.get("fill") for e in elements(root, "rect", "square"))
    assert fills == {COLOURS["blue"]: 3 + 4 + 4, _paler(COLOURS["blue"]): 2}
    assert len(elements(root, "path", "star")) == 1


def _paler(colour: str) -> str:
    return "#" + "".join(f"{round(v + (255 - v) * FADE):02x}" for v in rgb(colour))


def test_svg_is_the_same_bytes_in_every_process():
    """No order that Python's string hashing decides (it changes from run to run) reaches
    the picture."""
    code = (
        "import hashlib, sys; sys.path.insert(0, 'tests'); import test_pictures as t; "
        "from solver.pictures import svg; from solver.formats.game import load_game; "
        "g = load_game(t.DUO_GAME); o = [(m.colour, m.placement) for m in g.moves if m.placement][:20]; "
        "p = g.position(20); "
        "print(hashlib.sha256((svg.board(t.small_position()) + svg.board(p, numbers=True, "
        "order=o, last=o[-1][1], new=[q for _, q in o[10:]])).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(digests) == 1 and len(digests.pop()) == 65


SVG11_DTD = Path("/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd")


@pytest.mark.skipif(
    not (SVG11_DTD.exists() and shutil.which("xmllint")),
    reason="needs xmllint and the SVG 1.1 DTD (Debian: libxml2-utils, w3c-sgml-lib)",
)
def test_svg_is_valid_svg_1_1(tmp_path):
    game = load_game(DUO_GAME)
    order = [(m.colour, m.placement) for m in game.moves if m.placement][:20]
    for k, text in enumerate(
        (
            svg.board(small_position()),
            svg.board(game.position(20), numbers=True, order=order, last=order[-1][1]),
        )
    ):
        path = tmp_path / f"{k}.svg"
        path.write_text(text)
        check = subprocess.run(
            ["xmllint", "--noout", "--dtdvalid", str(SVG11_DTD), str(path)],
            capture_output=True,
            text=True,
        )
        assert check.returncode == 0, check.stderr
