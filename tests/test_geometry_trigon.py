"""solver.core.geometry for Blokus Trigon, checked against Pentobi's facts and games.

Facts from Pentobi's source (libpentobi_base): TrigonGeometry.cpp (the hexagon, the
triangles' directions, get_adj_coord / get_diag_coord), StartingPoints.cpp, Variant.cpp,
BoardConst.cpp (create_pieces_trigon), Move.h (onboard_moves_trigon = 32131,
onboard_moves_trigon_3 = 24859); and 26 games of Pentobi's engine with its all_legal
counts (tests/data/trigon/README.md).
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from solver.core.geometry.reference import legal_rows
from solver.core.geometry.shapes import TRIGON_PIECES, PlacementList, enumerate_placements
from solver.core.geometry.trigon import TrigonGeometry
from solver.errors import SquareError
from solver.formats.sgf import parse

DATA = Path(__file__).parent / "data" / "trigon"
GAMES = sorted(DATA.glob("*.blksgf"))


@cache
def table(side: int) -> PlacementList:
    return enumerate_placements(TrigonGeometry(side), TRIGON_PIECES)


def side_of(name: str) -> int:
    """Trigon Three-Player is played on side 8, the others on side 9 (Variant.cpp)."""
    return 8 if name.startswith("trigon_3") else 9


@cache
def game_moves(name: str) -> tuple[tuple[str, frozenset[int]], ...]:
    """(colour, cells) of each move of a vendored game, in order."""
    geo = TrigonGeometry(side_of(name))
    (tree,) = parse((DATA / name).read_text(), name)
    root = tree.main_line()[0]
    assert root.get("GM") is not None
    assert root.get("GM").value == (
        "Blokus Trigon Three-Player" if side_of(name) == 8 else "Blokus Trigon"
    )
    moves = []
    for node in tree.main_line()[1:]:
        for prop in node.properties:
            if prop.ident in ("1", "2", "3", "4"):
                moves.append((prop.ident, geo.parse_move(prop.value)))
    return tuple(moves)


# --- the board ---------------------------------------------------------------------------


@pytest.mark.parametrize("side,cells,width,height", [(9, 486, 35, 18), (8, 384, 31, 16)])
def test_hexagon_size_and_naming_rectangle(side, cells, width, height):
    geo = TrigonGeometry(side)
    assert geo.size == cells == 6 * side * side
    assert (geo.width, geo.height) == (width, height)
    xs = [x for x, _ in geo.coords]
    assert (min(xs), max(xs)) == (0, width - 1)
    # the top row is 2 * side + 1 triangles long, the middle rows span the whole width
    assert sum(1 for _, y in geo.coords if y == 0) == 2 * side + 1
    assert sum(1 for _, y in geo.coords if y == side - 1) == width


def test_names_as_pentobi_writes_them():
    geo = TrigonGeometry(9)
    # the corners of the hexagon: top row y=0 is row 18, x from 8 to 26
    assert geo.names[0] == "i18" and geo.names[18] == "aa18"
    assert geo.names[-1] == "aa1"
    assert geo.parse("ai10") == geo.cell_at[(34, 8)] and geo.parse("AI9") == geo.cell_at[(34, 9)]
    assert geo.parse("a9") == geo.cell_at[(0, 9)]
    assert [geo.parse(n) for n in geo.names] == list(range(486))
    for off in ("ai11", "a1", "h18", "aj9", "a19", "a0"):
        with pytest.raises(SquareError):
            geo.parse(off)
    with pytest.raises(SquareError):
        TrigonGeometry(1)


@pytest.mark.parametrize("side", [9, 8])
def test_neighbours_are_pentobis(side):
    # TrigonGeometry.cpp: a triangle of point type 0 (up: on an odd side when x + y is
    # even, on an even side when it is odd) has the edge neighbours (x-1,y), (x+1,y),
    # (x,y+1) and the corner neighbours (x-2,y), (x+2,y), (x-1,y-1), (x+1,y-1), (x+1,y+1),
    # (x-1,y+1), (x,y-1), (x-2,y+1), (x+2,y+1); type 1 (down) the same with y mirrored
    geo = TrigonGeometry(side)
    at = {xy: i for i, xy in enumerate(geo.coords)}
    adj = ((-1, 0), (1, 0), (0, 1))
    diag = ((-2, 0), (2, 0), (-1, -1), (1, -1), (1, 1), (-1, 1), (0, -1), (-2, 1), (2, 1))
    for cell, (x, y) in enumerate(geo.coords):
        up = (x + y) % 2 == side % 2 ^ 1
        assert geo.is_up(cell) == up
        sign = 1 if up else -1
        edge = {at[(x + dx, y + sign * dy)] for dx, dy in adj if (x + dx, y + sign * dy) in at}
        corner = {at[(x + dx, y + sign * dy)] for dx, dy in diag if (x + dx, y + sign * dy) in at}
        assert set(geo.edge_neighbours[cell]) == edge
        assert set(geo.corner_neighbours[cell]) == corner
    assert geo.edge_table.shape == (geo.size, 3) and geo.corner_table.shape == (geo.size, 9)
    # inside the hexagon every triangle has 3 and 9; on its rim (54 edges on side 9, one
    # edge each) a triangle has 2 edge neighbours
    assert sum(len(n) == 2 for n in geo.edge_neighbours) == 6 * side
    assert sum(len(n) for n in geo.edge_neighbours) == 3 * geo.size - 6 * side


def test_starting_points_are_pentobis_and_symmetric():
    nine, eight = TrigonGeometry(9), TrigonGeometry(8)
    # StartingPoints.cpp: (17,3), (17,14), (9,6), (9,11), (25,6), (25,11) on side 9
    assert [nine.names[c] for c in nine.starting_points] == ["r15", "r4", "j12", "j7", "z12", "z7"]
    assert [eight.names[c] for c in eight.starting_points] == [
        "p14",
        "p3",
        "h11",
        "h6",
        "x11",
        "x6",
    ]
    for geo in (nine, eight):
        starts = set(geo.starting_points)
        for perm in geo.symmetries:
            assert {int(perm[c]) for c in starts} == starts
    with pytest.raises(SquareError):
        _ = TrigonGeometry(7).starting_points


@pytest.mark.parametrize("side", [9, 8])
def test_the_twelve_symmetries(side):
    geo = TrigonGeometry(side)
    perms = geo.symmetries
    assert perms.shape == (12, geo.size) and perms.dtype == np.int32
    assert geo.symmetry_names[0] == "identity" and np.array_equal(perms[0], np.arange(geo.size))
    assert len({p.tobytes() for p in perms}) == 12
    for p in perms:
        assert sorted(p.tolist()) == list(range(geo.size))
        for table in (geo.edge_neighbours, geo.corner_neighbours):
            for c in range(geo.size):
                assert {int(p[n]) for n in table[c]} == set(table[int(p[c])])
        assert sum(geo.is_up(int(p[c])) for c in range(geo.size)) == geo.size // 2
    # closed under composition; the turn by 60 degrees has order 6, the mirror order 2
    keys = {p.tobytes() for p in perms}
    assert all(a[b].tobytes() in keys for a in perms for b in perms)
    rot60, mirror = perms[geo.symmetry_names.index("rot60")], perms[6]
    power = np.arange(geo.size)
    for k in range(1, 7):
        power = rot60[power]
        assert np.array_equal(power, np.arange(geo.size)) == (k == 6)
    assert np.array_equal(mirror[mirror], np.arange(geo.size))
    # the mirror is left-right: a9 <-> ai9 on side 9; the half turn maps a row to its twin
    if side == 9:
        assert geo.names[mirror[geo.parse("a9")]] == "ai9"
        half = perms[geo.symmetry_names.index("rot180")]
        assert geo.names[half[geo.parse("i18")]] == "aa1"


def test_polygons_are_unit_triangles():
    geo = TrigonGeometry(9)
    poly = geo.polygons
    assert poly.shape == (486, 3, 2)
    sides = np.linalg.norm(poly - np.roll(poly, 1, axis=1), axis=2)
    assert np.allclose(sides, 1.0)
    assert np.allclose(poly.reshape(-1, 2).min(axis=0), 0)
    assert np.allclose(poly.reshape(-1, 2).max(axis=0), [18, 18 * math.sqrt(3) / 2])


# --- the pieces and placements -----------------------------------------------------------


def test_the_22_pieces():
    names = [p.name for p in TRIGON_PIECES]
    assert names == "I6 L6 V S P6 F W A6 G Y X O I5 L5 C5 P5 I4 C4 A4 I3 2 1".split()
    assert sum(p.size for p in TRIGON_PIECES) == 110
    assert [p.size for p in TRIGON_PIECES] == [6] * 12 + [5] * 4 + [4] * 3 + [3, 2, 1]
    for p in TRIGON_PIECES:
        assert len(p.orientations) in (1, 2, 3, 6, 12)
        assert all(len(o) == p.size for o in p.orientations)
    by_name = {p.name: len(p.orientations) for p in TRIGON_PIECES}
    # the hexagon O is fixed by all 12 transforms, the single triangle by 6 (up or down)
    assert by_name["O"] == 1 and by_name["1"] == 2 and by_name["2"] == 3 and by_name["X"] == 3


@pytest.mark.parametrize("side,count", [(9, 32131), (8, 24859)])
def test_placement_counts_are_pentobis(side, count):
    placements = table(side)
    assert len(placements) == count  # Move.h: onboard_moves_trigon, onboard_moves_trigon_3
    assert len(placements.by_cells) == count  # no set of triangles twice
    sizes = (placements.cells >= 0).sum(axis=1)
    assert np.array_equal(sizes, [TRIGON_PIECES[p].size for p in placements.piece_list])
    # every placement is connected through edges
    geo = placements.geometry
    for cs in placements.cell_sets[::97]:
        seen, todo = set(), [min(cs)]
        while todo:
            c = todo.pop()
            seen.add(c)
            todo.extend(n for n in geo.edge_neighbours[c] if n in cs and n not in seen)
        assert seen == cs


# --- the games and Pentobi's legal-move counts -------------------------------------------


def test_every_move_of_the_26_games_is_a_trigon_placement_and_the_scores_are_pentobis():
    scores = {}
    for line in (DATA / "scores.txt").read_text().splitlines():
        words = line.split()
        scores[words[0]] = (int(words[2]), [int(w) for w in words[4:]])
    assert len(GAMES) == 26 and set(scores) == {g.name for g in GAMES}
    for game in GAMES:
        placements = table(side_of(game.name))
        moves = game_moves(game.name)
        count, points = scores[game.name]
        assert len(moves) == count
        colours = "123" if side_of(game.name) == 8 else "1234"
        got = []
        for colour in colours:
            pieces = [
                placements.piece_list[placements.by_cells[cs]] for c, cs in moves if c == colour
            ]
            assert len(pieces) == len(set(pieces))  # no piece twice
            triangles = sum(TRIGON_PIECES[p].size for p in pieces)
            bonus = 0
            if len(pieces) == 22:
                bonus = 15 + (5 if TRIGON_PIECES[pieces[-1]].name == "1" else 0)
            got.append(triangles + bonus)
        assert got == points, game.name


def oracle_lines() -> list[dict]:
    lines = []
    for name in ("oracle-trigon.jsonl", "oracle-trigon_3.jsonl"):
        lines += [json.loads(t) for t in (DATA / name).read_text().splitlines()]
    return lines


def legal_count(name: str, move_number: int, colour: str) -> int:
    """The reference rules' number of legal moves of a colour after ``move_number``
    placements of a vendored game."""
    placements = table(side_of(name))
    geo = placements.geometry
    assert isinstance(geo, TrigonGeometry)
    own: set[int] = set()
    occupied: set[int] = set()
    placed: set[int] = set()
    for c, cells in game_moves(name)[:move_number]:
        occupied |= cells
        if c == colour:
            own |= cells
            placed.add(placements.piece_list[placements.by_cells[cells]])
    return len(legal_rows(placements, own, occupied, placed, geo.starting_points))


def test_first_moves_on_the_empty_board():
    # oracle: 2478 legal first moves for every colour on both boards
    assert legal_count("trigon-L1-s9100.blksgf", 0, "1") == 2478
    assert legal_count("trigon_3-L1-s9200.blksgf", 0, "3") == 2478


def test_all_784_oracle_counts_are_reproduced():
    lines = oracle_lines()
    assert len(lines) == 784 and len({(x["file"], x["move_number"]) for x in lines}) == 208
    wrong = [
        (x["file"], x["move_number"], x["colour"], x["legal_count"], got)
        for x in lines
        if (got := legal_count(str(x["file"]), int(x["move_number"]), str(x["colour"])))
        != x["legal_count"]
    ]
    assert wrong == []
    # the counts are not all alike: the test sees real positions, zeros included
    counts = [x["legal_count"] for x in lines]
    assert 0 in counts and max(counts) == 2478
