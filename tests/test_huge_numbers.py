"""Numbers no field can hold, in every reader of user files (issue 31, item 2): a whole
number of thousands of digits (Python will not even read one of more than 4300), one past
64 bits, 1e999, NaN. Each is bad input naming the file and the place, exit 2, never an
internal error; in a file of rows (a cube's or a batch's results.jsonl) the row is dropped
with a note and the rest still counts."""

from __future__ import annotations

import json
import shutil

import pytest
from helpers import PUZZLES, one_line_error, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import InputError
from solver.formats.structured import MAX_WHOLE, SyntaxRefused, parse_json, parse_toml

BIG = "9" * 5000
PUZZLE = PUZZLES / "tiny-5x5-corner.toml"


@pytest.fixture(scope="module")
def solution_text(tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("solution") / "tiny.json"
    assert run_cli("solve", PUZZLE, "--plain", "--out", out).exit_code == 0
    return out.read_text()


# (what is replaced, by what, the place the error names)
SOLUTION_EDITS = {
    "score of 5000 digits": ('"score": 20,\n "bound"', f'"score": {BIG},\n "bound"', "score:"),
    "rows of 5000 digits": ('"rows": 5', f'"rows": -{BIG}', "rows:"),
    "existing of 5000 digits": ('"existing": 0', f'"existing": {BIG}', "colours[0].existing:"),
    "score past 64 bits": ('"score": 20,\n "bound"', f'"score": {2**63},\n "bound"', "score:"),
    "seconds 1e999": ('"seconds": ', '"seconds": 1e999, "x": ', "seconds:"),
    "seconds NaN": ('"seconds": ', '"seconds": NaN, "x": ', "seconds: NaN is not a number"),
}


@pytest.mark.parametrize("edit", SOLUTION_EDITS)
def test_a_number_out_of_range_in_a_solution_file(tmp_path, solution_text, edit):
    old, new, place = SOLUTION_EDITS[edit]
    assert old in solution_text
    path = tmp_path / "edited.json"
    path.write_text(solution_text.replace(old, new, 1))
    line = one_line_error(run_cli("verify", path), f"{path}: {place}")
    assert len(line) < 300


def test_the_page_refuses_them_too(solution_text):
    """The page opens an uploaded solution file with the same reader (its InputError is
    the page's 422, tests/test_serve.py)."""
    from solver.web.files import read_upload

    for old, new, place in SOLUTION_EDITS.values():
        with pytest.raises(InputError) as refused:
            read_upload("edited.json", solution_text.replace(old, new, 1).encode())
        assert f"edited.json: {place}" in str(refused.value)


def test_the_limit_itself_is_read(tmp_path, solution_text):
    """2**63 - 1 is a number the reader takes (a claim the checker then refutes)."""
    path = tmp_path / "max.json"
    path.write_text(
        solution_text.replace('"score": 20,\n "bound"', f'"score": {MAX_WHOLE},\n "bound"')
    )
    result = run_cli("verify", path)
    assert result.exit_code == 1 and f"total score {MAX_WHOLE}" in result.output


PUZZLE_EDITS = {
    "decimal of 5000 digits": (f"size = [{BIG}, 5]", "line 4"),
    "hexadecimal of 5000 digits": ("size = [0x" + "f" * 5000 + ", 5]", "size[0]"),
    "past 64 bits": (f"size = [5, {2**64}]", "size[1]"),
    "in a table": (f"size = [5, 5]\n[x]\ny = [1, -{2**70}]", "[x].y[1]"),
}


@pytest.mark.parametrize("edit", PUZZLE_EDITS)
def test_a_number_out_of_range_in_a_puzzle(tmp_path, edit):
    new, place = PUZZLE_EDITS[edit]
    text = PUZZLE.read_text()
    path = tmp_path / "edited.toml"
    path.write_text(text.replace("size = [5, 5]", new))
    for command in ("solve", "show"):
        one_line_error(run_cli(command, path), f"{path}: {place}: number out of range")


def test_a_long_digit_string_in_a_title_does_not_mislead_the_line(tmp_path):
    text = PUZZLE.read_text().replace("Three", "9" * 5000, 1)
    path = tmp_path / "title.toml"
    path.write_text(text.replace("size = [5, 5]", f"size = [{BIG}, 5]"))
    one_line_error(run_cli("solve", path), f"{path}: line 4: number out of range")


@pytest.fixture(scope="module")
def cubes(tmp_path_factory):
    """tiny-5x5-four split at depth 1 and solved: the folder (copied by each test)."""
    folder = tmp_path_factory.mktemp("cubes") / "c"
    assert run_cli("cubes", "split", PUZZLES / "tiny-5x5-four.toml", "--out", folder).exit_code == 0
    batch = ["batch", folder / "cubes", "--out", folder / "results", "--backend", "search"]
    assert run_cli(*batch, "--jobs", 1, "--plain").exit_code == 0
    return folder


@pytest.mark.parametrize(
    "depth, message",
    [(BIG, "depth: number out of range"), ("9", "depth: expected a whole number from 0 to 8")],
)
def test_a_number_out_of_range_in_a_cubes_manifest(tmp_path, cubes, depth, message):
    folder = tmp_path / "c"
    shutil.copytree(cubes, folder)
    manifest = folder / "cubes.json"
    manifest.write_text(manifest.read_text().replace('"depth": 1', f'"depth": {depth}'))
    one_line_error(run_cli("cubes", "join", folder), f"{manifest}: {message}")


def test_a_cube_row_out_of_range_is_dropped_with_a_note(tmp_path, cubes):
    """The join goes on: the other rows count, the cube of the dropped row is missing."""
    folder = tmp_path / "c"
    shutil.copytree(cubes, folder)
    results = folder / "results" / "results.jsonl"
    lines = results.read_text().splitlines()
    first = json.loads(lines[0])
    lines[0] = lines[0].replace(f'"nodes":{first["nodes"]}', f'"nodes":{BIG}')
    assert lines[0] != json.dumps(first)
    results.write_text("\n".join(lines) + "\n")
    result = run_cli("cubes", "join", folder, "--plain")
    assert result.exit_code == 0, result.output
    assert f"note: {results} line 1: dropped (nodes: number out of range" in result.output
    cubes_line = next(line for line in result.output.splitlines() if line.startswith("cubes:"))
    assert "missing 1" in cubes_line and f"cubes: {len(lines)} " in cubes_line


def test_a_batch_row_out_of_range_is_dropped_with_a_note_and_done_again(tmp_path):
    out = tmp_path / "out"
    assert run_cli("batch", PUZZLE, "--out", out, "--jobs", 1, "--plain").exit_code == 0
    results = out / "results.jsonl"
    row = json.loads(results.read_text())
    results.write_text(json.dumps(row).replace('"seed": 0', f'"seed": {BIG}') + "\n")
    with (out / "runs.jsonl").open("a") as runs:  # edited lines of the runs' log too
        runs.write('5\n{"seconds": "x"}\n{"ran": 1e999}\n{"seconds": ' + BIG + "}\n")
    again = run_cli("batch", PUZZLE, "--out", out, "--jobs", 1, "--plain")
    assert again.exit_code == 0, again.output
    assert "results.jsonl line 1: dropped (seed: number out of range" in again.output
    assert "1 item run, 0 skipped" in again.output
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(rows) == 1 and rows[0]["answer"] == "solved" and rows[0]["seed"] == 0
    runs = (out / "README.md").read_text().split("## Runs")[1]
    assert runs.count("`blokus-solo batch") == 2  # the two good lines of runs.jsonl


# the shared readers themselves, on any number


@settings(max_examples=30, deadline=None)
@given(
    sign=st.sampled_from(["", "-"]),
    digits=st.integers(1, 6000).flatmap(lambda n: st.text("0123456789", min_size=n, max_size=n)),
)
def test_any_whole_number_is_read_or_refused_by_place(sign, digits):
    digits = digits.lstrip("0") or "0"
    text = sign + digits
    for parse, document in (
        (parse_json, f'{{"a": [1, {text}]}}'),
        (parse_toml, f"a = [1, {text}]"),
    ):
        try:
            value = parse(document, "f")["a"][1]
        except SyntaxRefused:
            raise
        except InputError as e:
            assert (e.path, e.where) == ("f", "a[1]") or e.where == "line 1", e
            assert "out of range" in e.message and len(digits) >= 19
        else:
            assert len(digits) <= 19 and abs(value) <= MAX_WHOLE and value == int(text)
