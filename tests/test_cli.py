"""The command line: solve, verify, and one-line errors with exit status 2."""

import json

import helpers
import pytest
from click.testing import CliRunner

from solver.cli.commands import main

PUZZLES = helpers.PUZZLES


run = helpers.run_cli
one_line_error = helpers.one_line_error


@pytest.mark.parametrize("backend", ["cpsat", "search"])
def test_solve_writes_json_that_verify_accepts(backend, tmp_path):
    out = tmp_path / "sol.json"
    result = run("solve", PUZZLES / "tiny-5x5-corner.toml", "--backend", backend, "--out", out)
    assert result.exit_code == 0, result.output
    assert "status: solved" in result.output
    data = json.loads(out.read_text())
    assert data["status"] == "solved"
    assert (data["rows"], data["cols"], data["blocked"]) == (5, 5, [])
    blue = data["colours"][0]
    assert blue["name"] == "blue" and blue["start"] == "a5" and blue["remaining"] == []
    assert sorted(p["piece"] for p in blue["placements"]) == ["1", "2", "V3"]
    assert "a5" in blue["placements"][0]["squares"]  # first piece covers the start square
    assert blue["score"] in (15, 20)
    check = run("verify", out)
    assert check.exit_code == 0, check.output
    assert "legal: 3 placements replayed by the rules from the empty board (3 added" in check.output


@pytest.mark.parametrize("backend", ["cpsat", "search"])
def test_solve_infeasible_is_proven(backend, tmp_path):
    out = tmp_path / "no.json"
    result = run("solve", PUZZLES / "tiny-4x4-impossible.toml", "--backend", backend, "--out", out)
    assert result.exit_code == 0
    assert "status: infeasible (proven" in result.output
    check = run("verify", out)  # verify says what the file claims and what it checked
    assert check.exit_code == 0, check.output
    assert "status: infeasible (the solver's proof" in check.output


def test_verify_says_when_a_file_holds_no_answer(tmp_path):
    """A stopped run's file (status unknown): legal, no pieces, and verify says that
    nothing was claimed (a new-user trial found it silent about the status)."""
    out = tmp_path / "stopped.json"
    puzzle = PUZZLES / "records" / "two-12x15.toml"
    result = run("solve", puzzle, "--backend", "domain", "--time-limit", "0.5", "--out", out)
    assert result.exit_code == 0 and "status: unknown" in result.output
    check = run("verify", out)
    assert check.exit_code == 0, check.output
    assert (
        "legal: 0 placements" in check.output and "status: unknown (the run stopped" in check.output
    )


def test_verify_refuses_an_island(tmp_path):
    sol = {
        "rows": 5,
        "cols": 5,
        "blocked": [],
        "status": "solved",
        "goal": "place-all",
        "colours": [
            {
                "name": "blue",
                "start": "a5",
                "remaining": [],
                "score": 15,
                "placements": [
                    {"piece": "1", "squares": ["a5"]},
                    {"piece": "2", "squares": ["c3", "d3"]},
                    {"piece": "V3", "squares": ["e2", "e1", "d1"]},
                ],
            }
        ],
    }
    path = tmp_path / "island.json"
    path.write_text(json.dumps(sol))
    result = run("verify", path)
    assert result.exit_code == 1
    assert (
        "ILLEGAL: blue move 2 (2 at c3,d3): 2 does not touch another blue piece at a corner"
        in result.output
    )


def test_verify_catches_a_false_score(tmp_path):
    sol = {
        "rows": 5,
        "cols": 5,
        "status": "solved",
        "goal": "place-all",
        "colours": [
            {
                "name": "blue",
                "start": "a5",
                "remaining": [],
                "score": 20,
                "placements": [
                    {"piece": "V3", "squares": ["a5", "a4", "b4"]},
                    {"piece": "1", "squares": ["c3"]},
                    {"piece": "2", "squares": ["d2", "d1"]},
                ],
            }
        ],
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(sol))
    result = run("verify", path)
    assert result.exit_code == 1
    assert "FALSE CLAIM: blue: the file says score 20, the rules give 15" in result.output


def test_bad_puzzle_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'variant = "custom"\nsize = [5, 5]\n[start]\nblue = "a5"\n[pieces]\nblue = ["Q"]\n'
    )
    one_line_error(run("solve", bad), str(bad), "[pieces].blue", "unknown piece 'Q'")
    one_line_error(run("solve", tmp_path / "missing.toml"), "missing.toml", "No such file")


def test_bad_solution_file_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"rows": 5, "cols": 5, "colours": [{"name": "blue", "placements": '
        '[{"piece": "V3", "squares": ["a5", "z9", "b4"]}]}]}'
    )
    one_line_error(
        run("verify", bad), str(bad), "colours[0].placements[0]", "'z9' is off the 5x5 board"
    )
    bad.write_text("{not json")
    one_line_error(run("verify", bad), "invalid JSON", "line 1")


def test_out_file_untouched_on_bad_input(tmp_path):
    out = tmp_path / "keep.json"
    out.write_text("precious")
    bad = tmp_path / "bad.toml"
    bad.write_text('variant = "nope"\n')
    one_line_error(run("solve", bad, "--out", out), "unknown variant")
    assert out.read_text() == "precious"
    one_line_error(
        run("solve", PUZZLES / "tiny-5x5-corner.toml", "--out", tmp_path / "x.txt"),
        "unknown output format",
    )


def _write(tmp_path, data, name="s.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def _five(placements, existing=0, **extra):
    return {
        "rows": 5,
        "cols": 5,
        "status": "solved",
        "goal": "place-all",
        **extra,
        "colours": [
            {
                "name": "blue",
                "start": "a5",
                "existing": existing,
                "remaining": [],
                "placements": placements,
            }
        ],
    }


def test_verify_replays_existing_pieces_too(tmp_path):
    # an "existing" V3 far from the start square, then a monomino on it: not a legal position
    data = _five(
        [{"piece": "V3", "squares": ["d1", "e1", "e2"]}, {"piece": "1", "squares": ["a5"]}],
        existing=1,
    )
    result = run("verify", _write(tmp_path, data))
    assert result.exit_code == 1
    assert (
        "ILLEGAL: blue move 1 (V3 at d1,e1,e2): the first blue piece must cover its start square a5"
        in result.output
    )


def test_verify_checks_every_claim(tmp_path):
    data = _five(
        [{"piece": "V3", "squares": ["a5", "a4", "b4"]}, {"piece": "1", "squares": ["c3"]}],
        score=999,
        bound=10,
    )
    data["status"] = "infeasible"
    data["colours"][0].update(score=20, all_placed=False, monomino_last=True)
    result = run("verify", _write(tmp_path, data))
    assert result.exit_code == 1
    out = result.output
    assert "blue: the file says all_placed False, the rules give True" in out
    assert "the file says total score 999, the rules give 20" in out
    assert "status is infeasible but the file adds pieces" in out
    assert "total score 20 is above the claimed upper bound 10" in out
    assert "blue: the file says score" not in out  # 20 is right: V3 then the monomino last


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda d: d.update(variant="classic"), "rows: classic is 20x20, not 5x5"),
        (
            lambda d: d.update(variant="duo", rows=14, cols=14),
            "colours[0].name: duo has no colour blue",
        ),
        (
            lambda d: d["colours"].append(dict(d["colours"][0])),
            "colours[1].name: colour blue is listed twice",
        ),
        (
            lambda d: d["colours"][0].update(remaining=["1"]),
            "colours[0]: piece 1 is in placements once and in remaining once; the set has it once",
        ),
        (lambda d: d["colours"][0].update(existing="x"), "colours[0].existing: expected int"),
        (lambda d: d.update(colours=3), "colours: expected list, got 3"),
    ],
)
def test_verify_refuses_malformed_files(tmp_path, change, message):
    data = _five(
        [{"piece": "V3", "squares": ["a5", "a4", "b4"]}, {"piece": "1", "squares": ["c3"]}]
    )
    change(data)
    one_line_error(run("verify", _write(tmp_path, data)), message)


GAME = helpers.GAMES / "duo-L4-s29.blksgf"


@pytest.mark.parametrize("colour,count", [("B", 298), ("purple", 298), ("W", 54)])
def test_moves_count_matches_pentobi(colour, count):
    # Pentobi's all_legal after `loadsgf duo-L4-s29.blksgf 14` (tests/data/games/README.md)
    result = run("moves", GAME, "--after", 13, "--colour", colour, "--count")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(count)
    listed = run("moves", GAME, "--after", 13, "--colour", colour).output.split()
    assert len(listed) == count == len(set(listed))


def test_check_yes_writes_layouts_that_verify_and_reread(tmp_path):
    from solver.formats.game import load_game

    out = tmp_path / "check.json"
    result = run("check", GAME, "--after", 10, "--out", out)
    assert result.exit_code == 0, result.output
    assert result.output.count(": yes") == 2
    for colour in ("purple", "orange"):
        path = tmp_path / f"check-{colour}.json"
        assert run("verify", path).exit_code == 0
        data = json.loads(path.read_text())
        entry = next(c for c in data["colours"] if c["name"] == colour)
        assert (
            entry["existing"] == 5 and entry["remaining"] == [] and len(entry["placements"]) == 21
        )
    sgf = tmp_path / "purple.blksgf"
    assert run("check", GAME, "--after", 10, "--colour", "P", "--out", sgf).exit_code == 0
    final = load_game(sgf).final
    assert final.colour("purple").remaining == ()
    assert len(final.colour("orange").placed) == 5


def test_check_no_reports_the_same_best_with_both_backends():
    lines = {}
    for backend in ("search", "cpsat"):
        result = run("check", GAME, "--after", 20, "--colour", "purple", "--backend", backend)
        assert result.exit_code == 0, result.output
        line = next(ln for ln in result.output.splitlines() if "purple" in ln and "left:" in ln)
        assert ": no " in line and "(proven best)" in line
        lines[backend] = line.split("best:")[1].split("[")[0]
    assert lines["search"] == lines["cpsat"]


def test_count_and_export():
    result = run("count", PUZZLES / "tiny-5x5-corner.toml")
    assert result.output.startswith("146 layouts")
    # one symmetry fixes a5 (the diagonal mirror); no layout is its own mirror image, since
    # the domino never is: 146 / 2 orbits
    assert run("count", PUZZLES / "tiny-5x5-corner.toml", "--up-to-symmetry").output.startswith(
        "73 layouts"
    )
    limited = run("count", PUZZLES / "tiny-5x5-corner.toml", "--limit", 10).output
    assert limited.startswith("at least 10 layouts (limit reached")
    dlx = run("export", PUZZLES / "tiny-5x5-corner.toml", "--format", "dlx").output.splitlines()
    items = next(ln for ln in dlx if not ln.startswith("|"))
    assert items.split(" | ")[0].split() == ["B.1", "B.2", "B.V3"]
    options = dlx[dlx.index(items) + 1 :]
    assert len(options) == 25 + 2 * 20 + 4 * 16  # monomino, domino, V3 placements on 5x5


def test_bad_game_records_one_line(tmp_path):
    text = GAME.read_text()
    cut = tmp_path / "cut.blksgf"
    cut.write_text(text[: len(text) // 2])
    one_line_error(run("check", cut), str(cut))
    one_line_error(run("check", GAME, "--after", 999), "duo-L4-s29.blksgf", "--after 999")
    one_line_error(
        run("moves", GAME, "--colour", "blue"), "--colour", "'blue' is not a colour of Blokus Duo"
    )
    one_line_error(
        run("check", PUZZLES / "tiny-5x5-corner.toml", "--after", 3),
        "--after applies to game records",
    )


def test_verify_wrong_shape_is_a_broken_rule(tmp_path):
    data = _five([{"piece": "V3", "squares": ["a5", "b5", "c5"]}])
    result = run("verify", _write(tmp_path, data))
    assert result.exit_code == 1
    assert "squares a5,b5,c5 do not form piece V3" in result.output


def test_check_names_who_moves_or_that_the_game_is_over():
    """After 5 placements (purple moved first) orange is to move; at the end of this game
    neither colour has a legal move (checked against the move generator)."""
    runner = CliRunner()
    early = runner.invoke(main, ["check", str(GAME), "--after", "5", "--colour", "orange"])
    assert early.output.splitlines()[0].endswith("orange to move")
    end = runner.invoke(main, ["check", str(GAME), "--colour", "purple"])
    assert end.output.splitlines()[0].endswith("game over (no colour can move)")
    for colour in ("purple", "orange"):
        moves = runner.invoke(main, ["moves", str(GAME), "--colour", colour, "--count"])
        assert moves.output.strip() == "0"


def test_check_together_answers_for_all_colours_at_once(tmp_path):
    out = tmp_path / "joint.json"
    yes = run(
        "check", PUZZLES / "two-colours-7x7.toml", "--together", "--backend", "search", "--out", out
    )
    assert yes.exit_code == 0, yes.output
    assert "together (blue, yellow): 8 pieces (27 squares) left: yes: all of them fit" in yes.output
    assert run("verify", out).exit_code == 0
    no = run("check", PUZZLES / "two-colours-7x7-crowded.toml", "--together", "--backend", "search")
    assert "left: no: each fits alone, not all together (proven)  [search" in no.output
    one = run("check", PUZZLES / "two-colours-7x7.toml", "--together", "--colour", "blue")
    assert "together (blue): 4 pieces" in one.output


@pytest.mark.parametrize("command", ["check", "review"])
@pytest.mark.parametrize("backend", ["domain", "symmetric"])
def test_endgame_commands_offer_only_backends_that_answer_them(command, backend):
    """check and review run max-score after a "no": the place-all-only backends are not
    offered (review once offered the square-first search, which then failed on every
    game)."""
    game = str(helpers.GAMES / "duo-L4-s29.blksgf")
    result = CliRunner().invoke(main, [command, game, "--backend", backend])
    assert result.exit_code == 2 and "Invalid value for '--backend'" in result.output


def test_solve_with_the_domain_backend_writes_a_verified_layout(tmp_path):
    """Gottfried's quadrant method through the command line: a 12x14 board, four colours,
    both mirrors, 10 pieces each (one 6x7 quadrant with one empty square)."""
    pieces = ("1", "I3", "I4", "L4", "L5", "P", "T4", "T5", "U", "X")
    puzzle = tmp_path / "quadrant.toml"
    listed = "[" + ", ".join(f'"{n}"' for n in pieces) + "]"
    puzzle.write_text(
        'variant = "custom"\nsize = [12, 14]\ncolours = ["blue", "yellow", "red", "green"]\n'
        'goal = "place-all"\n[start]\nblue = "a12"\nyellow = "n12"\nred = "n1"\n'
        'green = "a1"\n[pieces]\n'
        + "".join(f"{c} = {listed}\n" for c in ("blue", "yellow", "red", "green"))
    )
    out = tmp_path / "sol.json"
    result = run("solve", puzzle, "--backend", "domain", "--seed", "1", "--out", out)
    assert result.exit_code == 0, result.output
    assert "status: solved" in result.output
    # its work in one line: 10 pieces and 1 empty orbit in the quadrant, all placed
    assert "at best 11 of 11 pieces and empty orbits placed (half turn, left-right" in result.output
    check = run("verify", out)
    assert check.exit_code == 0 and "legal: 40 placements" in check.output


@pytest.mark.parametrize(
    "backend, says",
    [
        ("domain", "a board symmetry permutes onto each other (this puzzle plays 1 colour)"),
        ("symmetric", "no board symmetry maps this problem onto itself"),
    ],
)
def test_a_symmetric_backend_refuses_a_board_without_symmetry_before_any_output(backend, says):
    """The refusal comes before the puzzle's header: the output is the one error line,
    exit status 2, no traceback (a new-user trial found the header printed first)."""
    result = run("solve", PUZZLES / "tiny-5x5-corner.toml", "--backend", backend)
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and len(result.output.splitlines()) == 1
    assert says in result.output and "Traceback" not in result.output
