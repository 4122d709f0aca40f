"""Input handling as new users meet it: each input rule in one place, alike in every reader
(puzzle TOML, solution JSON, SGF), and every option checked at the boundary.

Each test below pins a fault found by trying the product; it failed before the fix.
"""

from __future__ import annotations

import json
import re

import click
import helpers
import pytest

from solver.answers.solution import read_solution
from solver.core.checker import check_layout, monomino_can_be_last
from solver.core.position import Placement
from solver.core.variants import ALL_VARIANTS
from solver.errors import InputError, PieceError
from solver.formats.game import VARIANTS_BY_SGF, load_game, read_sgf_text
from solver.formats.puzzle import load_puzzle, parse_puzzle

ROOT = helpers.ROOT
PUZZLES = helpers.PUZZLES
TINY = PUZZLES / "tiny-5x5-corner.toml"
GAME = helpers.GAMES / "duo-L4-s29.blksgf"
TWO_TREES = "(;GM[Blokus Duo];B[e10];W[j5])(;GM[Blokus Duo];B[e10];W[j5];B[f9,g9])"
LONE = 'variant = "custom"\nsize = [3, 3]\n{extra}[start]\nblue = "a3"\n[pieces]\nblue = ["1"]\n'


run = helpers.run_cli
one_line_error = helpers.one_line_error


# --- a collection of two game trees ----------------------------------------------------


def test_two_game_trees_are_refused_naming_the_second(tmp_path):
    second = TWO_TREES.index("(", 1) + 1  # column of the second tree's "("
    with pytest.raises(InputError) as err:
        read_sgf_text(TWO_TREES, path="two.blksgf")
    assert err.value.where == f"line 1, column {second}"
    assert "second game tree" in err.value.message
    path = tmp_path / "two.blksgf"
    path.write_text(TWO_TREES.replace(")(", ")\n\n  ("))
    one_line_error(run("check", path), str(path), "line 3, column 3", "second game tree")
    one_line_error(run("moves", path, "--colour", "B"), "line 3, column 3")


# --- one text reader: byte order marks and encodings ---------------------------------------


def test_every_reader_accepts_a_leading_byte_order_mark(tmp_path):
    bom = b"\xef\xbb\xbf"
    puzzle = tmp_path / "bom.toml"
    puzzle.write_bytes(bom + TINY.read_bytes())
    assert load_puzzle(puzzle).position == load_puzzle(TINY).position
    game = tmp_path / "bom.blksgf"
    game.write_bytes(bom + GAME.read_bytes())
    assert load_game(game).final == load_game(GAME).final
    solution = tmp_path / "bom.json"
    assert run("solve", TINY, "--backend", "search", "--out", solution).exit_code == 0
    solution.write_bytes(bom + solution.read_bytes())
    assert read_solution(solution).layout["blue"]
    assert run("verify", solution).exit_code == 0
    # line and column count from the first character after the mark, alike in every reader
    puzzle.write_bytes(bom + b'variant = "custom"\nsize = 5\n')
    one_line_error(run("solve", puzzle), "size: expected [rows, columns]")
    puzzle.write_bytes(bom + b"title = 'x'\n+\n")
    one_line_error(run("solve", puzzle), "line 2, column 1: invalid TOML")


@pytest.mark.parametrize("suffix", [".toml", ".json", ".blksgf"])
def test_every_reader_refuses_other_encodings_alike(tmp_path, suffix):
    path = tmp_path / f"f{suffix}"
    path.write_bytes("\ufefftitle = 'x'\n".encode("utf-16"))
    command = "verify" if suffix == ".json" else "check"
    one_line_error(run(command, path), str(path), "line 1, column 1", "UTF-16; save it as UTF-8")
    path.write_bytes(b"title = 'x'\n# caf\xe9\n")
    one_line_error(run(command, path), "line 2, column 6: the file is not valid UTF-8")
    one_line_error(run(command, tmp_path / f"missing{suffix}"), "cannot read: No such file")


# --- numeric options at the boundary --------------------------------------------------------

BAD_NUMBERS = [
    (["solve", TINY, "--time-limit", "nan"], "--time-limit"),
    (["solve", TINY, "--time-limit", "nan", "--backend", "cpsat"], "--time-limit"),
    (["solve", TINY, "--time-limit", "inf"], "--time-limit"),
    (["solve", TINY, "--time-limit", "-1"], "--time-limit"),
    (["solve", TINY, "--seed", "-1"], "--seed"),
    (["solve", TINY, "--seed", "4294967296"], "--seed"),
    (["solve", TINY, "--seed", "2147483648", "--backend", "cpsat"], "--seed"),
    (["solve", TINY, "--workers", "0"], "--workers"),
    (["solve", TINY, "--workers", "1000000"], "--workers"),
    (["check", GAME, "--time-limit", "nan"], "--time-limit"),
    (["check", GAME, "--seed", "-1"], "--seed"),
    (["check", GAME, "--after", "-1"], "--after"),
    (["moves", GAME, "--colour", "B", "--after", "-3"], "--after"),
    (["count", TINY, "--time-limit", "nan"], "--time-limit"),
    (["count", TINY, "--time-limit", "-inf"], "--time-limit"),
    (["count", TINY, "--limit", "0"], "--limit"),
    (["count", TINY, "--limit", str(2**63)], "--limit"),
    (["export", TINY, "--after", "-1"], "--after"),
    (["review", GAME, "--time-limit", "nan"], "--time-limit"),
    (["review", GAME, "--seed", "-1"], "--seed"),
    (["show", GAME, "--after", "-1"], "--after"),
    (["show", GAME, "--size", "0"], "--size"),
    (["batch", TINY, "--time-limit", "inf"], "--time-limit"),
    (["batch", TINY, "--jobs", "0"], "--jobs"),
    (["batch", GAME, "--every", "0"], "--every"),
    (["hint", TINY, "--time-limit", "nan"], "--time-limit"),
    (["hint", TINY, "--top", "-1"], "--top"),
    (["rate", TINY, "--playouts", "-1"], "--playouts"),
    (["rate", TINY, "--seed", "4294967296"], "--seed"),
    (["generate", "--goal", "avoid", "--pieces", "0"], "--pieces"),
    (["generate", "--goal", "avoid", "--seed", "-1"], "--seed"),
    (["cubes", "split", TINY, "--depth", "-1"], "--depth"),
]
#: the commands that write files, and what each is given to write to
WRITES = {"solve": "keep.json", "check": "keep.json", "review": "keep.blksgf", "show": "keep.svg"}
WRITES_FOLDER = ("batch", "generate", "cubes")


@pytest.mark.parametrize(
    "args,option",
    BAD_NUMBERS,
    ids=[" ".join(str(a) for a in args if isinstance(a, str)) for args, _ in BAD_NUMBERS],
)
def test_numeric_options_are_checked_before_any_work(args, option, tmp_path):
    out = tmp_path / WRITES.get(args[0], "keep.json")
    out.write_text("precious")
    folder = tmp_path / "never"
    extra = ["--out", out] if args[0] in WRITES else []
    extra += ["--out", folder] if args[0] in WRITES_FOLDER else []
    one_line_error(run(*args, *extra), f"Invalid value for '{option}'")
    assert out.read_text() == "precious" and not folder.exists()


def _numeric_options(command, name=""):
    """(command name, option) for every option of every command that takes a number."""
    if isinstance(command, click.Group):
        ctx = click.Context(command)
        for sub_name in command.list_commands(ctx):  # a lazy group loads each on asking
            sub = command.get_command(ctx, sub_name)
            yield from _numeric_options(sub, f"{name} {sub_name}".strip())
        return
    for param in command.params:
        if isinstance(param.type, click.types.IntParamType | click.types.FloatParamType):
            yield name, param


def test_every_numeric_option_is_range_checked():
    """Every number any command takes, including options added later, is checked by click
    before any work: an integer has a lower bound, a decimal is finite and bounded below
    (:class:`FiniteFloatRange`: ``FloatRange`` alone lets ``nan`` through)."""
    from solver.cli.commands import main
    from solver.cli.params import FiniteFloatRange

    found = list(_numeric_options(main))
    assert len(found) >= 30
    for name, param in found:
        where = f"{name} {param.opts[0]}"
        if isinstance(param.type, click.types.FloatParamType):
            assert isinstance(param.type, FiniteFloatRange), where
        else:
            assert isinstance(param.type, click.IntRange), where
        assert param.type.min is not None, where
        try:
            param.type.convert("nan", param, None)
        except click.BadParameter:
            pass
        else:
            raise AssertionError(f"{where} takes nan")


def test_the_largest_seed_runs_on_every_backend():
    for backend in ("search", "cpsat"):
        result = run("solve", TINY, "--seed", 2**31 - 1, "--backend", backend)
        assert result.exit_code == 0 and "status: solved" in result.output, result.output


def test_the_largest_seed_with_several_symmetric_workers():
    """Symmetric runs seeds seed, seed + 1, ...: they wrap round below 2^31 (CP-SAT's int32)."""
    from solver.backends.base import SolveOptions
    from solver.backends.cpsat import solve_symmetric

    problem = parse_puzzle(
        'variant = "custom"\nsize = [4, 4]\ncolours = ["blue", "red"]\n'
        '[start]\nblue = "a4"\nred = "d1"\n[pieces]\nblue = ["2"]\nred = ["2"]\n'
    )
    options = SolveOptions(backend="symmetric", workers=2, seed=2**31 - 1)
    assert solve_symmetric(problem, options).status == "solved"


# --- every variant docs/formats.md names ---------------------------------------------------------


def _readme_variants() -> list[str]:
    text = (ROOT / "docs" / "formats.md").read_text()
    line = next(ln for ln in text.splitlines() if ln.startswith('variant = "custom"'))
    listed = line.split("#", 1)[1].split("(")[0].split("|")
    bullet = text.split("- **Variants**:", 1)[1].split("\n\n")[0].split("\n- ")[0]
    names = [n.strip() for n in listed]
    assert set(names) == set(re.findall(r"`([a-z0-9]+)`", bullet))
    return names


@pytest.mark.parametrize("name", _readme_variants())
def test_every_variant_the_readme_names_is_read(name):
    first = ALL_VARIANTS[name].colours[0] if name in ALL_VARIANTS else "blue"
    text = f'variant = "{name}"\ncolours = ["{first}"]\n'
    if name == "custom":
        text = 'variant = "custom"\nsize = [3, 3]\n[start]\nblue = "a3"\n'
    problem = parse_puzzle(text)
    assert problem.position.variant == name


def test_every_sgf_variant_the_readme_names_is_read():
    text = (ROOT / "docs" / "formats.md").read_text().split("## Game records", 1)[1]
    names = re.findall(r"`(Blokus[^`]*)`", text.split(";", 1)[0].replace("`Blokus\n", "`Blokus "))
    assert len(names) == 8 and set(names) == set(VARIANTS_BY_SGF)
    for gm in names:
        assert read_sgf_text(f"(;GM[{gm}])").variant.sgf_name == gm


def test_classic2_puzzle_solves_and_writes_pentobi_sgf(tmp_path):
    puzzle = tmp_path / "c2.toml"
    puzzle.write_text('variant = "classic2"\ncolours = ["blue"]\n[pieces]\nblue = ["1", "2"]\n')
    out = tmp_path / "c2.blksgf"
    result = run("solve", puzzle, "--out", out)
    assert result.exit_code == 0, result.output
    assert load_game(out).variant.name == "classic2"
    assert "GM[Blokus Two-Player]" in out.read_text()


# --- user text is never read as terminal markup ------------------------------------------------


def test_file_names_and_titles_are_printed_as_given(tmp_path):
    out = tmp_path / "run[draft].json"
    result = run("solve", TINY, "--out", out)
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output and out.exists()
    folder = tmp_path / "run["
    folder.mkdir()
    result = run("solve", TINY, "--out", folder / "x.json")
    assert result.exit_code == 0, result.output
    assert f"wrote {folder / 'x.json'}" in result.output
    puzzle = tmp_path / "[bold]a:smile:b.toml"
    puzzle.write_text('title = "[red]Hi[/red] :smile:"\n' + TINY.read_text().split("\n", 1)[1])
    one_line_error(run("solve", puzzle, "--out", tmp_path / "[x]"), f"{tmp_path / '[x]'}: unknown")
    result = run("solve", puzzle)
    assert result.exit_code == 0, result.output
    assert "[red]Hi[/red] :smile:" in result.output
    assert f"{puzzle}: custom 5x5" in result.output
    check = run("check", puzzle, "--out", tmp_path / "c[1].json")
    assert check.exit_code == 0, check.output
    assert f"{puzzle}: custom 5x5" in check.output
    assert f"wrote {tmp_path / 'c[1].json'}" in check.output


# --- repeated colours ---------------------------------------------------------------------------


def test_a_colour_given_twice_is_one_colour(tmp_path):
    out = tmp_path / "c.json"
    result = run("check", GAME, "--after", 10, "--colour", "purple", "--colour", "B", "--out", out)
    assert result.exit_code == 0, result.output
    answers = [ln for ln in result.output.splitlines() if " left: " in ln]
    assert len(answers) == 1 and answers[0].split()[0] == "purple"
    assert result.output.count("wrote") == 1 and out.exists()
    assert not list(tmp_path.glob("c-*.json"))
    moves = run("moves", GAME, "--after", 13, "--colour", "B", "--colour", "purple", "--count")
    assert moves.exit_code == 0 and moves.output.strip() == "298"
    one_line_error(
        run("moves", GAME, "--colour", "B", "--colour", "W"),
        f"{GAME}: --colour: moves lists one colour's moves; --colour names purple and orange",
    )
    for command in ("count", "export"):
        once = run(command, TINY, "--colour", "blue")
        twice = run(command, TINY, "--colour", "blue", "--colour", "B", "--colour", "BLUE")
        assert twice.exit_code == 0 and once.output.split("[")[0] == twice.output.split("[")[0]


# --- a lone monomino is the colour's last piece ---------------------------------------------------


@pytest.mark.parametrize("backend", ["search", "cpsat", "auto"])
def test_a_lone_monomino_is_last(backend):
    strict = parse_puzzle(LONE.format(extra="monomino-last = true\n"))
    best = parse_puzzle(LONE.format(extra='goal = "max-score"\n'))
    from solver.backends.base import SolveOptions
    from solver.tasks.solve import solve

    options = SolveOptions(backend=backend)
    result = solve(strict, options)
    assert result.status == "solved" and result.report.report("blue").score == 20
    result = solve(best, options)
    assert (result.status, result.score) == ("optimal", 20)


def test_a_lone_monomino_counts_and_checks_as_last(tmp_path):
    puzzle = tmp_path / "lone.toml"
    puzzle.write_text(LONE.format(extra="monomino-last = true\n"))
    assert run("count", puzzle).output.startswith("1 layout ")
    check = run("check", puzzle)
    assert ": yes" in check.output and "score 20" in check.output
    problem = load_puzzle(puzzle)
    mono = Placement("1", frozenset({problem.position.board.parse("a3")}))
    assert monomino_can_be_last(problem.position, "blue", [mono])
    report = check_layout(problem.position, {"blue": [mono]}).report("blue")
    assert report.monomino_last and report.score == 20


# --- a key or property given twice -------------------------------------------------------------


def test_every_reader_refuses_a_key_given_twice(tmp_path):
    toml = tmp_path / "twice.toml"
    toml.write_text('variant = "custom"\nsize = [3, 3]\nsize = [4, 4]\n[start]\nblue = "a3"\n')
    one_line_error(run("solve", toml), str(toml), "line 3, column", "invalid TOML")
    toml.write_text('variant = "custom"\nsize = [3, 3]\n[start]\nblue = "a3"\n[start]\n')
    one_line_error(run("solve", toml), "line 5, column", "invalid TOML")
    solution = tmp_path / "twice.json"
    assert run("solve", TINY, "--backend", "search", "--out", solution).exit_code == 0
    text = solution.read_text()
    solution.write_text(text.replace('"score": 20,', '"score": 20, "score": 15,', 1))
    one_line_error(run("verify", solution), str(solution), "score: this key is given twice")
    solution.write_text(text.replace('"piece": "1",', '"piece": "1", "piece": "2",', 1))
    one_line_error(run("verify", solution), "].piece: this key is given twice")
    assert "colours[0].placements[" in run("verify", solution).output
    sgf = tmp_path / "twice.blksgf"
    sgf.write_text("(;GM[Blokus Duo];B[e10]B[e9])")
    one_line_error(run("check", sgf), str(sgf), "line 1, column 24", "property B appears twice")


# --- each input rule in one place -------------------------------------------------------------


def _solution(tmp_path, **change):
    data = {
        "rows": 5,
        "cols": 5,
        "goal": "place-all",
        "colours": [
            {
                "name": "blue",
                "start": "a5",
                "placements": [{"piece": "1", "squares": ["a5"]}],
                "remaining": ["2"],
            }
        ],
    }
    data.update(change)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    "toml,json_change,message",
    [
        ('goal = "win"\n', {"goal": "win"}, "goal: unknown goal 'win'"),
        (
            'goal = "max-score"\nmonomino-last = true\n',
            {"goal": "max-score", "monomino_last": True},
            "applies to goal place-all only",
        ),
        ('variant = "duo"\nsize = [5, 5]\n', {"variant": "duo"}, "duo is 14x14, not 5x5"),
        ('variant = "hex"\n', {"variant": "hex"}, "variant: unknown variant 'hex'"),
    ],
)
def test_puzzle_and_solution_readers_say_the_same(tmp_path, toml, json_change, message):
    puzzle = tmp_path / "p.toml"
    puzzle.write_text(toml)
    one_line_error(run("solve", puzzle), message)
    one_line_error(run("verify", _solution(tmp_path, **json_change)), message)


def test_monomino_last_needs_a_monomino_in_every_reader(tmp_path):
    puzzle = tmp_path / "p.toml"
    puzzle.write_text(
        'variant = "custom"\nsize = [5, 5]\nmonomino-last = true\n[start]\nblue = "a5"\n'
        '[pieces]\nblue = ["2"]\n'
    )
    one_line_error(run("solve", puzzle), "monomino-last: blue has no monomino left")
    colours = [
        {
            "name": "blue",
            "start": "a5",
            "existing": 1,
            "placements": [{"piece": "1", "squares": ["a5"]}],
            "remaining": ["2"],
        }
    ]
    solution = _solution(tmp_path, monomino_last=True, colours=colours)
    one_line_error(run("verify", solution), "monomino_last: blue has no monomino left")
    # --colour picks the played colours: the same rule
    two = tmp_path / "two.toml"
    two.write_text(
        'variant = "custom"\nsize = [5, 5]\nmonomino-last = true\ncolours = ["blue"]\n'
        '[start]\nblue = "a5"\nred = "e1"\n[pieces]\nblue = ["1", "2"]\nred = ["2"]\n'
    )
    one_line_error(run("count", two, "--colour", "red"), str(two), "red has no monomino left")


def test_piece_counts_say_the_same_in_every_reader(tmp_path):
    puzzle = tmp_path / "p.toml"
    puzzle.write_text('variant = "junior"\ncolours = ["purple"]\n[pieces]\npurple = ["1", "F"]\n')
    one_line_error(run("solve", puzzle), "[pieces].purple: junior has no piece F")
    puzzle.write_text('variant = "junior"\ncolours = ["purple"]\n[pieces]\npurple = ["1"]\n')
    colours = [
        {
            "name": "purple",
            "start": "e10",
            "placements": [{"piece": "1", "squares": ["e10"]}],
            "remaining": ["1", "1", "F"],
        }
    ]
    solution = _solution(tmp_path, variant="junior", rows=14, cols=14, colours=colours)
    one_line_error(
        run("verify", solution),
        "colours[0]: piece 1 is in placements once and in remaining twice; junior has it twice",
    )
    diagram = tmp_path / "d.toml"
    diagram.write_text('variant = "custom"\ndiagram = """\nB.B\n...\n"""\n[start]\nblue = "a2"\n')
    one_line_error(run("solve", diagram), "line 3, column 3: piece 1 is on the board twice")


def test_a_moved_start_square_on_a_builtin_board_verifies(tmp_path):
    """A puzzle may move a start square on a built-in board; its solution file then verifies
    (before, verify refused the solver's own output)."""
    puzzle = tmp_path / "moved.toml"
    puzzle.write_text(
        'variant = "duo"\ncolours = ["purple"]\n[start]\npurple = "a1"\n'
        '[pieces]\npurple = ["1", "2"]\n'
    )
    out = tmp_path / "moved.json"
    assert run("solve", puzzle, "--out", out).exit_code == 0
    result = run("verify", out)
    assert result.exit_code == 0, result.output


def test_located_fills_in_only_what_is_missing():
    from solver.errors import located

    with pytest.raises(PieceError) as err:
        with located(path="f.toml", where="[pieces].blue"):
            with located(where="inner"):
                raise PieceError("bad")
    assert str(err.value) == "f.toml: inner: bad"
    assert err.value.__cause__ is None


def test_position_prints_its_diagram():
    problem = load_puzzle(PUZZLES / "two-colours-7x7.toml")
    rows = str(problem.position).split("\n")
    assert len(rows) == 7 and rows[3] == "..RRR.."
    assert (
        parse_puzzle(
            f'variant = "custom"\ndiagram = """\n{problem.position}\n"""\n[start]\nred = "d4"\n'
        ).position.board
        == problem.position.board
    )


def test_a_position_copies_what_it_is_given():
    """Issue 41 item 9: ColourState(remaining=a_list) kept the caller's list, so the
    colour (and every answer cached on it: legal moves, scores) changed when the list
    did; the same for a Placement's squares, a Position's colours and a Problem's
    colours, stars and colours to connect."""
    from solver.core.board import Board
    from solver.core.movegen import MoveState, legal_indices
    from solver.core.position import ColourState, Position
    from solver.core.problem import Problem

    left = ["1", "2"]
    squares = {0, 1}
    colour = ColourState("blue", 0, [Placement("2", squares)], left)
    squares.add(2)
    left.append("I3")
    assert colour.remaining == ("1", "2") and colour.placed[0].squares == frozenset({0, 1})
    assert hash(colour.placed[0]) == hash(Placement("2", frozenset({0, 1})))
    colours = [colour]
    position = Position(Board(4, 4), colours)
    colours.append(ColourState("red", 15, (), ("1",)))
    assert position.colour_names == ("blue",) and isinstance(position.colours, tuple)
    before = legal_indices(position, "blue").tolist()
    left.append("V3")
    assert legal_indices(position, "blue").tolist() == before
    assert MoveState(position).observation()["pieces_left"].sum() == 2
    played, stars = ["blue"], {5}
    problem = Problem(position, played, cover=stars)
    played.append("red")
    stars.add(6)
    assert problem.colours == ("blue",) and problem.cover == frozenset({5})
    hash(problem)  # (a list or a set inside could not be hashed)
    with pytest.raises(InputError, match="start"):
        ColourState("blue", 1.5)
    with pytest.raises(InputError, match="no colour"):
        position.colour(["blue"])  # a list is no colour name (was a TypeError)
