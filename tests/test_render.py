"""The printed board and answers (solver.cli.render, solver.cli.output): one letter grid
with Pentobi's coordinates, styled only in a colour terminal."""

from __future__ import annotations

import io

import helpers
import pytest
from rich.console import Console

from solver.backends.base import SolveOptions
from solver.cli.output import describe_problem, describe_result, print_board
from solver.cli.render import plain_board, print_position, rich_board, use_colour
from solver.core.board import Board
from solver.core.position import ColourState, Placement, Position
from solver.formats.diagram import render
from solver.formats.puzzle import load_puzzle
from solver.tasks.solve import solve

PUZZLES = helpers.PUZZLES


@pytest.fixture(autouse=True)
def no_terminal_hints(monkeypatch):
    for name in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)


def small_position() -> Position:
    board = Board(5, 5, frozenset({Board(5, 5).parse("c3")}))

    def at(piece, *names):
        return Placement(piece, frozenset(board.parse(n) for n in names))

    return Position(
        board,
        (
            ColourState(
                "blue", board.parse("a5"), (at("V3", "a5", "a4", "b5"), at("2", "b3", "b2"))
            ),
            ColourState("yellow", board.parse("e5"), (), ("1",)),
            ColourState("red", board.parse("c1"), (at("2", "b1", "c1"),)),
            ColourState("green", board.parse("a1"), (at("1", "a1"),)),
        ),
    )


def console(terminal: bool) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(
        file=out, force_terminal=terminal, width=120, markup=False, emoji=False, highlight=False
    ), out


def test_plain_board_is_the_diagram_with_pentobi_coordinates():
    assert plain_board(small_position()) == [
        "5 B B . . .",
        "4 B . . . .",
        "3 . B # . .",
        "2 . B . . .",
        "1 G R R . .",
        "  a b c d e",
    ]
    wide = Position(Board(12, 28), ())
    lines = plain_board(wide)
    assert lines[0] == "12 " + ".  " * 27 + "."  # three characters per column past z
    assert lines[-1].split() == [chr(97 + k) for k in range(26)] + ["aa", "ab"]
    assert lines[-1].index("aa") == 3 + 26 * 3


def test_rich_board_styles_the_same_letters():
    position = small_position()
    text = rich_board(position)
    assert text.plain.splitlines()[:-1] == [
        f"{5 - r} " + "".join(ch.ljust(2) for ch in row) for r, row in enumerate(render(position))
    ]

    def style_at(text, name):
        r, c = position.board.row_col(position.board.parse(name))
        offset = sum(len(line) + 1 for line in text.plain.splitlines()[:r]) + 2 + 2 * c
        return " ".join(str(s.style) for s in text.spans if s.start <= offset < s.end)

    assert "on green" in style_at(text, "a1") and "dim" not in style_at(text, "a1")
    assert "on red" in style_at(text, "b1")
    assert "bold yellow" == style_at(text, "e5")  # the free start square
    assert "grey23" in style_at(text, "c3")
    blue_v3 = position.colour("blue").placed[0]
    marked = rich_board(position, new=blue_v3.squares, last=blue_v3.squares)
    assert "dim" in style_at(marked, "b3") and "dim" not in style_at(marked, "a4")
    assert "bold underline" in style_at(marked, "a4")


def test_print_position_colour_only_in_a_terminal_without_no_color(monkeypatch):
    position = small_position()
    expected = "\n".join(plain_board(position)) + "\n"
    term, out = console(True)
    assert use_colour(term)
    print_position(term, position)
    assert "\x1b[" in out.getvalue()
    for terminal, plain, no_color in ((False, False, ""), (True, True, ""), (True, False, "1")):
        monkeypatch.setenv("NO_COLOR", no_color)
        c, out = console(terminal)
        assert not use_colour(c, plain)
        print_position(c, position, plain)
        assert out.getvalue() == expected


def test_printed_answer_board_status_and_scores():
    problem = load_puzzle(PUZZLES / "tiny-5x5-corner.toml")
    result = solve(problem, SolveOptions(backend="search"))
    c, out = console(False)
    describe_problem(c, problem)
    print_board(c, result, plain=False)
    describe_result(c, result)
    lines = out.getvalue().splitlines()
    assert lines[1].endswith("tiny-5x5-corner.toml: custom 5x5; plays blue; goal place-all")
    board = lines[2:8]
    assert board == plain_board(result.report.final)
    assert sum(line[2:].count("B") for line in board[:-1]) == 6  # 1 + 2 + 3 squares
    assert lines[8].startswith("status: solved  [search, ")
    score = result.report.report("blue").score
    assert lines[9].startswith(f"  blue    placed 3 of 3 pieces, score {score}")
    # in colour, the starting board is dimmed when there is no layout, the added pieces not
    c, out = console(True)
    print_board(c, result, plain=False)
    assert "\x1b[" in out.getvalue()
