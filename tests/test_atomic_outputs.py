"""Atomic outputs: a failed write (no space, I/O error, a signal) leaves the old file and no
temporary file; every --out is checked before any work (one line, exit 2)."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
from pathlib import Path

import pytest
from helpers import GAMES, PUZZLES, SGF_FIXTURES, one_line_error, run_cli

from solver.errors import InputError
from solver.formats import files
from solver.formats.files import TEMPORARY, check_output, write_text_atomic

PUZZLE = PUZZLES / "tiny-5x5-corner.toml"
GAME = GAMES / "classic-L1-s56.blksgf"


def _failing_fsync(error: BaseException):
    """An ``os.fsync`` that raises ``error``: the temporary file is written by then."""

    def fsync(fd):
        assert os.fstat(fd).st_size > 0  # half a file is on disk, as on a full disk
        raise error

    return fsync


@pytest.mark.parametrize(
    "error",
    [OSError(errno.ENOSPC, "No space left on device"), OSError(errno.EIO, "I/O error")],
    ids=["no-space", "io-error"],
)
@pytest.mark.parametrize(
    "command, out",
    [("solve", "a.json"), ("solve", "a.svg"), ("solve", "a.png"), ("export", "a.dlx")],
)
def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(
    tmp_path, monkeypatch, error, command, out
):
    target = tmp_path / out
    target.write_bytes(b"old")
    monkeypatch.setattr(files.os, "fsync", _failing_fsync(error))
    result = run_cli(command, PUZZLE, "--out", target)
    assert result.exit_code == 2, result.output
    assert f"cannot write: {error.strerror}" in result.output
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == [out]


@pytest.mark.parametrize("error", [KeyboardInterrupt(), SystemExit(143)])
def test_an_interrupted_write_leaves_no_temporary(tmp_path, monkeypatch, error):
    target = tmp_path / "a.json"
    target.write_text("old")
    monkeypatch.setattr(files.os, "fsync", _failing_fsync(error))
    with pytest.raises(type(error)):
        write_text_atomic(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_a_signal_during_a_write_comes_after_it(tmp_path, monkeypatch):
    """SIGTERM (default: the process ends at once) arriving mid-write is raised again once
    the file is renamed into place: no temporary file for it to leave."""
    seen: list[int] = []
    old = signal.signal(signal.SIGTERM, lambda s, _f: seen.append(s))
    real = os.fsync

    def fsync(fd):
        os.kill(os.getpid(), signal.SIGTERM)
        assert not seen  # held off while the file is written
        real(fd)

    monkeypatch.setattr(files.os, "fsync", fsync)
    try:
        write_text_atomic(tmp_path / "a.json", "new")
    finally:
        signal.signal(signal.SIGTERM, old)
    assert seen == [signal.SIGTERM]
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]
    assert (tmp_path / "a.json").read_text() == "new"


def test_batch_removes_its_stale_temporary_files(tmp_path):
    out = tmp_path / "out"
    (out / "solutions").mkdir(parents=True)
    stale = [out / ".summary.csv.ab_cd123", out / "solutions" / ".x.json.k2j4h5g6"]
    for path in stale:
        path.write_text("half")
    theirs = out / ".notes.txt.abcdefgh"  # not a file batch writes: left alone
    theirs.write_text("mine")
    assert all(TEMPORARY.match(p.name) for p in stale)
    result = run_cli("batch", PUZZLE, "--out", out, "--jobs", 1, "--plain")
    assert result.exit_code == 0, result.output
    assert not any(p.exists() for p in stale) and theirs.exists()


# --out checked before any work: each command with a file output, then a folder output

FILE_COMMANDS = {
    "solve": ["solve", PUZZLE, "--plain"],
    "check": ["check", GAME, "--plain", "--colour", "blue"],
    "review": ["review", GAME, "--plain"],
    "count": ["count", PUZZLE],
    "show": ["show", PUZZLE, "--plain"],
    "export": ["export", PUZZLE],
    "cubes join": ["cubes", "join", PUZZLE.parent],
}
SUFFIX = {"review": ".blksgf", "show": ".svg", "export": ".dlx"}


def _bad_files(tmp_path: Path, suffix: str) -> dict[str, tuple[Path, str]]:
    """Outputs that cannot be written, with a fragment of the error each must give."""
    (tmp_path / "gone").symlink_to(tmp_path / "missing")
    (tmp_path / "file").write_text("")
    (tmp_path / f"dangling{suffix}").symlink_to(tmp_path / "missing" / f"x{suffix}")
    return {
        "300 characters": (tmp_path / ("n" * 296 + suffix), "file name too long"),
        "one byte past NAME_MAX": (
            tmp_path / ("n" * (_name_max(tmp_path) + 1 - len(suffix)) + suffix),
            "too long",
        ),
        "through a link to a missing folder": (tmp_path / "gone" / f"x{suffix}", "not exist"),
        "a link to a missing folder": (tmp_path / f"dangling{suffix}", "does not exist"),
        "under a file": (tmp_path / "file" / f"x{suffix}", "not a folder"),
    }


@pytest.mark.parametrize("command", FILE_COMMANDS)
def test_every_file_output_is_checked_before_the_work(tmp_path, command):
    suffix = SUFFIX.get(command, ".json")
    for case, (out, fragment) in _bad_files(tmp_path, suffix).items():
        result = run_cli(*FILE_COMMANDS[command], "--out", out)
        assert result.exit_code == 2, f"{case}: {result.output}"
        one_line_error(result, "--out", fragment)  # one line: nothing ran before it


FOLDER_COMMANDS = {
    "batch": ["batch", PUZZLE, "--jobs", 1, "--plain"],
    "generate": ["generate", "--goal", "avoid", "--pieces", 2, "--size", "4x4"],
    "cubes split": ["cubes", "split", PUZZLES / "tiny-5x5-four.toml"],
}


@pytest.mark.parametrize("command", FOLDER_COMMANDS)
def test_every_folder_output_is_checked_before_the_work(tmp_path, command):
    (tmp_path / "file").write_text("")
    (tmp_path / "link").symlink_to(tmp_path / "file")
    cases = {
        tmp_path / "file": "is a file",
        tmp_path / "link": "is a file",
        tmp_path / "file" / "below": "is a file",
        tmp_path / ("d" * 300): "too long",
    }
    for out, fragment in cases.items():
        result = run_cli(*FOLDER_COMMANDS[command], "--out", out)
        one_line_error(result, fragment)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "link"]


def _name_max(folder: Path) -> int:
    return os.pathconf(folder, "PC_NAME_MAX")


@pytest.mark.parametrize("suffix", [".json", ".svg", ".png"])
def test_the_longest_name_the_file_system_takes_is_accepted(tmp_path, suffix):
    """The limit is the file system's own (os.pathconf), nothing less: the temporary
    file's name is cut to fit (issue 31, item 9: a 250-character name was refused)."""
    longest = _name_max(tmp_path)
    for size in (250, longest):
        fits = tmp_path / ("n" * (size - len(suffix)) + suffix)
        check_output(fits)
        result = run_cli("solve", PUZZLE, "--plain", "--out", fits)
        assert result.exit_code == 0, result.output
        assert fits.stat().st_size > 0
        fits.write_bytes(b"old")  # written again over an existing file: replaced whole
        assert run_cli("solve", PUZZLE, "--plain", "--out", fits).exit_code == 0
        assert fits.read_bytes() != b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        "n" * (size - len(suffix)) + suffix for size in (250, longest)
    )  # no temporary file left
    with pytest.raises(InputError, match="too long"):
        check_output(tmp_path / ("n" * (longest + 1 - len(suffix)) + suffix))


def test_a_temporary_name_keeps_the_end_of_a_long_name(tmp_path):
    """Cut to TEMPORARY_STEM bytes from the end, so the suffix stays (batch's clean-up
    finds its own temporary files by it) and a name of many-byte characters still fits."""
    name = "é" * 120 + ".json"  # 245 bytes, 2 per é: cut where an é starts
    prefix = files._temporary_prefix(name)
    assert prefix == "." + "é" * ((files.TEMPORARY_STEM - 5) // 2) + ".json."
    assert files.TEMPORARY.match(prefix + "abcd_123")
    files.write_text_atomic(tmp_path / name, "x")
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_a_batch_item_whose_solution_name_cannot_be_written_is_an_error_row(tmp_path):
    """A game's solution file's name (the record's, plus "-after-N-colour.json") is too
    long: decided before any solve, as an error row; the other items run, among them a
    puzzle whose name (and so its solution file's) is NAME_MAX bytes long."""
    folder = tmp_path / "in"
    folder.mkdir()
    longest = os.pathconf(tmp_path, "PC_NAME_MAX")
    game = SGF_FIXTURES / "setup-duo.blksgf"
    (folder / ("g" * (longest - len(".blksgf")) + ".blksgf")).write_bytes(game.read_bytes())
    (folder / ("x" * (longest - len(".toml")) + ".toml")).write_bytes(PUZZLE.read_bytes())
    (folder / "ok.toml").write_bytes(PUZZLE.read_bytes())
    result = run_cli("batch", folder, "--out", tmp_path / "out", "--jobs", 1, "--plain")
    assert "Traceback" not in result.output
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").open()]
    by_item = {Path(row["item"]).name[:2]: row for row in rows}
    assert by_item["ok"]["answer"] == by_item["xx"]["answer"] == "solved"
    assert (tmp_path / "out" / by_item["xx"]["solution"]).is_file()
    assert by_item["gg"]["status"] == "error" and "too long" in by_item["gg"]["error"]


# batch's own files in its folder, checked before any work (issue 31, item 6)


def _in_the_way(out: Path, name: str) -> None:
    """Put something that cannot be written in place of ``out/name``."""
    path = out / name
    if name in ("solutions", "sweeps"):
        shutil.rmtree(path, ignore_errors=True)
        path.write_text("a file where a folder should be")
    elif name == "loop":
        (out / "results.jsonl").unlink()
        (out / "results.jsonl").symlink_to(out / "loop")
        path.symlink_to(out / "results.jsonl")
    else:
        path.unlink(missing_ok=True)
        path.mkdir()


WAYS = {
    "results.jsonl": ("results.jsonl", "is a folder"),
    "runs.jsonl": ("runs.jsonl", "is a folder"),
    "summary.csv": ("summary.csv", "is a folder"),
    "README.md": ("README.md", "is a folder"),
    "solutions": ("solutions", "is a file, not a folder"),
    "sweeps": ("sweeps", "is a file, not a folder"),
    "loop": ("results.jsonl", "cannot write: Too many levels of symbolic links"),
}


@pytest.mark.parametrize("way", WAYS)
def test_a_batch_folder_whose_files_cannot_be_written_is_refused_before_the_work(tmp_path, way):
    """One line naming the file, exit 2, no item run, and the earlier results kept as
    they were (with --force too: nothing is redone before the refusal)."""
    out = tmp_path / "out"
    args = ("batch", PUZZLES / "tiny-5x5-four.toml", "--out", out, "--jobs", 1, "--plain")
    assert run_cli(*args).exit_code == 0
    _in_the_way(out, way)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and not p.is_symlink()}
    name, fragment = WAYS[way]
    for extra in ((), ("--force",)):
        one_line_error(run_cli(*args, *extra), f"{out / name}: {fragment}")
        after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and not p.is_symlink()}
        assert after == before


def test_a_solutions_subfolder_that_is_a_file_is_an_error_row(tmp_path):
    """Only the items whose solution files would go there: decided before their solve."""
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "a.toml").write_bytes(PUZZLE.read_bytes())
    (folder / "b.toml").write_bytes(PUZZLE.read_bytes())
    out = tmp_path / "out"
    (out / "solutions" / "in").mkdir(parents=True)
    (out / "solutions" / "in" / "sub").write_text("in the way")
    result = run_cli("batch", folder, "--out", out, "--jobs", 1, "--plain")
    assert result.exit_code == 0, result.output
    rows = {r["item"]: r for r in map(json.loads, (out / "results.jsonl").open())}
    assert rows["in/b.toml"]["answer"] == "solved"
    assert rows["in/sub/a.toml"]["status"] == "error"
    error = rows["in/sub/a.toml"]["error"]
    assert f"its output folder {out / 'solutions' / 'in' / 'sub'} is a file" in error
    assert (out / "solutions" / "in" / "sub").read_text() == "in the way"
