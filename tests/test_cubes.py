"""Cube-and-conquer (solver/cubes.py): the cubes partition the layouts, the symmetry
reduction keeps one cube per orbit, and join answers as the full search does."""

from __future__ import annotations

import json

import helpers
import pytest
from helpers import corner_problem

from solver.api import count
from solver.batch import BatchOptions, run_batch
from solver.batch.work import Settings
from solver.cubes import MANIFEST, SplitStats, join, split, write_cubes
from solver.errors import InputError
from solver.formats.puzzle import load_puzzle, parse_puzzle
from solver.formats.text import read_text
from solver.placements import legal_moves
from solver.solve import SolveOptions, solve
from solver.symmetry import position_symmetries

PUZZLES = helpers.PUZZLES

RECT = """variant = "custom"
size = [5, 6]
colours = ["blue"]
[start]
blue = "a5"
[pieces]
blue = ["1", "2", "V3", "I3", "L4", "O"]
"""


def _count(problem) -> int:
    result = count(problem, time_limit=60)
    assert result.complete
    return result.count


@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_cubes_partition_the_layouts(depth):
    # no symmetry on a 5x6 corner start: every layout is in exactly one cube, so the
    # layouts of the cubes add up to those of the puzzle
    problem = parse_puzzle(RECT)
    total = _count(problem)
    assert total > 10
    stats = SplitStats()
    cubes = split(problem, depth, stats)
    assert stats.dropped == 0 and stats.nodes[-1] == len(cubes)
    assert sum(_count(c.problem) for c in cubes) == total
    if depth >= 2:  # a square left empty is a cube of its own
        assert any(c.blocked for c in cubes)
        assert len(cubes) > stats.nodes[1]


def test_symmetry_keeps_one_first_piece_per_orbit():
    problem = corner_problem(5, 5)
    moves = {m.squares for m in legal_moves(problem.position, "blue")}
    stats = SplitStats()
    kept = {c.fixed[0][1].squares for c in split(problem, 1, stats)}
    transpose = position_symmetries(problem.position)[1]
    images = {frozenset(int(transpose[s]) for s in sq) for sq in kept}
    assert kept | images == moves
    assert len(kept) + stats.dropped == len(moves) and stats.dropped > 0
    assert split(problem, 1, symmetry=False).__len__() == len(moves)


def test_two_colours_split_on_first_pieces_only():
    # on 6x6 the two corners' first pieces cannot meet (each reaches 4 steps, the corners
    # are 10 apart), so the cubes are all pairs; later levels are not split (a blocked
    # square would forbid it to both colours)
    problem = corner_problem(6, 6, colours=("blue", "red"))
    cubes = split(problem, 3, symmetry=False)
    blue = len(legal_moves(problem.position, "blue"))
    red = len(legal_moves(problem.position, "red"))
    assert len(cubes) == blue * red
    assert all([c for c, _ in cube.fixed] == ["blue", "red"] for cube in cubes)
    assert not any(cube.blocked for cube in cubes)


def test_refused_goals():
    problem = parse_puzzle(RECT)
    with pytest.raises(InputError, match="place-all"):
        split(parse_puzzle(RECT.replace("[start]", 'goal = "max-score"\n[start]')), 1)
    with pytest.raises(InputError, match="monomino-last"):
        split(parse_puzzle(RECT.replace("[start]", "monomino-last = true\n[start]")), 1)
    assert split(problem, 0)[0].problem is problem


@pytest.mark.parametrize(
    ("name", "depth"), [("tiny-5x5-four.toml", 2), ("tiny-4x4-impossible.toml", 3)]
)
def test_split_batch_join_agrees_with_the_search(tmp_path, name, depth):
    path = PUZZLES / name
    manifest = write_cubes(str(path), read_text(path), depth, tmp_path)
    full = solve(parse_puzzle(read_text(path)), SolveOptions(backend="search"))
    results = tmp_path / "results"
    run_batch(BatchOptions([tmp_path / "cubes"], results, Settings(backend="search"), jobs=1))
    answer = join(tmp_path, results)
    assert answer.cubes == len(manifest["cubes"]) > 5
    assert answer.missing == answer.unknown == answer.rejected == 0
    if full.status == "solved":
        assert answer.status == "solved" and answer.result is not None
        report = answer.result.report
        assert report is not None and report.report("blue").all_placed
        assert answer.solved + answer.infeasible == answer.cubes
    else:
        assert full.status == "infeasible"
        assert answer.status == "infeasible" and answer.infeasible == answer.cubes
        assert answer.nodes > 0
        # one result lost: no proof any more
        lines = (results / "results.jsonl").read_text().splitlines()
        (results / "results.jsonl").write_text("\n".join(lines[1:]) + "\n")
        again = join(tmp_path, results)
        assert again.status == "unknown" and again.missing == 1
        # that cube run again into another folder: both folders together prove it again
        lost = json.loads(lines[0])["path"]
        other = tmp_path / "again"
        run_batch(BatchOptions([lost], other, Settings(backend="search"), jobs=1))
        both = join(tmp_path, [results, other])
        assert both.status == "infeasible" and both.infeasible == answer.cubes


def test_join_refuses_a_manifest_that_is_not_the_split(tmp_path):
    path = PUZZLES / "tiny-5x5-four.toml"
    write_cubes(str(path), read_text(path), 2, tmp_path)
    data = json.loads((tmp_path / MANIFEST).read_text())
    data["cubes"] = data["cubes"][1:]  # a cube left out would fake a proof
    (tmp_path / MANIFEST).write_text(json.dumps(data))
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "results.jsonl").write_text("")
    with pytest.raises(InputError, match="not the split"):
        join(tmp_path, tmp_path / "results")


def test_cli_split_and_bad_input(tmp_path):
    from click.testing import CliRunner

    from solver.cli.commands import main

    def run(*args):
        return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)

    result = run("cubes", "split", PUZZLES / "tiny-5x5-four.toml", "--depth", 1, "--out", tmp_path)
    assert result.exit_code == 0 and result.output.startswith("7 cubes at depth 1")
    assert len(list((tmp_path / "cubes").glob("*.toml"))) == 7
    # the same split again is fine; a different one into the same folder is refused
    assert run("cubes", "split", PUZZLES / "tiny-5x5-four.toml", "--out", tmp_path).exit_code == 0
    again = run("cubes", "split", PUZZLES / "tiny-5x5-four.toml", "--depth", 2, "--out", tmp_path)
    assert again.exit_code == 2 and "different split" in again.output
    missing = run("cubes", "join", tmp_path / "nowhere")
    assert missing.exit_code == 2 and "cubes.json" in missing.output
    no_results = run("cubes", "join", tmp_path)
    assert no_results.exit_code == 2 and "results.jsonl" in no_results.output
    max_score = tmp_path / "max.toml"
    max_score.write_text(RECT.replace("[start]", 'goal = "max-score"\n[start]'))
    refused = run("cubes", "split", max_score, "--out", tmp_path / "m")
    assert refused.exit_code == 2 and "place-all" in refused.output


def test_shipped_11x12_proof_still_joins_to_infeasible():
    # results/records/one-11x12-cubes: the complete search's proof, cube by cube; join
    # re-derives the split with today's code, so a change to the split shows up here
    folder = PUZZLES.parent / "results" / "records" / "one-11x12-cubes"
    answer = join(folder, [folder / "results-search-8s", folder / "results-search-280s"])
    assert answer.status == "infeasible" and answer.infeasible == answer.cubes == 58


NO_CUBE = """variant = "custom"
size = [4, 4]
colours = ["blue"]
diagram = \"\"\"
....
....
.Y..
....
\"\"\"
[start]
blue = "b2"
yellow = "b2"
[pieces]
blue = ["1", "2"]
yellow = []
"""


def test_a_split_without_cubes_joins_to_infeasible(tmp_path):
    """blue's start square lies under a yellow piece: the split leaves no cube, which is
    itself the proof (every layout lies in some cube); join says so without any batch."""
    from click.testing import CliRunner

    from solver.cli.commands import main

    puzzle = tmp_path / "covered-start.toml"
    puzzle.write_text(NO_CUBE)
    assert solve(load_puzzle(puzzle), SolveOptions(backend="search")).status == "infeasible"
    split = CliRunner().invoke(main, ["cubes", "split", str(puzzle), "--out", str(tmp_path / "c")])
    assert split.exit_code == 0 and "left no cube" in split.output
    assert join(tmp_path / "c", tmp_path / "c" / "results").status == "infeasible"
    joined = CliRunner().invoke(main, ["cubes", "join", str(tmp_path / "c")])
    assert joined.exit_code == 0 and "infeasible" in joined.output.lower()
