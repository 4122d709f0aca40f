"""The SGF grammar layer: trees, values, escapes, locations, errors; square names past z."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.board import Board
from solver.errors import InputError
from solver.formats.game import squares_text
from solver.formats.sgf import Location, escape, format_property, parse
from solver.formats.text import decode


def test_tree_nodes_properties_and_main_line():
    (tree,) = parse("(;GM[Blokus Duo]FF[4];B[e10](;W[j5];B[f9,f8](;W[k4])(;W[a1]))(;W[x]))")
    assert [n.properties[0].ident for n in tree.nodes] == ["GM", "B"]
    assert tree.nodes[0].get("FF").value == "4"
    assert "GM" in tree.nodes[0] and "PL" not in tree.nodes[0]
    assert len(tree.children) == 2
    main = tree.main_line()
    assert [(n.properties[0].ident, n.properties[0].value) for n in main] == [
        ("GM", "Blokus Duo"),
        ("B", "e10"),
        ("W", "j5"),
        ("B", "f9,f8"),
        ("W", "k4"),
    ]


def test_identifiers_with_digits_and_several_values():
    (tree,) = parse("(;A1[a20][j10,k10]A4[b2]1[a1];2[])")
    root = tree.nodes[0]
    assert root.get("A1").values == ("a20", "j10,k10")
    assert root.get("A4").values == ("b2",)
    assert root.get("1").value == "a1"
    assert tree.nodes[1].get("2").values == ("",)  # an empty value is kept (a pass)


def test_escapes_and_soft_line_breaks():
    text = "(;C[a\\]b\\\\c\\:d]GN[one \\\ntwo \\\r\nthree]N[x\ny])"
    node = parse(text)[0].nodes[0]
    assert node.get("C").value == "a]b\\c:d"
    assert node.get("GN").value == "one two three"
    assert node.get("N").value == "x\ny"  # a plain line break stays


@given(st.text())
def test_escape_round_trip(value):
    node = parse(f"(;{format_property('C', [value])})")[0].nodes[0]
    assert node.get("C").value == value


def test_format_property():
    assert format_property("AB", ["a1", "b2,c3"]) == "AB[a1][b2,c3]"
    assert escape("a]b\\") == "a\\]b\\\\"


def test_whitespace_anywhere_between_tokens_and_locations():
    text = "\ufeff \n ( \n ;\tGM \n [Blokus]\n  ;  1\r\n  [a20] \n ) \n"
    (tree,) = parse(text)
    gm = tree.nodes[0].get("GM")
    move = tree.nodes[1].get("1")
    assert gm.value == "Blokus" and move.value == "a20"
    assert tree.location == Location(2, 2)
    assert tree.nodes[0].location == Location(3, 2)
    assert gm.location == Location(3, 4) and gm.value_locations == (Location(4, 2),)
    assert move.location == Location(5, 6) and move.value_locations == (Location(6, 3),)
    assert str(move.location) == "line 5, column 6"


def test_collection_of_several_trees():
    trees = parse("(;GM[Blokus Duo])\n(;GM[Blokus])")
    assert [t.nodes[0].get("GM").value for t in trees] == ["Blokus Duo", "Blokus"]


def test_deep_nesting_does_not_exhaust_the_stack():
    depth = 5000
    tree = parse("(;GM[x]" + "(;C[y]" * depth + ")" * (depth + 1))[0]
    assert len(tree.main_line()) == depth + 1


@pytest.mark.parametrize(
    "text, fragment, where",
    [
        ("", "no game tree", "line 1, column 1"),
        ("  \n ", "no game tree", "line 1, column 1"),
        ("(;B[a1]", "'(' is never closed", "line 1, column 1"),
        ("(;GM[x]\n(;B[a1]", "'(' is never closed", "line 2, column 1"),
        ("(;GM[x]\n;B[a1", "'[' is never closed", "line 2, column 3"),
        ("(;GM[x]\n;C[a\\]", "'[' is never closed", "line 2, column 3"),
        ("(;GM[x]))", "unmatched ')'", "line 1, column 9"),
        ("(;GM[x]\n;B a1])", "property B has no value", "line 2, column 2"),
        ("(;GM[x];B)", "property B has no value", "line 1, column 9"),
        ("(;GM[x];B", "property B has no value", "line 1, column 9"),
        ("()", "empty game tree", "line 1, column 1"),
        ("((;GM[x]))", "expected ';'", "line 1, column 2"),
        (";GM[x]", "';' outside a game tree", "line 1, column 1"),
        ("(;GM[x](;B[a1]);W[b2])", "a node after a variation", "line 1, column 16"),
        ("(;GM[x]GM[y])", "property GM appears twice", "line 1, column 8"),
        ("(GM[x])", "';' before a property", "line 1, column 2"),
        ("(;GM[x])\njunk", "unexpected 'j'", "line 2, column 1"),
        ("(;GM[x]-)", "unexpected '-'", "line 1, column 8"),
    ],
)
def test_grammar_errors_name_the_place(text, fragment, where):
    with pytest.raises(InputError) as err:
        parse(text, path="game.blksgf")
    assert fragment in err.value.message
    assert err.value.where == where
    assert err.value.path == "game.blksgf"
    assert "\n" not in str(err.value)


def test_decode_utf8_and_report_bad_bytes():
    assert decode("(;C[日本])".encode()) == "(;C[日本])"
    with pytest.raises(InputError) as err:
        decode(b"(;GM[Blokus]\n;C[\xc3\xa9\xff])", path="f")  # é, then a stray byte
    assert "not valid UTF-8" in err.value.message
    assert err.value.where == "line 2, column 5"


def test_columns_past_z_on_a_big_board():
    board = Board(3, 30)
    assert board.name(board.square(2, 25)) == "z1"
    assert board.name(board.square(2, 26)) == "aa1"
    assert board.name(board.square(0, 29)) == "ad3"
    assert board.parse("ab2") == board.square(1, 27)
    # Pentobi order: row by row from a1, columns a..z, aa, ab...
    squares = {board.parse(n) for n in ("aa2", "z1", "b1", "ab1", "aa1")}
    assert squares_text(board, squares) == "b1,z1,aa1,ab1,aa2"


_SGF_CHARS = st.sampled_from(
    list("();[]\\ \n,:ABWEGMPLC1234abcdefz09") + ["GM[Blokus Duo]", "B[e10]"]
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.lists(_SGF_CHARS, max_size=60).map("".join)))
def test_fuzz_parse_raises_only_input_error(text):
    try:
        trees = parse(text)
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        assert trees and all(t.nodes for t in trees)
