"""batch --shard I/N (job arrays) and batch-merge: the shards are a fixed, disjoint cover of
the items, the same in any file order, and merged they equal a single run."""

from __future__ import annotations

import csv
import json
import random
import shutil
from pathlib import Path

import helpers
import pytest

from solver.batch.items import find_sources, make_items
from solver.batch.shards import Shard, fingerprint, select

PUZZLES = helpers.PUZZLES
GAME = helpers.GAMES / "duo-L4-s29.blksgf"
one_line_error = helpers.one_line_error
#: what differs between two runs of the same items: when and where each ran, how long
TIMING = ("seconds", "finished", "worker")


@pytest.fixture
def folder(tmp_path) -> Path:
    """Four quick puzzles, a bad file and a game record checked at two positions."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    for name in ("tiny-5x5-corner.toml", "tiny-4x4-impossible.toml", "max-score-5x5.toml"):
        shutil.copy(PUZZLES / name, inputs / name)
    shutil.copy(PUZZLES / "ring-6x6.toml", inputs / "ring.toml")
    (inputs / "broken.toml").write_text("size = = 3\n")
    shutil.copy(GAME, inputs / GAME.name)
    return inputs


@pytest.fixture
def small(tmp_path) -> Path:
    """Two quick puzzles."""
    inputs = tmp_path / "small"
    inputs.mkdir()
    for name in ("tiny-5x5-corner.toml", "tiny-4x4-impossible.toml"):
        shutil.copy(PUZZLES / name, inputs / name)
    return inputs


def batch(*args):
    result = helpers.run_cli("batch", *args, "--jobs", 1, "--plain", "--every", 10)
    assert result.exit_code == 0, result.output
    return result


def rows(out: Path) -> dict:
    found = {}
    for line in (out / "results.jsonl").read_text().splitlines():
        row = json.loads(line)
        for record in (row, *row["colours"]):
            for key in TIMING:
                record.pop(key, None)
        found[row["item"], row["after"]] = row
    return found


def untimed(path: Path) -> dict:
    data = json.loads(path.read_text())
    data.pop("seconds")
    return data


def summary(out: Path) -> list[dict]:
    with (out / "summary.csv").open() as f:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in csv.DictReader(f)]


def test_shards_merged_equal_a_single_run(folder, tmp_path):
    batch(folder, "--out", tmp_path / "single")
    for i in (1, 2, 3):
        assert (
            f"shard {i}/3: "
            in batch(folder, "--out", tmp_path / f"s{i}", "--shard", f"{i}/3").output
        )
    shards = [tmp_path / f"s{i}" for i in (3, 1, 2)]  # in any order
    for shard in shards:
        assert 1 <= len(rows(shard)) < len(rows(tmp_path / "single"))
    result = helpers.run_cli("batch-merge", *shards, "--out", tmp_path / "merged")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("merged 3 shards: 8 results\n")
    single, merged = tmp_path / "single", tmp_path / "merged"
    assert rows(merged) == rows(single)
    assert summary(merged) == summary(single)
    named = {r["solution"] for r in rows(single).values() if r.get("solution")}
    assert len(named) == 4
    for name in named:  # the shard's file, copied; the single run's but for its time
        assert any(
            (merged / name).read_bytes() == (s / name).read_bytes()
            for s in shards
            if (s / name).exists()
        )
        assert untimed(merged / name) == untimed(single / name)

    def totals(out):  # items, solved, no, unknown, errors (not the times)
        lines = (out / "README.md").read_text().splitlines()
        return lines[lines.index("## Totals") + 4].split("|")[1:6]

    assert totals(merged) == totals(single) == [" 8 ", " 5 ", " 5 ", " 0 ", " 1 "]
    # the merged folder is a whole run's: batch finds every item done there
    again = batch(folder, "--out", merged)
    assert "8 already done" in again.output and "0 items run" in again.output


def test_the_shards_are_a_fixed_disjoint_cover_in_any_file_order():
    sources = find_sources([PUZZLES])
    items = make_items(sources, None, None) + make_items(find_sources([GAME]), 10, None)
    for count in (1, 2, 5, 7):
        parts = [select(items, Shard(i, count)) for i in range(1, count + 1)]
        keys = [i.key for part in parts for i in part]
        assert sorted(keys, key=str) == sorted((i.key for i in items), key=str)
        assert len(keys) == len(set(keys))
        sizes = [len(p) for p in parts]
        assert max(sizes) - min(sizes) <= 1 + (len(items) // count > 0)
        shuffled = items[:]
        random.Random(count).shuffle(shuffled)
        for i in range(1, count + 1):
            assert {x.key for x in select(shuffled, Shard(i, count))} == {
                x.key for x in parts[i - 1]
            }
    assert fingerprint(items) == fingerprint(shuffled)
    assert fingerprint(items) != fingerprint(items[1:])


def test_refusals(small, tmp_path):
    folder = small
    for i in (1, 2):
        batch(folder, "--out", tmp_path / f"s{i}", "--shard", f"{i}/2")
    other = tmp_path / "other"
    shutil.copytree(folder, other)
    (other / "tiny-5x5-corner.toml").write_text((PUZZLES / "tiny-5x5-centre.toml").read_text())
    batch(other, "--out", tmp_path / "o2", "--shard", "2/2")

    def merge(*shards, out="m"):
        return helpers.run_cli(
            "batch-merge", *(tmp_path / s for s in shards), "--out", tmp_path / out
        )

    one_line_error(merge("s1", "o2"), "shards of different inputs")
    one_line_error(merge("s1"), "shard 2/2 missing")
    one_line_error(merge("s1", "s1", "s2"), "given twice")
    one_line_error(merge("s1", "s2", out="s1"), "is one of the shards")
    one_line_error(merge("s1", "small"), "not a shard's folder")
    assert not (tmp_path / "m").exists()
    # a shard with an item not done: refused, or merged without it with --partial
    lines = (tmp_path / "s2" / "results.jsonl").read_text().splitlines()
    (tmp_path / "s2" / "results.jsonl").write_text("\n".join(lines[:-1]) + "\n")
    one_line_error(merge("s1", "s2"), "shard 2/2: 1 of its")
    result = helpers.run_cli(
        "batch-merge", tmp_path / "s1", tmp_path / "s2", "--out", tmp_path / "m", "--partial"
    )
    assert result.exit_code == 0 and "1 items without a result left out" in result.output
    # a shard's folder holds that shard only
    bad = helpers.run_cli("batch", folder, "--out", tmp_path / "s1", "--shard", "2/2")
    one_line_error(bad, "holds shard 1/2, not 2/2")
    one_line_error(helpers.run_cli("batch", folder, "--out", tmp_path / "s1"), "--shard 1/2")
    for text in ("0/2", "3/2", "2", "a/b"):
        one_line_error(
            helpers.run_cli("batch", folder, "--out", tmp_path / "x", "--shard", text), "--shard"
        )
    assert not (tmp_path / "x").exists()
