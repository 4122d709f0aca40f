"""Holes in what counts as a proof (issue 23, round 2 of review): CP-SAT parameters that
change what a status means, and which engine proves which claim (solver/trust/proofs.py)."""

from __future__ import annotations

import json

import helpers
import pytest

from solver.backends.base import SolveOptions
from solver.backends.cpsat.params import NOT_A_PROOF, params_can_prove
from solver.formats.puzzle import load_puzzle
from solver.tasks.solve import solve
from solver.trust.proofs import can_prove, untrusted_claim

PUZZLES = helpers.PUZZLES

# --- CP-SAT parameters (item 1) ----------------------------------------------------------


def test_a_hinted_value_fixed_gives_no_false_no():
    """fix_variables_to_their_hinted_value turns the re-solve's hint (the last solution,
    just cut off) into constraints: CP-SAT says INFEASIBLE for a puzzle with 458 layouts.
    The answer must not be a no."""
    problem = load_puzzle(PUZZLES / "two-colours-7x7.toml")
    params = "fix_variables_to_their_hinted_value: true"
    result = solve(problem, SolveOptions(backend="cpsat", workers=1, params=params))
    assert result.status in ("solved", "unknown")
    if result.status == "unknown":
        assert result.stats["unknown_reason"] == NOT_A_PROOF


@pytest.mark.parametrize(
    "params, proof",
    [
        ("", True),
        ("num_workers: 1 random_seed: 7 log_search_progress: false", True),
        ("linearization_level: 2 root_lp_iterations: 200000", True),  # PROOF_PARAMS
        ("stop_after_first_solution: true", False),
        ("stop_after_presolve: true", False),
        ("enumerate_all_solutions: true", False),
        ("fix_variables_to_their_hinted_value: true num_workers: 1", False),
    ],
)
def test_only_harmless_params_leave_a_no_a_proof(params, proof):
    problem = load_puzzle(PUZZLES / "tiny-4x4-impossible.toml")
    result = solve(problem, SolveOptions(backend="cpsat", workers=1, params=params))
    assert result.status == ("infeasible" if proof else "unknown"), result.stats
    assert params_can_prove(params) is proof


def test_a_proven_best_with_params_is_a_layout_not_proven_best():
    problem = load_puzzle(PUZZLES / "tiny-4x4-impossible.toml")
    problem = type(problem)(problem.position, problem.colours, "max-score", False)
    plain = solve(problem, SolveOptions(backend="cpsat", workers=1))
    assert plain.status == "optimal" and plain.bound is not None
    params = "stop_after_first_solution: true"
    result = solve(problem, SolveOptions(backend="cpsat", workers=1, params=params))
    assert result.status == "solved" and result.bound is None
    assert result.stats["not_a_proof"] == NOT_A_PROOF


def test_the_command_line_says_why_a_no_is_not_taken():
    out = helpers.run_cli(
        "solve", PUZZLES / "tiny-4x4-impossible.toml", "--backend", "cpsat", "--workers", 1,
        "--params", "stop_after_first_solution: true", "--plain",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "status: unknown" in out.output and NOT_A_PROOF in out.output


def _row(**changes):
    row = {
        "kind": "puzzle", "status": "done", "answer": "no", "solve_status": "infeasible",
        "backend": "cpsat", "answered_by": "cpsat", "goal": "place-all", "params": "",
    }  # fmt: skip
    return {**row, **changes}


@pytest.mark.parametrize(
    "params, trusted",
    [
        ("", True),
        (None, True),
        ("random_seed: 3 num_workers: 2", True),
        ("fix_variables_to_their_hinted_value: true", False),
        ("stop_after_first_solution:true", False),
        ("not a parameter: 1", False),
        (5, False),
    ],
)
def test_a_row_with_params_is_a_proof_only_with_harmless_ones(params, trusted):
    why = untrusted_claim(_row(params=params))
    assert (why is None) is trusted, why


# --- which engine proves which claim (item 7) --------------------------------------------


def test_lp_proves_no_only_and_auto_proves_nothing_itself():
    assert can_prove("lp") and can_prove("search") and can_prove("cpsat")
    assert not can_prove("lp", claim="best")
    assert can_prove("search", claim="best") and can_prove("search+cpsat", claim="best")
    assert not can_prove("auto") and not can_prove("auto", claim="best")
    assert can_prove("area bound") and not can_prove("area bound", claim="best")
    best = {"solve_status": "optimal", "answer": "solved", "goal": "max-score"}
    assert untrusted_claim(_row(**best, answered_by="search")) is None
    assert "cannot prove best" in str(untrusted_claim(_row(**best, answered_by="lp")))
    assert "cannot prove" in str(untrusted_claim(_row(**best, backend="auto", answered_by="auto")))
    assert untrusted_claim(_row(backend="auto", answered_by="lp")) is None
    game = {"kind": "game", "backend": "search", "colours": [
        {"colour": "blue", "answer": "yes", "best_status": "optimal", "backend": "search, then lp"}
    ]}  # fmt: skip
    assert "cannot prove" in str(untrusted_claim(game))


# --- cubes join: the puzzle it names (item 2) --------------------------------------------


def _split(tmp_path, name="tiny-4x4-impossible.toml"):
    """A split of a copy of a shipped puzzle, solved by the search: (folder, the copy)."""
    from solver.batch.runner import BatchOptions, run_batch
    from solver.batch.work import BatchSettings
    from solver.tasks.cubes import write_cubes

    copy = tmp_path / "the-puzzle.toml"
    copy.write_bytes((PUZZLES / name).read_bytes())
    folder = tmp_path / "split"
    write_cubes(str(copy), copy.read_text(), 2, folder)
    options = BatchOptions([folder / "cubes"], folder / "results", BatchSettings(backend="search"))
    run_batch(options)
    return folder, copy


def test_join_compares_the_named_puzzle_with_the_split_copy(tmp_path):
    folder, copy = _split(tmp_path)
    same = helpers.run_cli("cubes", "join", folder, "--plain")
    assert same.exit_code == 0, same.output
    assert f"puzzle: {copy} (the same text as the split's copy in cubes.json)" in same.output
    assert "status: infeasible" in same.output
    # a new title asks the same question: compared, not refused
    copy.write_text('title = "renamed"\n' + copy.read_text().split("\n", 1)[1])
    retitled = helpers.run_cli("cubes", "join", folder, "--plain")
    assert retitled.exit_code == 0, retitled.output
    assert f"puzzle: {copy} (the same question as the split's copy" in retitled.output
    # the file named now holds another puzzle (one with layouts): the answer, about the
    # copy in cubes.json, is not about it
    copy.write_bytes((PUZZLES / "tiny-5x5-four.toml").read_bytes())
    other = helpers.run_cli("cubes", "join", folder)
    helpers.one_line_error(other, "cubes.json", "is not the puzzle the split was made from")
    copy.write_bytes(b"\xff\xfe not text")
    unreadable = helpers.run_cli("cubes", "join", folder, "--plain")
    assert unreadable.exit_code == 0 and "cannot be read" in unreadable.output
    assert "not compared; the answer is about the copy in cubes.json" in unreadable.output
    copy.unlink()
    gone = helpers.run_cli("cubes", "join", folder, "--plain")
    assert gone.exit_code == 0 and f"puzzle: {copy} is not here, not compared" in gone.output


#: names the file system will not look up (issue 41: a name a file someone else wrote gives)
UNLOOKABLE = ["x" * 5000, "a/" * 3000]


@pytest.mark.parametrize("name", UNLOOKABLE)
def test_a_name_the_file_system_refuses_is_not_here(tmp_path, name):
    """verify and cubes join look for the puzzle a file names: one the file system will not
    look up is not here (said so), never an internal error."""
    out, data = _solved(tmp_path, "solve", PUZZLES / "tiny-5x5-corner.toml")
    out.write_text(json.dumps({**data, "puzzle": name, "puzzle_path": "/" + name}))
    checked = helpers.run_cli("verify", out)
    assert checked.exit_code == 0 and "is not here, not compared" in checked.output
    (tmp_path / "cubes").mkdir()
    folder, _ = _split(tmp_path / "cubes")
    manifest = json.loads((folder / "cubes.json").read_text())
    (folder / "cubes.json").write_text(json.dumps({**manifest, "puzzle": name}))
    helpers.one_line_error(helpers.run_cli("cubes", "join", folder), "not the split")


# --- verify compares the question, and finds a relative puzzle (items 3 and 5) -----------

CARD = PUZZLES / "cards" / "cover-1-easy.toml"


def _solved(tmp_path, *args, name="card.json"):
    out = tmp_path / name
    made = helpers.run_cli(*args, "--out", out)
    assert made.exit_code == 0 and out.is_file(), made.output
    return out, json.loads(out.read_text())


@pytest.mark.parametrize(
    "change, why",
    [
        ({"cover": []}, "squares to cover differ"),
        ({"goal": "max-score", "cover": [], "status": "solved"}, "goal max-score"),
        ({"cover": ["a1", "c5"]}, "squares to cover differ"),
    ],
)
def test_verify_refuses_a_file_whose_question_is_not_the_puzzles(tmp_path, change, why):
    out, data = _solved(tmp_path, "solve", CARD)
    assert data["cover"] and data["made_by"] == "solve"
    assert helpers.run_cli("verify", out).exit_code == 0
    out.write_text(json.dumps({**data, **change}))
    helpers.one_line_error(helpers.run_cli("verify", out), "not a solution of the puzzle", why)


@pytest.mark.parametrize(
    "args, made_by",
    [(("check",), None), (("check", "--together"), "check --together"), (("count",), "count")],
)
def test_verify_keeps_honest_files_that_ask_their_own_question(tmp_path, args, made_by):
    """check writes place-all for the colours it checks about the card's position (no
    stars), count place-all for the played colours: the file records so, and only the
    position is compared."""
    out, data = _solved(tmp_path, *args, CARD)
    assert data.get("made_by") == (made_by or "check")
    assert ("endgame" in data) is (made_by is None)
    assert data["cover"] == ([] if args[0] == "check" else ["a1"])
    checked = helpers.run_cli("verify", out)
    assert checked.exit_code == 0, checked.output
    assert "a question of its own about that position" in checked.output


def test_a_file_claiming_its_own_question_says_so(tmp_path):
    """made_by can be forged too: then verify says the file does not answer the puzzle's
    question, it does not vouch that it does."""
    out, data = _solved(tmp_path, "solve", CARD)
    out.write_text(json.dumps({**data, "cover": [], "made_by": "check"}))
    checked = helpers.run_cli("verify", out)
    assert checked.exit_code == 0
    assert "question of its own about that position ('check'), not the puzzle's" in (checked.output)


def test_a_relative_puzzle_is_found_beside_the_solution_file(tmp_path, monkeypatch):
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "card.toml").write_bytes(CARD.read_bytes())
    monkeypatch.chdir(folder)
    out, data = _solved(folder, "solve", "card.toml")
    assert data["puzzle"] == "card.toml"
    assert data["puzzle_path"] == str((folder / "card.toml").resolve())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # another card.toml in the current folder, with another star: not the one meant
    (elsewhere / "card.toml").write_text(CARD.read_text().replace("*.....", "......"))
    monkeypatch.chdir(elsewhere)
    found = helpers.run_cli("verify", out)
    assert found.exit_code == 0, found.output
    assert "(found in the solution file's folder" in found.output
    # without the recorded absolute path too
    del data["puzzle_path"]
    out.write_text(json.dumps(data))
    found = helpers.run_cli("verify", out)
    assert found.exit_code == 0, found.output
    assert f"(found in the solution file's folder, {str(folder.resolve())!r})" in found.output
    # not beside it: the current folder, said so (and that card has no star: refused)
    (folder / "card.toml").unlink()
    other = helpers.run_cli("verify", out)
    helpers.one_line_error(other, "found in the current folder", "squares to cover differ")


# --- batch resume replays the solution files it keeps (item 4) ---------------------------


def _batch(folder, out, *args):
    result = helpers.run_cli("batch", folder, "--out", out, "--backend", "search", *args)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return result


def _rows(out):
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def _write_rows(out, rows):
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


@pytest.fixture
def two_puzzles(tmp_path):
    """Two puzzles batched by the search: a.toml (solved) and b.toml (solved)."""
    import shutil

    folder, out = tmp_path / "in", tmp_path / "out"
    folder.mkdir()
    shutil.copy(PUZZLES / "tiny-5x5-corner.toml", folder / "a.toml")
    shutil.copy(PUZZLES / "tiny-5x5-centre.toml", folder / "b.toml")
    _batch(folder, out)
    assert {r["item"]: r["answer"] for r in _rows(out)} == {
        "in/a.toml": "solved",
        "in/b.toml": "solved",
    }
    return folder, out


def _edit_swap_names(out):
    rows = _rows(out)
    b = next(r for r in rows if r["item"] == "in/b.toml")
    _write_rows(out, [{**r, "solution": b["solution"]} for r in rows])


def _edit_copy_file(out):
    rows = {r["item"]: r for r in _rows(out)}
    (out / rows["in/a.toml"]["solution"]).write_bytes(
        (out / rows["in/b.toml"]["solution"]).read_bytes()
    )


def _edit_drop_a_piece(out):
    rows = {r["item"]: r for r in _rows(out)}
    path = out / rows["in/a.toml"]["solution"]
    data = json.loads(path.read_text())
    data["colours"][0]["placements"].pop()
    path.write_text(json.dumps(data))


def _edit_unknown_to_solved(out):
    """An unknown row for a.toml, edited to say solved, naming b's file."""
    rows = {r["item"]: r for r in _rows(out)}
    forged = {**rows["in/a.toml"], "answer": "solved", "solution": rows["in/b.toml"]["solution"]}
    _write_rows(out, [forged, rows["in/b.toml"]])


@pytest.mark.parametrize(
    "edit", [_edit_swap_names, _edit_copy_file, _edit_drop_a_piece, _edit_unknown_to_solved]
)
def test_resume_replays_the_solution_file_of_a_kept_row(two_puzzles, edit):
    folder, out = two_puzzles
    edit(out)
    again = _batch(folder, out)
    assert "note: in/a.toml: not kept" in again.output and "done again" in again.output
    assert "1 already done" in again.output  # b.toml, whose files hold
    # the row kept now is a.toml's own, and its file verifies against a.toml
    row = next(r for r in _rows(out) if r["item"] == "in/a.toml")
    checked = helpers.run_cli("verify", out / row["solution"])
    assert checked.exit_code == 0 and "and its question" in checked.output, checked.output
    assert json.loads((out / row["solution"]).read_text())["puzzle"].endswith("in/a.toml")


def test_a_sweep_row_settles_other_seeds_only_if_its_file_replays(tmp_path):
    import shutil

    from solver.batch.items import find_sources, make_items
    from solver.batch.store import Store
    from solver.batch.work import BatchSettings

    folder, out = tmp_path / "in", tmp_path / "out"
    folder.mkdir()
    shutil.copy(PUZZLES / "tiny-5x5-corner.toml", folder / "a.toml")
    _batch(folder, out, "--seeds", 2)
    (settler,) = _rows(out)  # seed 0 solved it; seed 1 was not run
    settings = BatchSettings(backend="search")
    items = make_items(find_sources([folder]), None, None, seeds=[0, 1])
    seed1 = next(i for i in items if i.seed == 1)

    def settled():
        store = Store(out)
        store.open()
        try:
            return store.settled(seed1, settings), store.notes
        finally:
            store.close()

    assert settled() == (settler, [])
    (out / settler["solution"]).write_text((out / settler["solution"]).read_text().replace(
        '"status":"solved"', '"status":"unknown"'))  # fmt: skip
    found, notes = settled()
    assert found is None and any("not kept" in n for n in notes), notes


# --- rows of the wrong shape: dropped with a note, never an internal error (item 6) ------

BAD_FIELDS = [
    ("colours", 5), ("colours", None), ("colours", [5]), ("colours", ["x"]),
    ("item", [1]), ("item", None), ("after", {}), ("after", True), ("solution", 5),
    ("solution", "solutions/a\x00b.json"), ("solution", ""), ("sha256", [1]),
    ("backend", ["search"]), ("params", {}), ("time_limit", "5"), ("answered_by", 3),
    ("seed", "x"), ("status", 1),
    # every field of solver.trust.rows.Row has its declared type, colour records' too
    # (each type's check: tests/test_structured.py)
    ("seconds", "x"), ("score", "20"), ("short", {"b": "I4"}), ("colours", [{"colour": 1}]),
    # file names that leave the folder, or name a file of its own (issue 41, item 1)
    ("solution", "../a.json"), ("solution", "/etc/passwd"), ("picture", "solutions/../../a.svg"),
    ("solution", "results.jsonl"), ("picture", "solutions//a.svg"), ("solution", "solutions"),
    ("colours", [{"colour": "blue", "solution": "sweeps/../../a.json"}]),
]  # fmt: skip


@pytest.mark.parametrize("field, value", BAD_FIELDS)
def test_batch_resume_drops_a_row_of_the_wrong_shape(two_puzzles, field, value):
    folder, out = two_puzzles
    rows = _rows(out)
    _write_rows(out, [{**rows[0], field: value}, rows[1]])
    again = _batch(folder, out)
    notes = [line for line in again.output.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1 and "dropped" in notes[0], again.output
    assert "1 already done" in again.output  # the other row
    assert {r["item"] for r in _rows(out)} == {"in/a.toml", "in/b.toml"}


def test_batch_resume_keeps_no_row_naming_a_file_outside_its_folder(two_puzzles):
    """The file is there and replays: the row is still not read (issue 41, item 1)."""
    folder, out = two_puzzles
    rows = _rows(out)
    (out.parent / "outside.json").write_bytes((out / rows[0]["solution"]).read_bytes())
    _write_rows(out, [{**rows[0], "solution": "../outside.json"}, rows[1]])
    again = _batch(folder, out)
    assert "'../outside.json' is not below solutions/" in again.output, again.output
    assert "1 already done" in again.output
    assert _rows(out)[-1]["solution"] == rows[0]["solution"]  # its item done again


def test_a_row_superseded_removes_no_file_outside_its_folder(two_puzzles):
    folder, out = two_puzzles
    rows = _rows(out)
    victim = out.parent / "victim.json"
    victim.write_bytes((out / rows[0]["solution"]).read_bytes())
    _write_rows(out, [{**rows[0], "solution": "solutions/../../victim.json"}, rows[1]])
    _batch(folder, out, "--force")
    assert victim.exists()


def test_a_solutions_folder_that_links_out_is_refused(two_puzzles, tmp_path):
    """A folder someone else wrote, whose ``solutions`` leads elsewhere: nothing there is
    written or removed (the batch would remove the files no row names)."""
    import shutil

    folder, out = two_puzzles
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(out / "solutions", elsewhere)
    (elsewhere / "keep.json").write_text("{}")
    shutil.rmtree(out / "solutions")
    (out / "solutions").symlink_to(elsewhere)
    for args in ((), ("--force",)):
        result = helpers.run_cli("batch", folder, "--out", out, "--backend", "search", *args)
        helpers.one_line_error(result, "solutions: is a link out of the results folder")
    assert (elsewhere / "keep.json").read_text() == "{}"


def unknown_file(path):
    """The solution file at ``path`` made an honest unknown: no piece added."""
    data = json.loads(path.read_text())
    colour = data["colours"][0]
    colour["remaining"] = [p["piece"] for p in colour["placements"]]
    left = sum(len(p["squares"]) for p in colour["placements"])
    colour.update(placements=[], all_placed=False, monomino_last=False, score=-left)
    data.update(status="unknown", score=None)
    path.write_text(json.dumps(data))


def test_batch_resume_drops_a_solved_row_that_rests_on_no_layout(two_puzzles):
    """An unknown (its file adds no piece) edited to answer solved (issue 41, item 2)."""
    folder, out = two_puzzles
    rows = _rows(out)
    unknown_file(out / rows[0]["solution"])
    assert helpers.run_cli("verify", out / rows[0]["solution"]).exit_code == 0
    _write_rows(out, [{**rows[0], "solve_status": "unknown"}, rows[1]])
    again = _batch(folder, out)
    assert "dropped (answer solved but solve_status unknown)" in again.output, again.output
    assert "1 already done" in again.output


def test_a_game_colours_yes_must_name_its_layout():
    from solver.trust.rows import read_row

    row = {"item": "g.blksgf", "kind": "game", "status": "done"}
    yes = {"colour": "blue", "answer": "yes", "left": 3, "solution": None}
    assert read_row({**row, "colours": [yes]}) == "colours: blue yes names no solution file"
    assert read_row({**row, "colours": [{**yes, "left": 0}]}) == {
        **row,
        "colours": [{**yes, "left": 0}],
    }
    named = {**yes, "solution": "solutions/g-blue.json"}
    assert read_row({**row, "colours": [named]}) == {**row, "colours": [named]}


def test_batch_resume_drops_a_solved_row_without_its_file_name(two_puzzles):
    folder, out = two_puzzles
    rows = _rows(out)
    del rows[0]["solution"]
    _write_rows(out, rows)
    again = _batch(folder, out)
    assert "names no solution file" in again.output and "1 already done" in again.output


def test_batch_resume_drops_a_line_that_is_not_utf8(two_puzzles):
    folder, out = two_puzzles
    lines = (out / "results.jsonl").read_bytes().splitlines(keepends=True)
    (out / "results.jsonl").write_bytes(lines[0].replace(b'"done"', b'"d\xffne"') + lines[1])
    again = _batch(folder, out)
    assert "note: results.jsonl line 1: dropped (not UTF-8): done again" in again.output
    assert "1 already done" in again.output and "Traceback" not in again.output


@pytest.fixture(scope="module")
def no_cubes(tmp_path_factory):
    """tiny-4x4-impossible split and batched: every cube a proven no."""
    folder, _ = _split(tmp_path_factory.mktemp("no-cubes"))
    assert helpers.run_cli("cubes", "join", folder).output.count("status: infeasible") == 1
    return folder


@pytest.mark.parametrize("field, value", [*BAD_FIELDS, ("answer", "solved"), ("kind", {"a": 1})])
def test_cubes_join_drops_a_row_of_the_wrong_shape(no_cubes, tmp_path, field, value):
    rows = _rows(no_cubes / "results")
    edited = {**rows[0], field: value}
    if field == "answer":  # a solved row that names no solution file
        edited.pop("solution", None)
    _write_rows(tmp_path, [edited, *rows[1:]])
    joined = helpers.run_cli("cubes", "join", no_cubes, "--results", tmp_path, "--plain")
    assert joined.exit_code == 0 and "Traceback" not in joined.output, joined.output
    assert "dropped" in joined.output and "status: infeasible" not in joined.output
    assert "missing 1" in joined.output


def test_cubes_join_drops_a_line_that_is_not_utf8(no_cubes, tmp_path):
    rows = (no_cubes / "results" / "results.jsonl").read_bytes().splitlines(keepends=True)
    (tmp_path / "results.jsonl").write_bytes(
        rows[0].replace(b'"no"', b'"n\xff"') + b"".join(rows[1:])
    )
    joined = helpers.run_cli("cubes", "join", no_cubes, "--results", tmp_path, "--plain")
    assert joined.exit_code == 0 and "line 1: dropped (not UTF-8)" in joined.output
    assert "missing 1" in joined.output and "status: unknown" in joined.output
