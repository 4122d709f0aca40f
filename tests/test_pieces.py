"""The piece set: names, aliases, orientation counts (reference: Pentobi, libpentobi_base)."""

import pytest

from solver.core.pieces import PIECE_NAMES, PIECES, canonical_name, identify, orientations_of
from solver.errors import PieceError

EXPECTED_ORIENTATIONS = {
    **dict.fromkeys(["1", "O", "X"], 1),
    **dict.fromkeys(["2", "I3", "I4", "I5"], 2),
    **dict.fromkeys(["V3", "T4", "Z4", "T5", "U", "V5", "W", "Z5"], 4),
    **dict.fromkeys(["L4", "L5", "N", "P", "F", "Y"], 8),
}


def test_names_and_sizes():
    assert PIECE_NAMES == (
        "1",
        "2",
        "I3",
        "V3",
        "I4",
        "L4",
        "T4",
        "O",
        "Z4",
        "F",
        "I5",
        "L5",
        "N",
        "P",
        "T5",
        "U",
        "V5",
        "W",
        "X",
        "Y",
        "Z5",
    )
    assert sum(p.size for p in PIECES.values()) == 89


@pytest.mark.parametrize("name", PIECE_NAMES)
def test_orientation_count(name):
    assert len(PIECES[name].orientations) == EXPECTED_ORIENTATIONS[name]


def test_91_fixed_orientations_all_distinct():
    shapes = [o for p in PIECES.values() for o in p.orientations]
    assert len(shapes) == 91
    assert len(set(shapes)) == 91


def test_each_orientation_is_edge_connected_and_free_pieces_distinct():
    free = set()
    for p in PIECES.values():
        cells = set(p.cells)
        seen, todo = set(), [next(iter(cells))]
        while todo:
            r, c = todo.pop()
            if (r, c) in seen:
                continue
            seen.add((r, c))
            todo += [n for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if n in cells]
        assert seen == cells, p.name
        free.add(min(orientations_of(p.cells)))
    assert len(free) == 21  # every piece a different free polyomino


@pytest.mark.parametrize(
    "alias,name",
    [
        ("L3", "V3"),
        ("O4", "O"),
        ("S4", "Z4"),
        ("F5", "F"),
        ("N5", "N"),
        ("P5", "P"),
        ("U5", "U"),
        ("W5", "W"),
        ("X5", "X"),
        ("Y5", "Y"),
        ("I1", "1"),
        ("I2", "2"),
        ("v3", "V3"),
        ("z5", "Z5"),
    ],
)
def test_aliases(alias, name):
    assert canonical_name(alias) == name


def test_unknown_piece():
    with pytest.raises(PieceError, match="unknown piece 'Q7'"):
        canonical_name("Q7")


def test_identify_mirror_image():
    # the mirror image of F is still F (pieces are two-sided)
    assert identify([(0, 0), (0, 1), (1, 1), (1, 2), (2, 1)]).name == "F"
    assert identify([(0, 0), (1, 1)]) is None
