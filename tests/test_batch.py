"""blokus-solo batch: items found in folders, answers as solve and check give them, a results
folder that survives crashes and resumes, worker crashes, the Dask path."""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import helpers
import pytest
from click.testing import CliRunner

from solver.answers.solution import read_solution, verify
from solver.batch.report import NoReturn, no_return
from solver.batch.runner import BatchOptions, run_batch
from solver.batch.work import BatchSettings
from solver.cli.commands import main
from solver.pictures.picture import COLOURS, with_layout

PUZZLES = helpers.PUZZLES
GAMES = helpers.GAMES
GAME = GAMES / "duo-L4-s29.blksgf"
one_line_error = helpers.one_line_error
children, alive = helpers.children, helpers.alive
SVG = "{http://www.w3.org/2000/svg}"


def batch(*args, out: Path):
    result = CliRunner().invoke(main, ["batch", *map(str, args), "--out", str(out)])
    assert "Traceback" not in result.output, result.output
    return result


def rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def by_key(out: Path) -> dict:
    return {(r["item"], r["after"]): r for r in rows(out)}


def assert_solutions_verify(out: Path, killed: bool = False) -> int:
    """Every solution file a row names exists and passes verify, and beside each one with a
    layout lies its picture, which shows that layout (see :func:`assert_picture_shows`);
    returns how many solution files. Right after a kill (``killed``) a solution file or
    picture may be on disk before its row (it is written first); the next run removes it."""
    names, pictures = set(), set()
    for r in rows(out):
        for record in (r, *r["colours"]):
            if record.get("solution"):
                names.add(record["solution"])
                solution = read_solution(out / record["solution"])
                if solution.partial is not None:  # an unknown: its picture is the partial
                    assert record["picture"] == record["solution"][: -len(".json")] + ".svg"
                    shown = dataclasses.replace(solution, layout=solution.partial)
                    assert_picture_shows(out / record["picture"], shown)
                    pictures.add(record["picture"])
                elif solution.data["score"] is None:  # no layout (a proof): nothing to draw
                    assert record["picture"] is None
                else:
                    assert record["picture"] == record["solution"][: -len(".json")] + ".svg"
                    assert_picture_shows(out / record["picture"], solution)
                    pictures.add(record["picture"])
            else:
                assert record.get("picture") is None
    for name in names:
        report, false_claims = verify(read_solution(out / name))
        assert report.legal and not false_claims, (name, report.problem, false_claims)
    folders = [out / "solutions", out / "sweeps"]  # a seed sweep's files: in sweeps/
    on_disk = {str(p.relative_to(out)) for f in folders for p in f.rglob("*.json")}
    drawn = {str(p.relative_to(out)) for f in folders for p in f.rglob("*.svg")}
    if killed:
        assert on_disk >= names and drawn >= pictures  # no missing file
    else:
        assert on_disk == names and drawn == pictures  # no orphan, no missing file
    return len(names)


def assert_picture_shows(path: Path, solution) -> None:
    """The SVG parses and has one square per covered square of the solution's final board,
    in its colour: the added pieces in the full colour, those already there paler."""
    root = ET.parse(path).getroot()
    assert root.tag == SVG + "svg"
    squares = [e for e in root.iter(SVG + "rect") if e.get("class", "").startswith("square ")]
    final = with_layout(solution.position, solution.layout)
    assert len(squares) == len(final.occupied)
    full = Counter(e.get("class").split()[1] for e in squares if e.get("fill") in COLOURS.values())
    added = Counter({c: sum(len(p.squares) for p in ps) for c, ps in solution.layout.items() if ps})
    assert full == added


@pytest.fixture
def inputs(tmp_path) -> Path:
    """A folder of good, bad and ignored files, and a game record in a sub-folder."""
    folder = tmp_path / "in"
    (folder / "games").mkdir(parents=True)
    for name in ("tiny-5x5-corner.toml", "tiny-4x4-impossible.toml", "max-score-5x5.toml"):
        shutil.copy(PUZZLES / name, folder / name)
    shutil.copy(GAME, folder / "games" / GAME.name)
    (folder / "games" / "duo-L4-s29.json").write_text("{}")  # a sidecar: not an input
    (folder / "notes.txt").write_text("not an input either")
    (folder / "broken.toml").write_text('title = "x"\nsize = = 3\n')
    (folder / "bad-piece.toml").write_text(
        'variant = "custom"\nsize = [5, 5]\n[start]\nblue = "a5"\n[pieces]\nblue = ["Q7"]\n'
    )
    return folder


def test_a_mixed_batch(inputs, tmp_path):
    """Good puzzles, malformed files, a game record and one that times out, in one batch."""
    out = tmp_path / "out"
    stray = tmp_path / "stray.txt"
    stray.write_text("named on the command line, so it is an error row")
    shutil.copy(PUZZLES / "classic-solo-84.toml", inputs)  # the search needs far more than 1 s
    result = batch(inputs, stray, "--jobs", 2, "--backend", "search", "--time-limit", 1, out=out)
    assert result.exit_code == 0, result.output
    got = by_key(out)
    assert sorted(got) == [
        ("in/bad-piece.toml", None),
        ("in/broken.toml", None),
        ("in/classic-solo-84.toml", None),
        ("in/games/duo-L4-s29.blksgf", 27),
        ("in/max-score-5x5.toml", None),
        ("in/tiny-4x4-impossible.toml", None),
        ("in/tiny-5x5-corner.toml", None),
        ("stray.txt", None),
    ]
    # a time-out is unknown, never no; its solution file holds only the best partial
    # layout (checked as a partial, issue 25) and the bound
    timed_out = got["in/classic-solo-84.toml", None]
    assert timed_out["answer"] == "unknown" and timed_out["solution"] is not None
    assert timed_out["best_left"] > 0 and timed_out["short"] and timed_out["fit"]
    partial = read_solution(out / timed_out["solution"])
    assert partial.data["status"] == "unknown" and partial.partial is not None
    assert verify(partial)[1] == []
    assert {c["answer"] for c in timed_out["colours"]} == {"unknown"}
    assert got["in/tiny-5x5-corner.toml", None]["answer"] == "solved"
    assert got["in/tiny-4x4-impossible.toml", None]["solve_status"] == "infeasible"
    assert got["in/tiny-4x4-impossible.toml", None]["colours"][0]["answer"] == "no"
    assert got["in/max-score-5x5.toml", None]["solve_status"] == "optimal"
    # bad input: an error row naming the file and the place; the batch went on
    broken = got["in/broken.toml", None]
    assert broken["status"] == "error" and broken["error_kind"] == "input"
    assert "broken.toml" in broken["error"] and "invalid TOML" in broken["error"]
    assert "line 2" in broken["error"]
    bad_piece = got["in/bad-piece.toml", None]["error"]
    assert "bad-piece.toml" in bad_piece and "Q7" in bad_piece
    assert got["stray.txt", None]["error"].startswith(f"{stray}: unknown file type")
    # the game at its end, as check gives it: both colours 'no' with a proven best
    game = got["in/games/duo-L4-s29.blksgf", 27]
    assert [(c["colour"], c["answer"], c["best"], c["best_status"]) for c in game["colours"]] == [
        ("purple", "no", -23, "optimal"),
        ("orange", "no", -39, "optimal"),
    ]
    assert game["sha256"] == hashlib.sha256(GAME.read_bytes()).hexdigest()
    assert (game["backend"], game["time_limit"], game["seed"]) == ("search", 1.0, 0)
    # 3 puzzles with a file, the unknown's partial layout, 2 game colours; a picture
    # beside each but the proof of tiny-4x4-impossible (no layout to draw)
    assert assert_solutions_verify(out) == 6
    assert got["in/tiny-4x4-impossible.toml", None]["picture"] is None
    assert got["in/tiny-5x5-corner.toml", None]["picture"] == "solutions/in/tiny-5x5-corner.svg"
    summary = list(csv.DictReader((out / "summary.csv").open()))
    assert len(summary) == 3 + 4 + 2 + 3  # puzzles: one row per colour; errors: one row each
    assert {r["picture"] for r in summary if r["item"] == "in/games/duo-L4-s29.blksgf"} == {
        "solutions/in/games/duo-L4-s29-after-27-purple.svg",
        "solutions/in/games/duo-L4-s29-after-27-orange.svg",
    }
    readme = (out / "README.md").read_text()
    # the README shows each puzzle's picture in its table and links each game answer to its
    tiny = [line for line in readme.splitlines() if line.startswith("| `in/tiny-5x5-corner")]
    assert tiny[0].endswith(
        '| <img src="solutions/in/tiny-5x5-corner.svg" width="160" alt="in/tiny-5x5-corner.toml"> |'
    )
    impossible = [line for line in readme.splitlines() if "`in/tiny-4x4-impossible" in line]
    assert impossible[0].endswith("`solutions/in/tiny-4x4-impossible.json` |  |")
    assert "| [no -23](solutions/in/games/duo-L4-s29-after-27-purple.svg) |" in readme
    # items | solved | no | unknown | errors
    assert "| 8 | 2 | 3 | 1 | 3 |" in readme
    assert "## Errors" in readme and "broken.toml" in readme
    assert "[8/8]" in result.output  # not a terminal: one line per item


def test_resume_skips_force_redoes_and_changes_are_seen(inputs, tmp_path):
    out = tmp_path / "out"
    (inputs / "games" / GAME.name).unlink()
    assert batch(inputs, "--jobs", 1, out=out).exit_code == 0
    first = rows(out)
    again = batch(inputs, "--jobs", 1, out=out)
    assert "5 already done" in again.output and "0 items run" in again.output
    assert rows(out) == first
    # a changed file is done again; its old row is replaced, not duplicated
    (inputs / "tiny-5x5-corner.toml").write_text((PUZZLES / "tiny-5x5-centre.toml").read_text())
    changed = batch(inputs, "--jobs", 1, out=out)
    assert "1 item run" in changed.output
    assert by_key(out)["in/tiny-5x5-corner.toml", None]["colours"][0]["score"] == 15
    forced = batch(inputs, "--jobs", 1, "--force", out=out)
    assert "5 items run" in forced.output
    assert len(rows(out)) == 5
    # other settings: done again
    assert "5 items run" in batch(inputs, "--jobs", 1, "--seed", 3, out=out).output
    assert {r["seed"] for r in rows(out)} == {3}
    # a puzzle that no longer has a layout: its old picture goes with its old row
    picture = out / "solutions" / "in" / "tiny-5x5-corner.svg"
    assert picture.exists()
    (inputs / "tiny-5x5-corner.toml").write_text((PUZZLES / "tiny-4x4-impossible.toml").read_text())
    assert "1 item run" in batch(inputs, "--jobs", 1, "--seed", 3, out=out).output
    assert by_key(out)["in/tiny-5x5-corner.toml", None]["picture"] is None
    assert not picture.exists()
    assert_solutions_verify(out)


def test_every_on_a_real_game(tmp_path):
    """duo-L4-s29 checked after 10 and 20 placements and at its end (27): both colours can
    place everything after 10, neither after 20 (the same answers as blokus-solo check)."""
    out = tmp_path / "out"
    result = batch(GAME, "--every", 10, "--jobs", 2, out=out)
    assert result.exit_code == 0, result.output
    got = by_key(out)
    assert sorted(got) == [("duo-L4-s29.blksgf", n) for n in (10, 20, 27)]
    answers = {
        n: [(c["colour"], c["answer"], c["best"]) for c in got["duo-L4-s29.blksgf", n]["colours"]]
        for n in (10, 20, 27)
    }
    assert answers == {
        10: [("purple", "yes", None), ("orange", "yes", None)],
        20: [("purple", "no", -17), ("orange", "no", -13)],
        27: [("purple", "no", -23), ("orange", "no", -39)],
    }
    check = CliRunner().invoke(main, ["check", str(GAME), "--after", "20"])
    assert "score -17 (proven best)" in check.output and "score -13 (proven best)" in check.output
    readme = (out / "README.md").read_text()
    pictures = "solutions/duo-L4-s29-after-{}-purple.svg"  # each answer links its picture
    cells = (f"[{a}]({pictures.format(n)})" for a, n in (("**yes**", 10), ("no -17", 20)))
    assert (
        f"| `duo-L4-s29.blksgf` | 27 | purple | {' | '.join(cells)} "
        f"| [no -23]({pictures.format(27)}) | 10 (no by 20) |" in readme
    )
    ponr = {
        r["colour"]: r["point_of_no_return"] for r in csv.DictReader((out / "summary.csv").open())
    }
    assert ponr == {"purple": "10 (no by 20)", "orange": "10 (no by 20)"}
    assert_solutions_verify(out)


def test_point_of_no_return():
    assert no_return({10: "yes", 20: "yes", 30: "no", 40: "no"}) == NoReturn(20, 30)
    assert no_return({10: "yes", 20: "unknown", 30: "no"}).text() == "10 (no by 30)"
    assert no_return({10: "no", 20: "no"}).text() == "before 10"
    assert no_return({10: "yes", 20: "yes"}).text() == "not reached"
    assert no_return({10: "unknown"}).text() == "unknown"
    assert (
        no_return({10: "no", 20: "yes"}).text() == "inconsistent (yes after no, no setup between)"
    )


def _start(command: list[str], out: Path, lines: int) -> subprocess.Popen:
    """Start a batch and wait until it has finished ``lines`` items."""
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )
    log = out / "results.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if log.exists() and log.read_bytes().count(b"\n") >= lines:
            break
        time.sleep(0.02)
    return process


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc")
def test_interrupt_then_kill_9_then_resume(tmp_path):
    """Ctrl-C keeps what is done and writes the summary (exit 130); SIGKILL of the batch
    (the parent) halfway: its workers die with it, every line and solution file already
    written is whole; running it again does exactly the rest."""
    out = tmp_path / "out"
    command = [
        sys.executable,
        "-c",
        "from solver.cli.commands import main; main()",
        "batch",
        str(GAME),
        "--every",
        "2",
        "--backend",
        "search",
        "--time-limit",
        "0.3",
        "--jobs",
        "2",
        "--out",
        str(out),
    ]
    process = _start(command, out, 2)
    os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C in a terminal: the whole group
    output = process.communicate(timeout=60)[0].decode()
    assert process.returncode == 130, output
    assert "interrupted:" in output and "run the same command again" in output
    interrupted = rows(out)
    assert 2 <= len(interrupted) < 14
    assert f"| {len(interrupted)} (interrupted) | 0 |" in (out / "README.md").read_text()
    process = _start(command, out, len(interrupted) + 2)
    workers = children(process.pid)
    process.kill()
    process.wait()
    assert workers, "the batch had no worker processes"
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(w) for w in workers), "workers outlived their parent"
    before = rows(out)  # every line whole (json.loads would fail on a torn one)
    assert before[: len(interrupted)] == interrupted
    assert len(interrupted) < len(before) < 14
    assert_solutions_verify(out, killed=True)
    resumed = CliRunner().invoke(main, command[3:])
    assert resumed.exit_code == 0, resumed.output
    assert f"{len(before)} already done" in resumed.output
    after = rows(out)
    assert after[: len(before)] == before  # nothing finished was lost or redone
    keys = [(r["item"], r["after"]) for r in after]
    assert len(keys) == len(set(keys)) == 14  # 2, 4, ..., 26 and the end, 27
    assert_solutions_verify(out)


def test_a_torn_last_line_and_leftover_files_are_cleaned_up(tmp_path):
    out = tmp_path / "out"
    assert batch(PUZZLES / "tiny-5x5-corner.toml", out=out).exit_code == 0
    good = (out / "results.jsonl").read_text()
    (out / "results.jsonl").write_text(good + '{"item": "half a li')
    (out / "solutions" / ".x.json.abcd_123").write_text("half a file")
    (out / "solutions" / ".x.svg.abcd_123").write_text("half a picture")
    (out / "solutions" / "no-row-names-it.json").write_text("{}")  # its row never written
    (out / "solutions" / "no-row-names-it.svg").write_text("<svg/>")
    result = batch(PUZZLES / "tiny-5x5-corner.toml", PUZZLES / "ring-6x6.toml", out=out)
    assert "dropped 1 line(s) cut short" in result.output
    assert [r["item"] for r in rows(out)] == ["tiny-5x5-corner.toml", "ring-6x6.toml"]
    for name in (
        ".x.json.abcd_123",
        ".x.svg.abcd_123",
        "no-row-names-it.json",
        "no-row-names-it.svg",
    ):
        assert not (out / "solutions" / name).exists()
    assert_solutions_verify(out)


def _crash_on_ring(item, settings):
    if item.source.name == "ring-6x6.toml":
        os.kill(os.getpid(), signal.SIGKILL)
    return _real_run_item(item, settings)


from solver.batch import pools  # noqa: E402

_real_run_item = pools.run_item


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork start method")
def test_a_worker_that_dies_costs_only_its_item(tmp_path, monkeypatch):
    monkeypatch.setattr(pools, "run_item", _crash_on_ring)  # forked workers inherit it
    out = tmp_path / "out"
    names = ("tiny-5x5-corner.toml", "ring-6x6.toml", "tiny-5x5-four.toml", "duo-purple.toml")
    options = BatchOptions([PUZZLES / n for n in names], out, BatchSettings(), jobs=2)
    report = run_batch(options)
    assert report.ran == 4 and report.counts["error"] == 1 and report.counts["solved"] == 3
    crashed = by_key(out)["ring-6x6.toml", None]
    assert crashed["error_kind"] == "crash"
    assert "worker process died (killed by SIGKILL" in crashed["error"]
    # a crash is worth another try: the next run redoes that item only
    monkeypatch.setattr(pools, "run_item", _real_run_item)
    again = run_batch(options)
    assert (again.ran, again.skipped) == (1, 3)
    assert by_key(out)["ring-6x6.toml", None]["answer"] == "solved"
    assert len(rows(out)) == 4


def test_dask_on_a_local_cluster_gives_the_same_rows(tmp_path):
    distributed = pytest.importorskip("distributed")
    paths = [PUZZLES / "tiny-5x5-corner.toml", PUZZLES / "tiny-4x4-impossible.toml", GAME]
    local, dask = tmp_path / "local", tmp_path / "dask"
    run_batch(BatchOptions(paths, local, BatchSettings(), every=10, jobs=2))
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        report = run_batch(
            BatchOptions(
                paths, dask, BatchSettings(), every=10, scheduler=cluster.scheduler_address
            )
        )
    assert report.ran == 5 and report.counts["error"] == 0

    def answers(out):
        return {
            k: (r["status"], r.get("answer"), [(c["answer"], c.get("best")) for c in r["colours"]])
            for k, r in by_key(out).items()
        }

    assert answers(dask) == answers(local)
    assert_solutions_verify(dask)


def test_dask_local_scheduler(tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "out"
    result = batch(PUZZLES / "tiny-5x5-corner.toml", "--scheduler", "local", "--jobs", 1, out=out)
    assert result.exit_code == 0, result.output
    assert "Dask scheduler" in result.output
    assert by_key(out)["tiny-5x5-corner.toml", None]["answer"] == "solved"


def test_bad_command_lines_change_nothing(tmp_path):
    out = tmp_path / "out"
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "readme.txt").write_text("no puzzle here")
    one_line_error(batch(empty, out=out), "empty", "no puzzle (.toml) or game record")
    one_line_error(batch(tmp_path / "missing", out=out), "missing", "no such file or folder")
    one_line_error(batch(PUZZLES, "--every", 2, "--after", 3, out=out), "--every")
    one_line_error(batch(GAME, "--backend", "symmetric", out=out), "symmetric")
    one_line_error(
        batch(PUZZLES / "tiny-5x5-corner.toml", "--scheduler", "tcp://127.0.0.1:9", out=out),
        "--scheduler",
        "cannot reach the Dask scheduler",
    )
    assert not out.exists()
    a_file = tmp_path / "file"
    a_file.write_text("keep")
    one_line_error(batch(PUZZLES, out=a_file), "is a file, not a folder")
    assert a_file.read_text() == "keep"
    # an existing results folder is left exactly as it was
    assert batch(PUZZLES / "tiny-5x5-corner.toml", out=out).exit_code == 0
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    one_line_error(batch(empty, out=out), "no puzzle")
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before


# ---------------------------------------------------------------------------------------
# check --out: every colour's answer, with the record batch uses


def test_check_out_writes_every_colour_with_its_answer(tmp_path):
    """junior-L7-4-s102 at its end: purple has placed everything (a file all the same),
    orange cannot place its 11 pieces (the file says no, and its best)."""
    game = GAMES / "junior-L7-4-s102.blksgf"
    out = tmp_path / "end.json"
    result = CliRunner().invoke(main, ["check", str(game), "--out", str(out)])
    assert result.exit_code == 0, result.output
    purple = json.loads((tmp_path / "end-purple.json").read_text())
    orange = json.loads((tmp_path / "end-orange.json").read_text())
    assert purple["endgame"]["answer"] == "yes" and purple["endgame"]["left"] == 0
    assert purple["status"] == "solved" and purple["goal"] == "place-all"
    record = orange["endgame"]
    assert (record["answer"], record["left"], record["place_all_status"]) == (
        "no",
        11,
        "infeasible",
    )
    assert record["best"] == orange["score"] and record["best_status"] == orange["status"]
    for path in (tmp_path / "end-purple.json", tmp_path / "end-orange.json"):
        checked = CliRunner().invoke(main, ["verify", str(path)])
        assert checked.exit_code == 0, checked.output
    assert "orange can place all its 11 pieces left: no (proven)" in checked.output


def test_check_out_writes_an_unknown(tmp_path):
    out = tmp_path / "u.json"
    args = ["check", str(GAME), "--after", "15", "--colour", "purple", "--backend", "search"]
    result = CliRunner().invoke(main, [*args, "--time-limit", "0.1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["endgame"]["answer"] == "unknown" and data["status"] == "unknown"
    assert CliRunner().invoke(main, ["verify", str(out)]).exit_code == 0


def test_verify_catches_false_endgame_claims(tmp_path):
    out = tmp_path / "c.json"
    CliRunner().invoke(
        main, ["check", str(GAME), "--after", "20", "--colour", "orange", "--out", str(out)]
    )
    good = json.loads(out.read_text())

    def claims(**changes):
        data = json.loads(json.dumps(good))
        data["endgame"].update(changes)
        path = tmp_path / "edited.json"
        path.write_text(json.dumps(data))
        return CliRunner().invoke(main, ["verify", str(path)])

    assert claims().exit_code == 0
    lied = claims(answer="yes")
    assert (
        lied.exit_code == 1 and "answer yes but the file is not a place-all layout" in lied.output
    )
    assert "endgame: the file says best -12, the rules give -13" in claims(best=-12).output
    assert "the file says left 3" in claims(left=3).output
    malformed = claims(answer="maybe")
    assert malformed.exit_code == 2 and "unknown answer 'maybe'" in malformed.output


def test_unreadable_files_and_positions_past_the_end_are_error_rows(tmp_path, monkeypatch):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("tiny-5x5-corner.toml", "ring-6x6.toml"):
        shutil.copy(PUZZLES / name, folder / name)
    real = Path.read_bytes

    def read_bytes(self):
        if self.name == "ring-6x6.toml":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)  # root reads any file: pretend
    out = tmp_path / "out"
    result = batch(folder, GAME, "--after", 99, out=out)
    assert result.exit_code == 0, result.output
    got = by_key(out)
    unreadable = got["in/ring-6x6.toml", None]["error"]
    assert unreadable == f"{folder / 'ring-6x6.toml'}: cannot read: Permission denied"
    past = got["duo-L4-s29.blksgf", None]["error"]
    assert "duo-L4-s29.blksgf" in past and "--after 99: the game has only 27 placements" in past
    assert got["in/tiny-5x5-corner.toml", None]["answer"] == "solved"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX lock")
def test_one_batch_at_a_time_per_folder(tmp_path):
    import fcntl

    out = tmp_path / "out"
    out.mkdir()
    holder = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        one_line_error(batch(PUZZLES / "tiny-5x5-corner.toml", out=out), "another batch is writing")
    finally:
        os.close(holder)
    assert list(out.iterdir()) == []
    assert batch(PUZZLES / "tiny-5x5-corner.toml", out=out).exit_code == 0


def test_dispatch_order_spreads_game_positions():
    from solver.batch.items import find_sources, make_items
    from solver.batch.runner import dispatch_order

    sources = find_sources([GAME, GAMES / "junior-L1-s104.blksgf"])
    sources += find_sources([PUZZLES / "ring-6x6.toml"])
    items = make_items(sources, every=10, after=None)
    assert [(i.source.name, i.after) for i in dispatch_order(items)] == [
        ("ring-6x6.toml", None),
        ("duo-L4-s29.blksgf", 10),
        ("junior-L1-s104.blksgf", 10),
        ("duo-L4-s29.blksgf", 20),
        ("junior-L1-s104.blksgf", 20),
        ("duo-L4-s29.blksgf", 27),
        ("junior-L1-s104.blksgf", 30),
        ("junior-L1-s104.blksgf", 38),
    ]


def test_together_gives_one_joint_answer_per_position(tmp_path):
    """--together: one record "together" per position (as check --together answers it),
    counted once; the reason in summary.csv; a run without --together redoes the items."""
    from solver.formats.game import load_game
    from solver.tasks.endgame import joint_check

    out = tmp_path / "out"
    result = batch(GAME, "--every", "20", "--together", "--time-limit", "10", out=out)
    assert result.exit_code == 0, result.output
    got = by_key(out)
    assert sorted(got) == [("duo-L4-s29.blksgf", 20), ("duo-L4-s29.blksgf", 27)]
    game = load_game(GAME)
    for (_, after), row in got.items():
        (record,) = row["colours"]
        position = game.position(after)
        expected = joint_check(position, ("purple", "orange"))
        assert record["colour"] == "together" and record["colours"] == ["purple", "orange"]
        assert (record["answer"], record["reason"]) == (expected.answer, expected.reason)
        assert record["answer"] == "no" and row["answer"] == "no" and row["together"] is True
        left = [position.colour(c).remaining for c in ("purple", "orange")]
        assert record["left"] == sum(map(len, left))
    assert "2 items run" in result.output and "no 2, unknown 0" in result.output
    assert "together no (purple needs 43 squares, only 42 are within its reach)" in result.output
    summary = list(csv.DictReader((out / "summary.csv").open()))
    assert [(r["colour"], r["answer"], r["after"]) for r in summary] == [
        ("together", "no", "20"),
        ("together", "no", "27"),
    ]
    assert summary[0]["reason"] == "purple needs 43 squares, only 42 are within its reach"
    assert summary[0]["point_of_no_return"] == "before 20"
    assert "| together | no | no | before 20 |" in (out / "README.md").read_text()
    again = batch(GAME, "--every", "20", "--together", "--time-limit", "10", out=out)
    assert "0 items run, 2 skipped" in again.output
    # per-colour checks of the same positions: a different question, kept beside the joint one
    separate = batch(GAME, "--every", "20", "--time-limit", "10", out=out)
    assert "2 items run, 0 skipped" in separate.output
    kinds = sorted((r["after"], [c["colour"] for c in r["colours"]]) for r in rows(out))
    assert kinds == [
        (20, ["purple", "orange"]),
        (20, ["together"]),
        (27, ["purple", "orange"]),
        (27, ["together"]),
    ]
    readme = (out / "README.md").read_text()
    assert "| together | no | no | before 20 |" in readme and "| purple |" in readme
    again = batch(GAME, "--every", "20", "--together", "--time-limit", "10", out=out)
    assert "0 items run, 2 skipped" in again.output


def test_together_yes_writes_a_layout_that_verifies(tmp_path):
    """A joint yes: the position after 16 placements of a real game, each colour's pieces
    left being those it plays later (so the game itself shows they all fit): the record's
    layout is written, with its picture, and verifies."""
    from dataclasses import replace

    from solver.batch.items import Item, Source
    from solver.batch.work import game_together
    from solver.core.pieces import PIECES
    from solver.formats.game import load_game

    game = load_game(GAME)
    position, end = game.position(16), game.position()
    states = []
    for state in position.colours:
        later = end.colour(state.name).placed[len(state.placed) :]
        pieces = sorted((p.piece for p in later), key=lambda p: PIECES[p].index)
        states.append(replace(state, remaining=tuple(pieces)))
    position = replace(position, colours=tuple(states))
    item = Item(Source(GAME, GAME.name, "game"), GAME.read_bytes(), "0" * 64, 16)
    row, files = game_together(item, BatchSettings(time_limit=30, together=True), position)
    (record,) = row["colours"]
    assert record["answer"] == "yes" and record["score"] is not None
    assert record["solution"] == "solutions/duo-L4-s29-after-16-together.json"
    assert set(files) == {record["solution"], record["picture"]}
    path = tmp_path / "together.json"
    path.write_text(files[record["solution"]])
    report, false_claims = verify(read_solution(path))
    assert report.legal and not false_claims, (report.problem, false_claims)
    assert all(report.report(c).all_placed for c in ("purple", "orange"))


def test_an_unknown_before_a_yes_reads_yes():
    """In the results README a colour's unknown before a position answered yes reads
    "yes (by N)" (that layout, after the moves in between, works there too); one after it
    stays unknown, and the counts stay the solver's."""
    from solver.batch.report import readme, tally

    def row(after, answer):
        record = {"colour": "together", "answer": answer, "left": 30}
        return {"item": "g.blksgf", "kind": "game", "status": "done", "after": after,
                "end": after == 50, "colours": [record], "seconds": 1.0}  # fmt: skip

    answers = {10: "unknown", 20: "unknown", 30: "yes", 40: "unknown", 50: "no"}
    rows_ = [row(n, a) for n, a in answers.items()]
    text = readme(rows_, [])
    cells = "| yes (by 30) | yes (by 30) | **yes** | unknown | no | 30 (no by 50) |"
    assert f"| `g.blksgf` | 50 | together {cells}" in text
    assert tally(rows_)["unknown"] == 3


def _sweep_rows(out: Path) -> dict:
    return {(r["item"], r["seed"]): r for r in rows(out) if r.get("sweep")}


def test_a_seed_sweep_runs_each_seed_until_one_settles_its_puzzle(tmp_path):
    """--seeds N: a puzzle runs once per seed, each its own row, key and solution file;
    once a seed answers it, its later seeds are dropped; run again (with more seeds), the
    batch runs only the seeds it has not run; a plain run beside it keeps its own row."""
    out = tmp_path / "out"
    paths = [PUZZLES / "tiny-5x5-corner.toml", PUZZLES / "tiny-4x4-impossible.toml"]
    settings = BatchSettings(backend="repair", time_limit=0.2)  # repair never says no
    report = run_batch(BatchOptions(paths, out, settings, jobs=1, seeds=3))
    assert (report.ran, report.skipped, report.not_run) == (4, 0, 2)
    sweep = _sweep_rows(out)
    assert sorted(sweep) == [("tiny-4x4-impossible.toml", s) for s in (0, 1, 2)] + [
        ("tiny-5x5-corner.toml", 0)
    ]
    assert sweep["tiny-5x5-corner.toml", 0]["answer"] == "solved"
    assert sweep["tiny-5x5-corner.toml", 0]["solution"] == "sweeps/tiny-5x5-corner/seed-0.json"
    assert {sweep["tiny-4x4-impossible.toml", s]["answer"] for s in (0, 1, 2)} == {"unknown"}
    assert_solutions_verify(out)
    readme = (out / "README.md").read_text()
    assert "`tiny-4x4-impossible.toml` seed 2" in readme and "a seed sweep" in readme
    with open(out / "summary.csv") as f:
        seeds = [(r["item"], r["seed"]) for r in csv.DictReader(f)]
    assert seeds.count(("tiny-4x4-impossible.toml", "2")) == 1

    more = run_batch(BatchOptions(paths, out, settings, jobs=1, seeds=4))
    assert (more.ran, more.skipped, more.not_run) == (1, 7, 0)
    assert ("tiny-4x4-impossible.toml", 3) in _sweep_rows(out)

    plain = run_batch(BatchOptions(paths, out, dataclasses.replace(settings, seed=7), jobs=1))
    assert plain.ran == 2
    assert len(_sweep_rows(out)) == 5 and len(rows(out)) == 7

    # --force redoes the sweep: the solved seed runs again and settles it again
    forced = run_batch(BatchOptions(paths, out, settings, jobs=1, seeds=2, force=True))
    assert (forced.ran, forced.not_run) == (3, 1)
    assert _sweep_rows(out)["tiny-5x5-corner.toml", 0]["answer"] == "solved"
    assert_solutions_verify(out)


def test_a_new_sweep_of_changed_content_replaces_the_old_rows(tmp_path):
    """A sweep of other content (or settings) answers another question: the old sweep's
    rows and files go, as a plain item's row is replaced; plain runs of the same folder
    (a puzzle named like a seed's file among them) keep files of their own."""
    folder, out = tmp_path / "in", tmp_path / "out"
    folder.mkdir()
    shutil.copy(PUZZLES / "tiny-5x5-corner.toml", folder / "p.toml")
    shutil.copy(PUZZLES / "tiny-5x5-corner.toml", folder / "p-seed-1.toml")
    settings = BatchSettings(backend="search")
    run_batch(BatchOptions([folder], out, settings, jobs=2, seeds=3))
    plain = run_batch(BatchOptions([folder], out, settings, jobs=1))
    assert plain.ran == 2
    files = [r["solution"] for r in rows(out)]
    assert len(files) == len(set(files)) == len(rows(out))  # no two rows share a file
    assert_solutions_verify(out)
    old = {r["solution"] for r in rows(out) if r.get("sweep") and r["item"] == "in/p.toml"}
    assert old

    shutil.copy(PUZZLES / "tiny-4x4-impossible.toml", folder / "p.toml")
    run_batch(BatchOptions([folder], out, settings, jobs=1, seeds=3))
    now = [r for r in rows(out) if r.get("sweep") and r["item"] == "in/p.toml"]
    assert [(r["seed"], r["answer"]) for r in now] == [(0, "no")]
    assert not any((out / f).exists() for f in old - {now[0]["solution"]})
    assert_solutions_verify(out)
    assert "a seed sweep (seeds 0-" in (out / "README.md").read_text()


def test_sweep_seeds_step_by_the_workers_and_stay_in_range(tmp_path):
    from solver.batch.runner import sweep_seeds
    from solver.errors import InputError

    def options(**kw):
        return BatchOptions([], tmp_path, BatchSettings(**kw.pop("settings", {})), **kw)

    assert sweep_seeds(options(seeds=1)) is None
    assert list(sweep_seeds(options(seeds=3, settings={"seed": 5, "workers": 2}))) == [5, 7, 9]
    with pytest.raises(InputError):
        sweep_seeds(options(seeds=3, settings={"seed": 2**31 - 2}))
    result = batch(
        PUZZLES / "tiny-5x5-corner.toml", "--seed", 2**31 - 2, "--seeds", 3, out=tmp_path / "o"
    )
    one_line_error(result, "--seeds")
    assert not (tmp_path / "o").exists()


def test_a_seed_sweep_drops_bad_input_after_its_first_error(tmp_path):
    bad = tmp_path / "bad-piece.toml"
    bad.write_text(
        'variant = "custom"\nsize = [5, 5]\n[start]\nblue = "a5"\n[pieces]\nblue = ["Q7"]\n'
    )
    result = batch(bad, "--seeds", 3, "--jobs", 1, "--plain", out=tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert len(rows(tmp_path / "out")) == 1
    assert "2 seeds dropped" in result.output and "found bad input" in result.output


def test_a_seed_sweep_on_dask_cancels_the_other_seeds(tmp_path):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "out"
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        report = run_batch(
            BatchOptions(
                [PUZZLES / "tiny-5x5-corner.toml"],
                out,
                BatchSettings(),
                scheduler=cluster.scheduler_address,
                seeds=4,
            )
        )
    solved = [r for r in rows(out) if r["answer"] == "solved"]
    assert len(solved) >= 1 and report.ran + report.not_run == 4
    assert all(r["sweep"] for r in rows(out))
    assert_solutions_verify(out)


def test_rows_from_before_together_existed_still_count_as_done(tmp_path):
    out = tmp_path / "out"
    assert batch(PUZZLES / "tiny-5x5-corner.toml", out=out).exit_code == 0
    old = [{k: v for k, v in r.items() if k != "together"} for r in rows(out)]
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in old))
    again = batch(PUZZLES / "tiny-5x5-corner.toml", out=out)
    assert "1 already done" in again.output and "0 items run" in again.output


def _seed_0_hangs(item, settings):
    if item.seed == 0:  # were it not stopped, it would answer after this and count as run
        time.sleep(30)
    return _real_run_item(item, settings)


def test_a_sweep_stops_the_seeds_still_running_once_one_answers(tmp_path, monkeypatch):
    """Local workers: the seed still running when another seed answers its puzzle is
    stopped (its worker replaced), so the batch does not wait for its time limit."""
    monkeypatch.setattr(pools, "run_item", _seed_0_hangs)  # forked workers inherit it
    out = tmp_path / "out"
    report = run_batch(
        BatchOptions([PUZZLES / "tiny-5x5-corner.toml"], out, BatchSettings(), jobs=2, seeds=3)
    )
    assert (report.ran, report.not_run) == (1, 2)
    assert [(r["seed"], r["answer"]) for r in rows(out)] == [(1, "solved")]


def test_a_max_score_sweep_is_settled_only_by_a_proven_best(tmp_path):
    """A max-score layout not proven best leaves the other seeds to run (one may score
    more); an optimal one settles the sweep."""
    from solver.batch.store import settles

    by = {"kind": "puzzle", "backend": "auto", "answered_by": "search"}
    row = {**by, "goal": "max-score", "solve_status": "solved", "answer": "solved"}
    assert not settles(row)
    assert settles({**row, "solve_status": "optimal"})
    assert settles({**by, "goal": "place-all", "solve_status": "solved", "answer": "solved"})
    no = {**by, "goal": "place-all", "solve_status": "infeasible", "answer": "no"}
    assert settles(no)
    # a proof from a backend that cannot prove settles nothing (an edited row)
    assert not settles({**no, "answered_by": "repair"})
    assert not settles({**row, "solve_status": "optimal", "backend": "symmetric"})
    assert not settles({"goal": "place-all", "solve_status": "unknown", "answer": "unknown"})
    out = tmp_path / "out"
    paths = [PUZZLES / "max-score-5x5.toml"]
    report = run_batch(BatchOptions(paths, out, BatchSettings(backend="search"), jobs=1, seeds=3))
    assert [r["solve_status"] for r in rows(out)] == ["optimal"] and report.not_run == 2


def test_a_results_file_with_junk_or_a_stale_sweep_reopens_cleanly(tmp_path):
    """A line that is not a results row is dropped, not a crash; on reopening, an item's
    sweep rows of an earlier question (content) are gone once a later one began, even
    when the batch that began it was killed before it compacted the file."""
    from solver.batch.store import Store

    folder, out = tmp_path / "in", tmp_path / "out"
    folder.mkdir()
    shutil.copy(PUZZLES / "tiny-5x5-corner.toml", folder / "p.toml")
    settings = BatchSettings(backend="repair", time_limit=0.2)
    run_batch(BatchOptions([folder], out, settings, jobs=1, seeds=2))
    first = (out / "results.jsonl").read_text()
    shutil.copy(PUZZLES / "tiny-4x4-impossible.toml", folder / "p.toml")
    run_batch(BatchOptions([folder], out, settings, jobs=1, seeds=2))  # unknown x2
    second = (out / "results.jsonl").read_text()
    # as if that second batch had been killed before compacting: old lines, then new
    (out / "results.jsonl").write_text(first + "[1, 2]\n" + second)
    store = Store(out)
    store.open()
    try:
        assert store.dropped == 0 and len(store.notes) == 1, store.notes
        assert "dropped (not an object): done again" in store.notes[0]
        answers = [(r["seed"], r["answer"]) for r in store.rows.values()]
        assert answers == [(0, "unknown"), (1, "unknown")]
    finally:
        store.close()
    again = run_batch(BatchOptions([folder], out, settings, jobs=1, seeds=2))
    assert (again.ran, again.skipped) == (0, 2)
    assert_solutions_verify(out)


def test_together_does_not_split_a_puzzles_rows(tmp_path):
    out = tmp_path / "out"
    puzzle = PUZZLES / "tiny-5x5-corner.toml"
    assert batch(puzzle, out=out).exit_code == 0
    again = batch(puzzle, "--together", out=out)
    assert "1 already done" in again.output
    assert len(rows(out)) == 1 and rows(out)[0]["together"] is False


def test_resume_redoes_a_row_whose_proof_cannot_be_trusted(tmp_path):
    """A row read back is kept only if what it claims can hold: a no or a proven best from
    a backend that cannot prove, a no whose status is not infeasible, or a row whose
    solution file is gone is done again (issue 23), not trusted."""
    out = tmp_path / "out"
    names = ("tiny-4x4-impossible.toml", "max-score-5x5.toml", "tiny-5x5-corner.toml")
    paths = [PUZZLES / n for n in names]
    assert batch(*paths, "--backend", "search", "--jobs", 1, out=out).exit_code == 0
    first = {Path(r["path"]).name: r for r in rows(out)}
    assert [first[n]["solve_status"] for n in names] == ["infeasible", "optimal", "solved"]
    edits = {
        "tiny-4x4-impossible.toml": {"answered_by": "repair"},
        "max-score-5x5.toml": {"answered_by": "greedy"},
        # a puzzle with layouts, forged to a no by a layout-only backend
        "tiny-5x5-corner.toml": {
            "answer": "no",
            "solve_status": "infeasible",
            "answered_by": "repair",
        },
    }
    forged = [{**first[n], **edits[n]} for n in names]
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in forged))
    again = batch(*paths, "--backend", "search", "--jobs", 1, out=out)
    assert "3 items run" in again.output, again.output
    redone = {Path(r["path"]).name: r for r in rows(out)}
    assert {n: redone[n]["answered_by"] for n in names} == dict.fromkeys(names, "search")
    assert redone["tiny-5x5-corner.toml"]["answer"] == "solved"
    # rows that hold are kept; one whose solution file is gone is done again
    assert "0 items run" in batch(*paths, "--backend", "search", "--jobs", 1, out=out).output
    (out / redone["max-score-5x5.toml"]["solution"]).unlink()
    last = batch(*paths, "--backend", "search", "--jobs", 1, out=out)
    assert "1 item run" in last.output and "2 already done" in last.output
    assert_solutions_verify(out)


def test_untrusted_claims_of_game_rows():
    """A game row's colour records: a no needs an infeasible place-all solve by a backend
    that can prove (the first one named), a proven best the last one named; a joint no
    one backend (or the area bound) that can prove."""
    from solver.trust.proofs import untrusted_claim

    no = {
        "colour": "blue",
        "answer": "no",
        "place_all_status": "infeasible",
        "best_status": "optimal",
    }
    row = {"kind": "game", "backend": "auto", "colours": [{**no, "backend": "search, then cpsat"}]}
    assert untrusted_claim(row) is None
    assert untrusted_claim({**row, "backend": "repair"}) is not None
    for record in (
        {**no, "backend": "repair, then search"},
        {**no, "backend": "search, then repair"},
        {**no, "backend": "search", "place_all_status": "unknown"},
    ):
        assert untrusted_claim({**row, "colours": [record]}) is not None, record
    yes = {"colour": "blue", "answer": "yes", "place_all_status": "solved", "backend": "greedy"}
    assert untrusted_claim({**row, "colours": [yes]}) is None
    joint = {"colour": "together", "colours": ["blue", "red"], "answer": "no"}
    assert untrusted_claim({**row, "colours": [{**joint, "backend": "area bound"}]}) is None
    assert untrusted_claim({**row, "colours": [{**joint, "backend": "repair, cpsat"}]}) is None
    assert untrusted_claim({**row, "colours": [{**joint, "backend": "repair"}]}) is not None
    # a report shows only the record that fails as unknown (its best not proven best)
    from solver.trust.proofs import as_trusted

    good, bad = {**no, "backend": "search"}, {**no, "colour": "red", "backend": "repair"}
    shown = as_trusted({**row, "colours": [good, bad]})
    assert shown["colours"][0] == good and "repair" in shown["not_trusted"]
    assert (shown["colours"][1]["answer"], shown["colours"][1]["best_status"]) == (
        "unknown",
        "solved",
    )
    assert as_trusted({**row, "colours": [good]}) == {**row, "colours": [good]}
    combined = {**joint, "backend": "search, search+repair"}  # as batch --together writes
    assert untrusted_claim({**row, "colours": [combined]}) is None
    assert untrusted_claim({**row, "colours": [{**combined, "backend": "repair, magic"}]})


def test_the_summary_does_not_show_an_untrusted_row_as_a_proof(tmp_path):
    """Rows of items not run this time stay in the folder and in its summary: one whose
    no cannot be trusted is shown (and counted) as unknown there, with the reason."""
    out = tmp_path / "out"
    impossible, corner = PUZZLES / "tiny-4x4-impossible.toml", PUZZLES / "tiny-5x5-corner.toml"
    assert batch(impossible, corner, "--backend", "search", "--jobs", 1, out=out).exit_code == 0
    edited = [{**r, "answered_by": "repair"} if r["answer"] == "no" else r for r in rows(out)]
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in edited))
    again = batch(corner, "--backend", "search", "--jobs", 1, out=out)  # the other not run
    assert "in " + str(out) + ": solved 1, no 0, unknown 1, errors 0" in again.output
    summary = list(csv.DictReader((out / "summary.csv").open()))
    assert sorted(r["item_answer"] for r in summary) == ["solved", "unknown"]
    readme = (out / "README.md").read_text()
    assert "| `tiny-4x4-impossible.toml` | place-all | **unknown** |" in readme


def test_links_in_an_input_folder_are_walked_once(tmp_path):
    """A folder someone else made may hold loops of symbolic links (``loop -> .``, ``up ->
    ..``): each real folder is walked once, and a file keeps its plain name (issue 41,
    beyond the items: a loop made names of 40 ``loop/`` parts, and a link up walked the
    whole folder above again at each level)."""
    from solver.batch.items import find_sources

    top = tmp_path / "in"
    (top / "sub").mkdir(parents=True)
    shutil.copy(PUZZLES / "tiny-5x5-corner.toml", top / "a.toml")
    shutil.copy(PUZZLES / "tiny-4x4-impossible.toml", top / "sub" / "b.toml")
    (top / "loop").symlink_to(".")
    (top / "sub" / "up").symlink_to("..")
    (top / "another").symlink_to("sub")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(PUZZLES / "ring-6x6.toml", elsewhere / "c.toml")
    (top / "sub" / "linked").symlink_to(elsewhere)  # a folder linked in is still read
    names = sorted(s.name for s in find_sources([top]))
    assert names == ["in/a.toml", "in/sub/b.toml", "in/sub/linked/c.toml"]
