"""Output files: written atomically with the mode a plain open() gives, links followed, and
bad --out targets refused before any solving."""

from __future__ import annotations

import os
from pathlib import Path

import helpers
from click.testing import CliRunner

from solver.cli.commands import main

PUZZLE = str(helpers.PUZZLES / "tiny-5x5-corner.toml")


def solve_to(out: Path):
    return CliRunner().invoke(main, ["solve", PUZZLE, "--plain", "--out", str(out)])


def test_new_file_mode_follows_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        assert solve_to(tmp_path / "a.json").exit_code == 0
    finally:
        os.umask(old)
    assert (tmp_path / "a.json").stat().st_mode & 0o777 == 0o640


def test_existing_mode_is_kept_and_links_are_followed(tmp_path):
    target = tmp_path / "t.json"
    target.write_text("{}")
    target.chmod(0o604)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert solve_to(link).exit_code == 0
    assert link.is_symlink()
    assert target.stat().st_mode & 0o777 == 0o604
    assert '"status": "solved"' in target.read_text()


def test_a_folder_as_out_is_refused_before_solving(tmp_path):
    folder = tmp_path / "d.json"
    folder.mkdir()
    result = solve_to(folder)
    assert result.exit_code == 2
    assert "is a folder" in result.stderr and result.stderr.count("\n") == 1
    assert "status:" not in result.stdout


def test_no_layout_writes_no_sgf(tmp_path):
    """An SGF holds a game, so an answer without a layout writes none (JSON would record
    the status)."""
    out = tmp_path / "x.blksgf"
    # one colour's 21 pieces on Duo's board: CP-SAT's presolve alone outlasts 0.01 s, and its
    # model builds in about 1 s (the 84-piece model took 5-11 s here)
    puzzle = str(Path(PUZZLE).with_name("duo-purple.toml"))
    result = CliRunner().invoke(
        main,
        [
            "solve",
            puzzle,
            "--plain",
            "--backend",
            "cpsat",
            "--time-limit",
            "0.01",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0
    assert "status: unknown" in result.stdout
    assert "not written" in result.stdout and not out.exists()
