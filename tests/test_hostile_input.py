"""Hostile input: deep nesting is bad input (one line naming the file, exit 2)."""

from __future__ import annotations

import pytest
from conftest import one_line_error, run_cli

# brackets or tables one inside another, in the file formats that allow them
NESTED = {
    "toml array": ("puzzle.toml", lambda n: 'title = "x"\nx = ' + "[" * n + "]" * n),
    "toml inline table": ("puzzle.toml", lambda n: "x = " + "{a=" * n + "1" + "}" * n),
    "json array": ("solution.json", lambda n: "[" * n + "]" * n),
    "json object": ("solution.json", lambda n: '{"a":' * n + "1" + "}" * n),
}


@pytest.mark.parametrize("kind", NESTED)
@pytest.mark.parametrize("depth", [500, 900, 100_000])
def test_deep_nesting_is_bad_input(tmp_path, kind, depth):
    name, text = NESTED[kind]
    path = tmp_path / name
    path.write_text(text(depth))
    commands = [("show", path)]
    commands.append(("verify", path) if name.endswith(".json") else ("solve", path))
    for command in commands:
        line = one_line_error(run_cli(*command), str(path))
        assert "nested too deeply" in line


def test_deep_nesting_in_a_batch_is_an_error_row(tmp_path):
    """A batch goes on past it: the file is an error row, not the end of the run."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "deep.toml").write_text("x = " + "[" * 2000 + "]" * 2000)
    result = run_cli("batch", tmp_path / "in", "--out", tmp_path / "out", "--jobs", 1, "--plain")
    assert result.exit_code in (0, 1), result.output
    rows = (tmp_path / "out" / "results.jsonl").read_text()
    assert "nested too deeply" in rows
