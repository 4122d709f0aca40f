"""`blokus-solo show`, and pictures from solve / check / count --out: plain letters when
piped, with NO_COLOR or --plain, colour in a terminal; pictures that parse or decode and show
what was asked; bad --out targets refused before any work (exit 2)."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import helpers
import pytest
from click.testing import CliRunner
from PIL import Image

from solver.answers.solution import read_solution
from solver.cli.commands import main
from solver.cli.render import plain_board
from solver.formats.game import load_game
from solver.pictures.picture import scene

ROOT = helpers.ROOT
PUZZLES = helpers.PUZZLES
GAME = helpers.GAMES / "duo-L4-s29.blksgf"
SOLO = ROOT / "results" / "classic-solo-84.json"
NS = "{http://www.w3.org/2000/svg}"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(autouse=True)
def no_terminal_hints(monkeypatch):
    """Tests choose colour themselves: no inherited FORCE_COLOR, NO_COLOR, TTY_COMPATIBLE."""
    for name in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)


def run(*args, env=None):
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


def svg_classes(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    assert root.tag == NS + "svg"
    return [e.get("class", "") for e in root.iter()]


def board_lines(output: str, rows: int) -> list[str]:
    """The board's lines of an output: the header first, then rows + 1 lines (escape codes
    and the padding of coloured cells removed)."""
    lines = [ANSI.sub("", line).rstrip() for line in output.splitlines()]
    return lines[1 : rows + 2]


def test_show_game_piped_prints_the_plain_letter_grid():
    result = run("show", GAME, "--after", 20)
    assert result.exit_code == 0, result.output
    position = load_game(GAME).position(20)
    lines = result.output.splitlines()
    assert "\x1b" not in result.output
    assert (
        lines[0] == f"{GAME} after 20 placements: duo 14x14, purple to move; 20 pieces on the board"
    )
    assert lines[1 : 1 + 15] == plain_board(position)
    assert lines[15] == "   a b c d e f g h i j k l m n"
    move = [m for m in load_game(GAME).moves if m.placement][19]
    squares = ",".join(position.board.names(move.placement.squares))
    assert lines[16] == f"last piece: 20 {move.colour} {move.placement.piece} at {squares}"


def test_terminal_colour_unless_no_color_or_plain():
    coloured = run("show", GAME, "--after", 20, env={"FORCE_COLOR": "1"})
    assert coloured.exit_code == 0
    assert "\x1b[" in coloured.output
    plain = run("show", GAME, "--after", 20).output
    # the same letter grid, only styled
    assert board_lines(coloured.output, 14) == board_lines(plain, 14)
    for extra in ({"NO_COLOR": "1"}, {}):
        args = ("show", GAME, "--after", 20) + (() if extra else ("--plain",))
        result = run(*args, env={"FORCE_COLOR": "1", **extra})
        assert result.exit_code == 0
        assert "\x1b" not in result.output
        assert result.output == plain
    # an empty NO_COLOR does not count (no-color.org)
    assert "\x1b[" in run("show", GAME, env={"FORCE_COLOR": "1", "NO_COLOR": ""}).output


def test_show_numbers_lists_the_order_of_play():
    result = run("show", GAME, "--after", 12, "--numbers", "--no-last")
    assert result.exit_code == 0
    moves = [m for m in load_game(GAME).moves if m.placement][:12]
    listed = result.output.splitlines()[-12:]
    board = load_game(GAME).position(12).board
    for k, (line, move) in enumerate(zip(listed, moves), start=1):
        assert line.split() == [
            str(k),
            move.colour,
            move.placement.piece,
            ",".join(board.names(move.placement.squares)),
        ]
    assert "last piece" not in result.output


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_show_out_writes_the_picture(tmp_path, suffix):
    out = tmp_path / f"game{suffix}"
    result = run("show", GAME, "--after", 20, "--out", out, "--numbers", "--size", 280)
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {out}\n"
    position = load_game(GAME).position(20)
    if suffix == ".svg":
        classes = svg_classes(out)
        assert sum(c.startswith("square ") for c in classes) == len(position.occupied)
        assert sum(c.startswith("piece ") for c in classes) == 20
        assert classes.count("number") == 20 and classes.count("last") == 1
    else:
        image = Image.open(out)
        assert image.format == "PNG"
        assert image.size == (280, scene(position, size=280).pixel_height)


def test_show_solution_and_puzzle(tmp_path):
    out = tmp_path / "solo.svg"
    assert run("show", SOLO, "--out", out).exit_code == 0
    classes = svg_classes(out)
    assert sum(c.startswith("square ") for c in classes) == 4 * 89
    assert sum(c.startswith("piece ") for c in classes) == 84
    assert "last" not in classes  # a whole solution: no last piece unless asked
    after = run("show", SOLO, "--after", 10)
    assert after.exit_code == 0
    assert after.output.splitlines()[0].endswith("; 10 pieces on the board")
    assert "last piece: 10 " in after.output
    # blue, yellow, red, green take turns: pieces 9 and 10 are blue's and yellow's third
    data = json.loads(SOLO.read_text())
    tenth = data["colours"][1]["placements"][2]
    squares = sorted(tenth["squares"], key=lambda s: (int(s[1:]), s[0]))  # Pentobi's order
    assert f"last piece: 10 yellow {tenth['piece']} at {','.join(squares)}" in after.output
    puzzle = run("show", PUZZLES / "two-colours-7x7.toml", "--plain")
    assert puzzle.exit_code == 0
    assert puzzle.output.splitlines()[1:9] == [
        "7 . . . . . . .",
        "6 . . . . . . .",
        "5 . . . R . . .",
        "4 . . R R R . .",
        "3 . . . R . . .",
        "2 . . . . . . .",
        "1 . . . . . . .",
        "  a b c d e f g",
    ]


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("show", GAME, "--out", "{tmp}/x.txt"), "show writes pictures: use .svg or .png"),
        (("show", GAME, "--out", "{tmp}/missing/x.png"), "does not exist"),
        (("show", GAME, "--after", 999), "there is no position after 999"),
        (("show", SOLO, "--after", 85), "the solution has 84 placements"),
        (("show", GAME, "--size", 300), "--size: applies to pictures"),
        (("show", PUZZLES / "ring-6x6.toml", "--after", 1), "--after applies to game records"),
        (
            ("solve", PUZZLES / "tiny-5x5-corner.toml", "--out", "{tmp}/x.gif"),
            "use .json, .blksgf, .svg or .png",
        ),
        (("count", PUZZLES / "tiny-5x5-four.toml", "--out", "{tmp}/no/x.svg"), "does not exist"),
        (
            ("check", PUZZLES / "two-colours-7x7.toml", "--out", "{tmp}/x.bmp"),
            "unknown output format",
        ),
    ],
)
def test_bad_out_or_after_is_one_line_exit_2_before_any_work(tmp_path, args, fragment):
    result = run(*(str(a).format(tmp=tmp_path) for a in args))
    assert result.exit_code == 2, result.output
    assert fragment in result.stderr and result.stderr.count("\n") == 1
    assert result.stdout == ""  # nothing solved, counted or printed first
    assert list(tmp_path.iterdir()) == []


def test_solve_out_picture_shows_the_checked_layout(tmp_path):
    out = tmp_path / "sol.svg"
    result = run("solve", PUZZLES / "tiny-5x5-corner.toml", "--backend", "search", "--out", out)
    assert result.exit_code == 0 and f"wrote {out}" in result.output
    classes = svg_classes(out)
    assert classes.count("square blue") == 1 + 2 + 3  # 1, 2, V3
    assert classes.count("piece blue") == 3
    png_out = tmp_path / "sol.png"
    assert run("solve", PUZZLES / "tiny-5x5-corner.toml", "--out", png_out).exit_code == 0
    assert Image.open(png_out).size[0] == round(24 * scene(read_json_position(tmp_path)).width)
    none = tmp_path / "none.png"
    result = run("solve", PUZZLES / "tiny-4x4-impossible.toml", "--out", none)
    assert "no layout: " in result.output and not none.exists()


def read_json_position(tmp_path: Path):
    out = tmp_path / "sol.json"
    assert run("solve", PUZZLES / "tiny-5x5-corner.toml", "--out", out).exit_code == 0
    return read_solution(out).position


def test_check_out_pictures_per_colour(tmp_path):
    out = tmp_path / "layout.png"
    result = run("check", PUZZLES / "two-colours-7x7.toml", "--out", out)
    assert result.exit_code == 0, result.output
    for colour in ("blue", "yellow"):
        path = tmp_path / f"layout-{colour}.png"
        assert f"wrote {path}" in result.output
        image = Image.open(io.BytesIO(path.read_bytes()))
        assert image.format == "PNG" and image.size[0] == round(24 * (7 + 1.25))
    assert not out.exists()


def test_count_out_writes_the_first_layout_counted(tmp_path):
    out = tmp_path / "first.svg"
    result = run("count", PUZZLES / "tiny-5x5-four.toml", "--out", out)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("104 layouts")
    assert result.output.splitlines()[1] == f"wrote {out} (the first layout counted)"
    classes = svg_classes(out)
    assert classes.count("square blue") == 3 + 5 + 3 + 2  # V3, L5, I3, 2
    assert classes.count("piece blue") == 4
    # the same layout as JSON, which verify accepts
    js = tmp_path / "first.json"
    assert run("count", PUZZLES / "tiny-5x5-four.toml", "--out", js).exit_code == 0
    assert run("verify", js).exit_code == 0
    none = tmp_path / "none.svg"
    result = run("count", PUZZLES / "tiny-4x4-impossible.toml", "--out", none)
    assert result.output.splitlines()[1] == f"no layout: {none} not written"
    assert not none.exists()
