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
    record = tmp_path / "s2" / "shard.json"
    good = record.read_text()
    for key, value in (("shard", "2"), ("keys", [["a.toml", None]]), ("inputs", None)):
        record.write_text(json.dumps({**json.loads(good), key: value}))
        one_line_error(merge("s1", "s2"), "not a shard record")
    record.write_text(good)
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


# --- issue 41: a merge trusts nothing in a shard's folder ----------------------------------


@pytest.fixture
def shards(small, tmp_path):
    """``small`` run as shards 1/2 (the impossible puzzle: a no) and 2/2 (the corner
    puzzle: solved)."""
    for i in (1, 2):
        batch(small, "--out", tmp_path / f"s{i}", "--shard", f"{i}/2", "--backend", "search")
    return tmp_path / "s1", tmp_path / "s2"


def only_row(shard: Path) -> dict:
    (line,) = (shard / "results.jsonl").read_text().splitlines()
    return json.loads(line)


def edit_row(shard: Path, **changes) -> dict:
    row = {**only_row(shard), **changes}
    (shard / "results.jsonl").write_text(json.dumps(row) + "\n")
    return row


def merge(*args):
    return helpers.run_cli("batch-merge", *args)


@pytest.mark.parametrize(
    "key, name, why",
    [
        ("picture", "../escape.svg", "is not below solutions/"),
        ("picture", "solutions/../../escape.svg", "leads out of its folder"),
        ("solution", "sweeps/x/../../../escape.json", "leads out of its folder"),
        ("picture", "ABSOLUTE", "is not below solutions/"),
    ],
)
def test_merge_writes_no_file_outside_out(shards, tmp_path, key, name, why):
    s1, s2 = shards
    escape = tmp_path / Path(name).name  # s2/../escape.svg and the others, from any folder
    row = only_row(s2)
    escape.write_bytes((s2 / row[key]).read_bytes())
    edit_row(s2, **{key: str(escape) if name == "ABSOLUTE" else name})
    out = tmp_path / "deep" / "m"  # (its ../escape.svg is another file than the shard's)
    before = escape.read_bytes(), escape.stat().st_ino
    one_line_error(merge(s1, s2, "--out", out), "shard 2/2", why)
    assert not (tmp_path / "deep").exists()
    assert (escape.read_bytes(), escape.stat().st_ino) == before  # not written over
    partial = merge(s1, s2, "--out", out, "--partial")
    assert partial.exit_code == 0 and "1 items without a result left out" in partial.output
    assert sorted(p.name for p in (tmp_path / "deep").iterdir()) == ["m"]


def forge_solved(shard: Path, small: Path | None = None) -> None:
    """The impossible puzzle's no, edited to solved, resting on a forged solution file:
    every piece placed, the domino over the monomino."""
    row = edit_row(shard, answer="solved", solve_status="solved")
    path = shard / row["solution"]
    data = json.loads(path.read_text())
    data["status"] = "solved"
    data["colours"][0]["remaining"] = []
    data["colours"][0]["placements"] = [
        {"piece": "1", "squares": ["a4"]},
        {"piece": "2", "squares": ["a4", "b4"]},
        {"piece": "V3", "squares": ["c1", "c2", "d1"]},
        {"piece": "O", "squares": ["c3", "c4", "d3", "d4"]},
    ]
    path.write_text(json.dumps(data))


def forge_other_layout(shard: Path, small: Path) -> None:
    """The no edited to solved, resting on a legal layout of another puzzle."""
    row = edit_row(shard, answer="solved", solve_status="solved")
    run = shard.parent / "other"
    batch(small / "tiny-5x5-corner.toml", "--out", run, "--backend", "search")
    (shard / row["solution"]).write_text((run / only_row(run)["solution"]).read_text())


def forge_solved_on_no_layout(shard: Path, small: Path) -> None:
    """The no edited to solved, resting on its own file, which adds no piece."""
    edit_row(shard, answer="solved", solve_status="unknown")


def forge_no_by_repair(shard: Path, small: Path) -> None:
    edit_row(shard, answered_by="repair")


def forge_backend(shard: Path, small: Path) -> None:
    edit_row(shard, backend="cpsat")


@pytest.mark.parametrize(
    "forge, why",
    [
        (forge_solved, "breaks a rule"),
        (forge_other_layout, "not the item's question"),
        (forge_solved_on_no_layout, "answer solved but solve_status unknown"),
        (forge_no_by_repair, "not trusted"),
        (forge_backend, "not run with the shard's settings (backend differ)"),
    ],
)
def test_merge_keeps_only_rows_a_resumed_batch_would_keep(shards, small, tmp_path, forge, why):
    s1, s2 = shards
    forge(s1, small)
    out = tmp_path / "m"
    one_line_error(merge(s1, s2, "--out", out), "shard 1/2: 1 of its 1 items", why)
    assert not out.exists()
    partial = merge(s1, s2, "--out", out, "--partial")
    assert partial.exit_code == 0, partial.output
    assert "note: shard 1/2: small/tiny-4x4-impossible.toml: not merged" in partial.output
    assert {r["item"]: r["answer"] for r in summary(out)} == {"small/tiny-5x5-corner.toml": "yes"}
    assert "| 1 | 1 | 0 | 0 | 0 |" in (out / "README.md").read_text()


def test_merge_without_the_inputs_still_replays_each_file(shards, small, tmp_path):
    s1, s2 = shards
    shutil.rmtree(small)  # the inputs are elsewhere now: the files are checked by the rules
    good = merge(s1, s2, "--out", tmp_path / "m")
    assert good.exit_code == 0, good.output
    assert "note: 2 result(s) replayed without their input file" in good.output
    forge_solved(s1)
    one_line_error(merge(s1, s2, "--out", tmp_path / "m2"), "breaks a rule")


def test_merge_of_a_shard_whose_solution_file_is_gone(shards, tmp_path):
    s1, s2 = shards
    (s2 / only_row(s2)["solution"]).unlink()
    out = tmp_path / "m"
    one_line_error(merge(s1, s2, "--out", out), "shard 2/2", "tiny-5x5-corner.json is not there")
    assert not out.exists()


def test_merge_says_what_the_shard_records_leave_out(shards, tmp_path):
    s1, s2 = shards
    record = json.loads((s1 / "shard.json").read_text())
    assert record["items"] == 2
    (s1 / "shard.json").write_text(json.dumps({**record, "of": 1}))
    out = tmp_path / "m"
    one_line_error(
        merge(s1, "--out", out), "the batch has 2 items", "list 1: 1 of them are in no shard given"
    )
    # the keys of the two records swapped: each shard lists an item dealt to the other
    other = json.loads((s2 / "shard.json").read_text())
    (s1 / "shard.json").write_text(json.dumps({**record, "keys": other["keys"]}))
    (s2 / "shard.json").write_text(json.dumps({**other, "keys": record["keys"]}))
    one_line_error(merge(s1, s2, "--out", out), "which the split deals to shard")
    (s2 / "shard.json").write_text(json.dumps(other))  # both list the corner puzzle
    one_line_error(merge(s1, s2, "--out", out), "is listed by shard 1/2 and shard 2/2")
    assert not out.exists()


def test_a_merge_stopped_while_writing_leaves_no_part_of_one(shards, tmp_path, monkeypatch):
    from solver.batch import shards as module
    from solver.batch.store import Store
    from solver.errors import InputError

    def full(self):
        raise InputError("cannot write: No space left on device", path=str(self.folder))

    monkeypatch.setattr(Store, "write_reports", full)
    with pytest.raises(InputError, match="No space left"):
        module.merge(shards, tmp_path / "m")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s1", "s2", "small"]
    (tmp_path / "m").mkdir()  # an empty folder is filled whole too
    with pytest.raises(InputError, match="No space left"):
        module.merge(shards, tmp_path / "m")
    assert list((tmp_path / "m").iterdir()) == []
    monkeypatch.undo()
    module.merge(shards, tmp_path / "m")
    assert len(rows(tmp_path / "m")) == 2


def test_merge_of_a_seed_sweep_whose_other_seeds_were_dropped(small, tmp_path):
    for i in (1, 2):
        out = tmp_path / f"s{i}"
        args = ("--shard", f"{i}/2", "--seeds", 3, "--backend", "search")
        batch(
            small / "tiny-5x5-corner.toml", small / "tiny-4x4-impossible.toml", "--out", out, *args
        )
    seeds = {r["item"]: r["seed"] for s in ("s1", "s2") for r in rows(tmp_path / s).values()}
    assert seeds == {"tiny-4x4-impossible.toml": 0, "tiny-5x5-corner.toml": 0}  # 1 and 2 dropped
    done = merge(tmp_path / "s1", tmp_path / "s2", "--out", tmp_path / "m")
    assert done.exit_code == 0 and done.output.startswith("merged 2 shards: 2 results\n"), (
        done.output
    )


def test_the_merged_readme_keeps_a_shards_text_in_its_cells(shards, tmp_path):
    """A shard's runs.jsonl (someone else's text) cannot break the merged README's tables:
    a newline, a | and backticks in a command stay in the command's cell."""
    s1, s2 = shards
    runs = [json.loads(line) for line in (s1 / "runs.jsonl").read_text().splitlines()]
    forged = {**runs[-1], "command": "batch `x` | ``y``\n\n# Totals\n| 9 | 9 |"}
    (s1 / "runs.jsonl").write_text(json.dumps(forged) + "\n")
    assert merge(s1, s2, "--out", tmp_path / "m").exit_code == 0
    lines = (tmp_path / "m" / "README.md").read_text().splitlines()
    runs_table = lines[lines.index("## Runs") + 2 :]
    assert len(runs_table) == 2 + 3 and all(line.startswith("|") for line in runs_table)
    assert lines.count("# Totals") == 0 and lines.count("## Totals") == 1
    assert "| ```batch `x` \\| ``y``\\n\\n# Totals\\n\\| 9 \\| 9 \\|``` |" in runs_table[2]


@pytest.mark.parametrize(
    "changes, why",
    [
        ({"of": 10**12}, "not a shard record: shard 1 of 1000000000000"),
        ({"shard": 7}, "not a shard record: shard 7 of 2"),
        ({"shard": 0, "of": 0}, "not a shard record: shard 0 of 0"),
        ({"items": -1}, "items -1"),
        ({"of": 999_999_999}, "shard 2/999999999, 3/999999999, 4/999999999, 5/999999999, 6/"),
    ],
)
def test_a_shard_record_out_of_range_is_refused_at_once(shards, tmp_path, changes, why):
    """An edited shard.json: one line, not a merge that counts to N (10**12 took forever)."""
    s1, _ = shards
    record = json.loads((s1 / "shard.json").read_text())
    (s1 / "shard.json").write_text(json.dumps({**record, **changes}))
    one_line_error(merge(s1, "--out", tmp_path / "m"), why)
    assert not (tmp_path / "m").exists()
