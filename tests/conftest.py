"""Shared test data: the folders every test file reads, named once.

- ``ROOT``: the project folder; ``PUZZLES``: the shipped puzzle files (``puzzles/``).
- ``GAMES``: real Pentobi games vendored under ``tests/data/games`` (with their JSON sidecars
  and Pentobi's legal-move oracle, ``oracle.jsonl``): no test needs anything outside the
  repository, and a test whose vendored game is missing fails rather than skips.
- ``SGF_FIXTURES``: small hand-written SGF files, good and bad (``tests/data/sgf``).

And two helpers for command-line tests: :func:`run_cli` and :func:`one_line_error`.
"""

from pathlib import Path

from click.testing import CliRunner

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
PUZZLES = ROOT / "puzzles"
GAMES = TESTS / "data" / "games"
SGF_FIXTURES = TESTS / "data" / "sgf"


def run_cli(*args):
    """Run ``blokus-solo`` with these arguments (each turned into a string)."""
    from solver.cli.commands import main

    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def one_line_error(result, *fragments: str) -> str:
    """Assert bad input: exit status 2, one line "error: ..." holding every fragment."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output
    for f in fragments:
        assert f in lines[0], lines[0]
    return lines[0]
