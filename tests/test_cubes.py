"""Cube-and-conquer (solver/tasks/cubes.py, solver/trust/cube_join.py): the cubes partition
the layouts, the symmetry reduction keeps one cube per orbit, and join answers as the full
search does."""

from __future__ import annotations

import json
import shutil

import helpers
import pytest
from helpers import corner_problem, run_cli

from solver.api import count
from solver.backends.base import SolveOptions
from solver.batch.runner import BatchOptions, run_batch
from solver.batch.work import BatchSettings
from solver.core.placements import legal_moves
from solver.core.symmetry import position_symmetries
from solver.errors import InputError
from solver.formats.puzzle import load_puzzle, parse_puzzle
from solver.formats.text import read_text
from solver.tasks.cubes import MANIFEST, SplitStats, split, write_cubes
from solver.tasks.solve import solve
from solver.trust.cube_join import Recheck, join

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
    run_batch(BatchOptions([tmp_path / "cubes"], results, BatchSettings(backend="search"), jobs=1))
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
        run_batch(BatchOptions([lost], other, BatchSettings(backend="search"), jobs=1))
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


# --- trust in results read back (issue 23, item 1) ---------------------------------------


@pytest.fixture(scope="module")
def feasible_cubes(tmp_path_factory):
    """tiny-5x5-four (104 layouts) split at depth 2 and solved by the search: the folder
    and its results rows (some cubes solved, some a proven no)."""
    folder = tmp_path_factory.mktemp("feasible")
    path = PUZZLES / "tiny-5x5-four.toml"
    write_cubes(str(path), read_text(path), 2, folder)
    results = folder / "results"
    run_batch(BatchOptions([folder / "cubes"], results, BatchSettings(backend="search"), jobs=1))
    rows = [json.loads(line) for line in (results / "results.jsonl").read_text().splitlines()]
    assert {r["answer"] for r in rows} == {"solved", "no"}
    return folder, rows


def _forged(tmp_path, rows, **changes):
    """A results folder holding ``rows`` with every one changed to say "no" and ``changes``."""
    out = tmp_path / f"forged-{len(list(tmp_path.iterdir()))}"
    out.mkdir()
    edited = [{**r, "answer": "no", **changes} for r in rows]
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in edited))
    return out


@pytest.mark.parametrize(
    "changes",
    [
        {},  # the answer alone: status still solved
        {"solve_status": "unknown", "backend": "repair", "answered_by": "repair"},
        {"solve_status": "infeasible", "backend": "repair", "answered_by": "repair"},
        {"solve_status": "infeasible", "backend": "search", "answered_by": "greedy"},
        {"solve_status": "infeasible", "backend": "auto", "answered_by": "symmetric+repair"},
        {"solve_status": "infeasible", "backend": "search", "answered_by": "magic"},
    ],
)
def test_join_does_not_prove_from_rows_that_cannot_prove(feasible_cubes, tmp_path, changes):
    folder, rows = feasible_cubes
    answer = join(folder, _forged(tmp_path, rows, **changes))
    solved = sum(r["answer"] == "solved" for r in rows)
    assert answer.status == "unknown"
    # every forged row counts unknown: the rows that really were no (by the search, left
    # as they were) still count when only the answer was edited
    untouched = len(rows) - solved if not changes else 0
    assert answer.infeasible == untouched
    assert answer.untrusted == answer.unknown == len(rows) - untouched
    assert all("not trusted" in n for n in answer.notes)


def test_join_says_what_the_proof_rests_on_and_recheck_catches_a_forged_no(
    feasible_cubes, tmp_path
):
    folder, rows = feasible_cubes
    forged = {"solve_status": "infeasible", "answered_by": "search", "solution": None}
    results = _forged(tmp_path, rows, **forged)
    # a forgery that names a complete backend reads as a proof: the rows are all join has
    read = helpers.run_cli("cubes", "join", folder, "--results", results, "--plain")
    assert read.exit_code == 0, read.output
    assert f"the no's rest on: {len(rows)} rows of {results / 'results.jsonl'} (search" in (
        read.output
    )
    assert "status: infeasible" in read.output and "--recheck" in read.output
    # --recheck proves each no again: the forged ones do not hold, a layout is found
    checked = helpers.run_cli("cubes", "join", folder, "--results", results, "--recheck", "--plain")
    assert checked.exit_code == 0, checked.output
    assert "status: solved" in checked.output
    assert "its row says no, but the recheck found a layout" in checked.output
    really_no = sum(r["answer"] == "no" for r in rows)
    assert f"the no's rest on: {really_no} solves here (search {really_no})" in checked.output
    refused = helpers.run_cli("cubes", "join", folder, "--results", results, "--time-limit", 5)
    helpers.one_line_error(refused, "--time-limit", "only with --recheck")
    answer = join(folder, results, Recheck(time_limit=30))
    assert answer.status == "solved" and answer.result is not None
    assert answer.rechecked == len(rows) and answer.infeasible == really_no


@pytest.fixture(scope="module")
def infeasible_cubes(tmp_path_factory):
    """tiny-4x4-impossible split at depth 3 and solved by the search (every cube a proven
    no): the folder, which each test copies."""
    folder = tmp_path_factory.mktemp("infeasible")
    path = PUZZLES / "tiny-4x4-impossible.toml"
    write_cubes(str(path), read_text(path), 3, folder)
    results = folder / "results"
    run_batch(BatchOptions([folder / "cubes"], results, BatchSettings(backend="search"), jobs=1))
    return folder


def test_a_row_for_a_cube_file_changed_on_disk_is_not_trusted(infeasible_cubes, tmp_path):
    shutil.copytree(infeasible_cubes, tmp_path, dirs_exist_ok=True)
    results = tmp_path / "results"
    assert join(tmp_path, results).status == "infeasible"
    cube = sorted((tmp_path / "cubes").glob("*.toml"))[0]
    cube.write_text(cube.read_text() + "# edited after the batch\n")
    answer = join(tmp_path, results)
    assert answer.status == "unknown" and answer.untrusted == 1
    assert answer.infeasible == answer.cubes - 1
    assert any("changed since the split" in n for n in answer.notes)
    cube.unlink()
    assert join(tmp_path, results).untrusted == 1
    # --recheck proves the cube from the split itself: the file on disk does not matter
    assert join(tmp_path, results, Recheck()).status == "infeasible"


def test_join_refuses_a_manifest_edited_past_its_hashes(feasible_cubes, tmp_path):
    """The manifest is read back too: a cube file renamed (join would read another file
    as the cube), an entry that is no entry or a depth that is no number is refused as
    bad input, not an internal error; an edited counter in a row is only a display."""
    folder, rows = feasible_cubes
    manifest = json.loads((folder / MANIFEST).read_text())
    for change, message in (
        (lambda d: d["cubes"][0].update(file="../elsewhere.toml"), "not the split"),
        (lambda d: d["cubes"].__setitem__(0, 5), "not the split"),
        (lambda d: d.update(depth="2"), "depth: expected int"),
    ):
        edited = json.loads(json.dumps(manifest))
        change(edited)
        copy = tmp_path / f"copy-{len(list(tmp_path.iterdir()))}"
        copy.mkdir()
        (copy / MANIFEST).write_text(json.dumps(edited))
        with pytest.raises(InputError, match=message):
            join(copy, folder / "results")
    counters = tmp_path / "counters"
    counters.mkdir()
    edited_rows = [{**r, "nodes": "many", "seconds": [1]} for r in rows]
    (counters / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in edited_rows))
    answer = join(folder, [counters, folder / "results"])
    assert answer.status == "solved" and answer.nodes > 0


def test_a_split_removes_the_temporary_manifest_a_killed_split_left(tmp_path):
    # kill -9 between writing the manifest's temporary file and renaming it leaves one
    stale = tmp_path / ".cubes.json.k3x_9a2b"
    stale.write_text('{"cubes": [')
    kept = [tmp_path / ".cubes.json.not-ours", tmp_path / ".other.json.abcdefgh"]
    for path in kept:
        path.write_text("not ours")
    result = run_cli("cubes", "split", PUZZLES / "tiny-5x5-four.toml", "--depth", 1,
                     "--out", tmp_path)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert not stale.exists()
    assert all(path.exists() for path in kept)  # only the manifest's own temporaries go
    assert json.loads((tmp_path / "cubes.json").read_text())["depth"] == 1


# --- a rejected row does not hide the valid rows of its cube (issue 31, item 10) ---------


def _forge_solved(results, rows, which):
    """Append to ``results`` a copy of each of ``rows`` that ``which`` picks, saying
    "solved" with the row's own solution file (a partial layout or none: the checker
    refuses it)."""
    forged = [
        {**r, "answer": "solved", "solve_status": "solved", "solution": r["solution"]}
        for r in rows
        if which(r)
    ]
    assert forged and all(f["solution"] for f in forged)
    with (results / "results.jsonl").open("a") as f:
        f.write("".join(json.dumps(r) + "\n" for r in forged))
    return forged


def test_a_forged_solved_row_does_not_hide_a_cubes_proven_no(infeasible_cubes, tmp_path):
    """The issue's case: every cube of an infeasible puzzle has a valid no and, newer, a
    forged "solved" row. Each forged row is reported; the no's still prove the puzzle."""
    shutil.copytree(infeasible_cubes, tmp_path, dirs_exist_ok=True)
    results = tmp_path / "results"
    rows = [json.loads(line) for line in (results / "results.jsonl").read_text().splitlines()]
    assert len(rows) > 5
    forged = _forge_solved(results, rows, lambda r: True)
    answer = join(tmp_path, results)
    assert answer.status == "infeasible" and answer.infeasible == answer.cubes == len(rows)
    assert answer.rejected == answer.solved == answer.unknown == 0
    assert len(answer.problems) == len(forged)
    assert sorted(p.split(":")[0] for p in answer.problems) == sorted(r["item"] for r in rows)
    shown = helpers.run_cli("cubes", "join", tmp_path, "--plain")
    assert shown.exit_code == 0, shown.output
    assert shown.output.count("rejected row: cubes/") == min(10, len(forged))
    assert "status: infeasible" in shown.output


def test_a_rejected_row_leaves_the_other_rows_of_a_feasible_split_counting(
    feasible_cubes, tmp_path
):
    folder, rows = feasible_cubes
    results = tmp_path / "results"
    shutil.copytree(folder / "results", results)
    forged = _forge_solved(results, rows, lambda r: r["answer"] == "no")
    answer = join(folder, results)
    really = {a: sum(r["answer"] == a for r in rows) for a in ("solved", "no")}
    assert answer.status == "solved" and answer.solved == really["solved"]
    assert answer.infeasible == really["no"] == len(forged) == len(answer.problems)
    assert answer.rejected == answer.unknown == answer.missing == 0
