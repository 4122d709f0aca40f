"""Every command given a Blokus Trigon game record (issue 43): it answers correctly, held
to a value found another way (Pentobi's perft, the endgame check, a brute force over the
legal moves), or refuses in one line naming what does not run on Trigon yet
(docs/geometry.md, "What runs on Trigon"): exit status 2, no traceback, nothing written.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from helpers import one_line_error, run_cli

from solver.core.placements import legal_moves
from solver.core.position import Position
from solver.formats.game import load_game
from solver.tasks.endgame import endgame_check
from solver.tasks.review import review_game

DATA = Path(__file__).parent / "data" / "trigon"
#: a three-colour game of Pentobi's engine, 59 placements (side 8)
SMALL = DATA / "trigon_3-L1-s9200.blksgf"
#: a four-colour game (side 9) whose late positions have few layouts left
LATE = DATA / "trigon-L3-s9102.blksgf"
#: what every refusal points to
DOC = "docs/geometry.md#what-runs-on-trigon"

#: Pentobi's GM value of each variant of the oracle files (tests/data/trigon/README.md)
GM = {
    "trigon": "Blokus Trigon",
    "trigon_2": "Blokus Trigon Two-Player",
    "trigon_3": "Blokus Trigon Three-Player",
}


def read_jsonl(pattern: str) -> list[dict]:
    return [json.loads(t) for p in sorted(DATA.glob(pattern)) for t in p.read_text().splitlines()]


@cache
def selfplay() -> dict[tuple[str, int], dict]:
    """The self-play games of tests/data/trigon by (variant, seed)."""
    return {(g["variant"], g["seed"]): g for g in read_jsonl("selfplay-*.jsonl")}


def no_crash(result) -> None:
    """Nothing a bug prints: no traceback, no "internal error"."""
    assert "Traceback" not in result.output and "internal error" not in result.output


def refused(result, *fragments: str) -> str:
    """A one-line refusal that points to the table of what runs on Trigon."""
    no_crash(result)
    return one_line_error(result, "does not run on trigon boards yet", DOC, *fragments)


def brute_layouts(position: Position, colour: str) -> dict[frozenset, Position]:
    """Every set of placements by which ``colour`` places all its remaining pieces by
    legal moves (order ignored), with the position after it: the legal move sequences
    enumerated to the end."""
    out: dict[frozenset, Position] = {}

    def go(pos: Position, placed: frozenset) -> None:
        if not pos.colour(colour).remaining:
            out.setdefault(placed, pos)
            return
        for move in legal_moves(pos, colour):
            go(pos.with_placement(colour, move), placed | {move.squares})

    go(position, frozenset())
    return out


def brute_count(position: Position, colours: tuple[str, ...]) -> int:
    """The distinct layouts placing every remaining piece of ``colours`` at once: each
    colour's layouts in turn on the positions the earlier colours' left (a joint layout
    can be played colour by colour: a colour's moves only need its own corners and free
    cells)."""
    finals: dict[frozenset, Position] = {frozenset(): position}
    for c in colours:
        finals = {
            key | {(c, p) for p in layout}: after
            for key, pos in finals.items()
            for layout, after in brute_layouts(pos, c).items()
        }
    return len(finals)


# --- perft: the generic legal moves against Pentobi's stored perft --------------------


@pytest.mark.parametrize("variant", ["trigon", "trigon2", "trigon3"])
def test_perft_from_the_start_is_pentobis(variant):
    result = run_cli("perft", "--variant", variant, "--depth", "1")
    assert result.exit_code == 0, result.output
    assert "depth 1: 2,478 in " in result.output  # Pentobi: 2,478 first moves on both sides


#: Pentobi's perft lines at a game position with at most 100 first moves (quick here)
PERFT_LINES = [
    p for p in read_jsonl("perft-*.jsonl") if p["seed"] is not None and p["perft1"] <= 100
]


@pytest.mark.parametrize("line", PERFT_LINES, ids=lambda p: f"{p['variant']}-s{p['seed']}")
def test_perft_of_a_trigon_game_is_pentobis(tmp_path, line):
    game = selfplay()[(line["variant"], line["seed"])]
    moves = game["moves"][: line["move_number"]]
    path = tmp_path / "game.blksgf"
    path.write_text(f"(;GM[{GM[line['variant']]}]" + "".join(f";{c}[{m}]" for c, m in moves) + ")")
    colour = load_game(path).final.colour_names[int(line["colour"]) - 1]
    result = run_cli("perft", path, "--depth", "2", "--colour", colour)
    assert result.exit_code == 0, result.output
    # Pentobi's perft(2) lets the next colour add 0 when it has no move; ours passes (one
    # line each, docs/perft.md): where Pentobi counts 0 after every first move, we count
    # one pass per first move
    depth2 = line["perft2"] or line["perft1"]
    assert f"depth 1: {line['perft1']:,} in " in result.output
    assert f"depth 2: {depth2:,} in " in result.output


def test_perft_divide_names_each_first_move_as_moves_lists_it():
    result = run_cli("perft", SMALL, "--after", "50", "--depth", "2", "--divide")
    assert result.exit_code == 0, result.output
    listed = run_cli("moves", SMALL, "--after", "50", "--colour", "red").output.split()
    divided = [line.split(":")[0].strip() for line in result.output.splitlines()[3:]]
    assert sorted(divided) == sorted(listed) and len(listed) == 4


# --- review: each answer is the endgame check's ------------------------------------------


def test_review_answers_are_the_endgame_checks():
    record = load_game(SMALL)
    review = review_game(record)
    for k in (34, 35, 43, 50, record.num_placements):
        position = record.position(k)
        for verdict in review.steps[k].verdicts:
            check = endgame_check(position, verdict.colour)
            assert verdict.answer == check.answer, (k, verdict.colour)
            if check.answer == "no":
                assert check.best is not None and check.best.status == "optimal"
                assert (verdict.best, verdict.bound) == (check.best.score, check.best.score)
    result = run_cli("review", SMALL)
    assert result.exit_code == 0, result.output
    assert "trigon3 side 8, 59 placements" in result.output
    assert "blue     lost at move 43 (blue L5)" in result.output
    assert review.final("blue").best == -6  # Pentobi's own game: blue ends 12 of 18 short


# --- count, hint, check --together: the exact search against a brute force ---------------

#: (game, placements, colours): late positions whose layouts a brute force lists in a second
SMALL_COUNTS = [
    ("trigon-L2-s9116.blksgf", 75, ("blue",)),
    ("trigon-L3-s9102.blksgf", 75, ("green",)),
    ("trigon-L3-s9102.blksgf", 75, ("blue", "green")),
    ("trigon-L3-s9102.blksgf", 77, ("blue", "yellow", "red", "green")),
    ("trigon-L1-s9109.blksgf", 73, ("yellow",)),
]


@pytest.mark.parametrize("name, after, colours", SMALL_COUNTS)
def test_count_is_the_brute_force_count(name, after, colours):
    position = load_game(DATA / name).position(after)
    expected = brute_count(position, colours)
    args = [a for c in colours for a in ("--colour", c)]
    result = run_cli("count", DATA / name, "--after", after, *args)
    assert result.exit_code == 0, result.output
    word = "layout" if expected == 1 else "layouts"
    assert result.output.startswith(f"{expected} {word}  ["), result.output


def test_count_up_to_symmetry_of_a_game_position_is_its_count():
    """No symmetry of the hexagon maps a game's late position onto itself: the orbits are
    the layouts (the orbits of symmetric positions: tests/test_trigon_more.py)."""
    position = load_game(LATE).position(75)
    expected = brute_count(position, ("green",))
    result = run_cli("count", LATE, "--after", 75, "--colour", "green", "--up-to-symmetry")
    assert result.exit_code == 0, result.output
    word = "layout" if expected == 1 else "layouts"
    assert result.output.startswith(f"{expected} {word} up to symmetry  ["), result.output


@pytest.mark.parametrize("after, colours", [(75, ("blue", "green")), (77, ())])
def test_check_together_is_the_brute_force(after, colours):
    position = load_game(LATE).position(after)
    joint = colours or tuple(c.name for c in position.colours if c.remaining)
    fits = brute_count(position, joint) > 0
    args = [a for c in colours for a in ("--colour", c)]
    result = run_cli("check", LATE, "--after", after, "--together", *args)
    assert result.exit_code == 0, result.output
    answer = "yes: all of them fit at once (layout checked)" if fits else "left: no: "
    assert answer in result.output, result.output


def test_hints_keep_what_the_brute_force_counts():
    import dataclasses

    from solver.formats.sources import load_source
    from solver.tasks.hints import hints

    problem = dataclasses.replace(load_source(LATE, 75), colours=("blue", "green"))
    found = hints(problem)
    assert found.complete and found.total.count == brute_count(problem.position, problem.colours)
    kept = {(h.colour, h.placement.squares): h.keeps for h in found.hints}
    for colour in problem.colours:
        for move in legal_moves(problem.position, colour):
            after = problem.position.with_placement(colour, move)
            keeps = brute_count(after, problem.colours)
            assert kept.get((colour, move.squares), 0) == keeps
    assert len(kept) == 6 and found.moves == 22
    # the command reads puzzles (.toml); a game record is refused as on squares
    one_line_error(run_cli("hint", LATE), "a game record: hint and rate read puzzle files")


# --- batch: one row per game, each colour's answer the endgame check's --------------------


def test_batch_rows_are_the_endgame_checks(tmp_path):
    import csv
    import shutil

    folder = tmp_path / "games"
    folder.mkdir()
    for game in (SMALL, LATE):
        shutil.copy(game, folder)
    out = tmp_path / "out"
    result = run_cli("batch", folder, "--out", out, "--backend", "search", "--time-limit", 10)
    assert result.exit_code == 0, result.output
    no_crash(result)
    rows = list(csv.DictReader((out / "summary.csv").open()))
    assert {r["item"] for r in rows} == {f"games/{SMALL.name}", f"games/{LATE.name}"}
    for row in rows:
        record = load_game(folder / Path(row["item"]).name)
        position = record.position(int(row["after"]))
        check = endgame_check(position, row["colour"])
        if not position.colour(row["colour"]).remaining:
            assert row["answer"] == "yes"
            continue
        assert row["answer"] == check.answer, row
        if check.answer == "no":
            assert check.best is not None and int(row["best"]) == check.best.score


# --- the commands that do not run on Trigon yet: one line, nothing written ----------------


def test_rate_reads_puzzle_files_not_game_records():
    """As on squares: a game record is refused in one line (a Trigon puzzle is rated:
    tests/test_trigon_more.py)."""
    one_line_error(run_cli("rate", LATE), "a game record: hint and rate read puzzle files")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["solve", SMALL], "a game record: use blokus-solo check"),
        (["cubes", "split", SMALL, "--out", "{tmp}"], "a game record: cubes split reads puzzle"),
        (["generate", "--goal", "avoid", "--size", "trigon"], "expected ROWSxCOLUMNS"),
    ],
    ids=["solve", "cubes", "generate"],
)
def test_commands_that_read_only_puzzles_or_sizes_refuse_in_one_line(tmp_path, args, fragment):
    out = tmp_path / "out"
    result = run_cli(*[str(a).replace("{tmp}", str(out)) for a in args])
    no_crash(result)
    one_line_error(result, fragment)
    assert not out.exists()


@pytest.mark.parametrize(
    "game, variant",
    [
        # Pentobi's GM names (any case), its ids and ours (tests/test_trigon_gtp.py plays them)
        ("Blokus Trigon", "trigon"),
        ("blokus trigon two-player", "trigon2"),
        ("trigon_3", "trigon3"),
        ("t", "trigon"),
        ("trigon2", "trigon2"),
    ],
)
def test_gtp_plays_trigon_games(game, variant):
    from solver.gtp.engine import Engine, parse_game

    assert parse_game(game).name == variant
    engine = Engine()
    assert engine.ask(f"set_game {game}") == (True, "")
    assert engine.variant.name == variant
    ok, board = engine.ask("showboard")
    assert ok and "(1) Blue(X): 0  1 2 A4 A6 C4 C5 F G I3 I4 I5 I6 L5 L6 O P5 P6 S V W X Y" in board
    assert engine.ask(f"loadsgf {SMALL}") == (True, "")
    assert engine.ask("final_score") == (True, "104 105 92 ")  # tests/data/trigon/scores.txt
    from click.testing import CliRunner

    from solver.cli.commands import main

    result = CliRunner().invoke(main, ["gtp", "--game", game], input="name\nquit\n")
    no_crash(result)
    assert result.exit_code == 0 and "= blokus-solo" in result.output


def test_match_plays_a_trigon_game(tmp_path):
    """Our engine against itself (tests/test_trigon_gtp.py plays Pentobi's): every move
    checked by our rules, the record read back to the points the match counted."""
    import shlex

    from solver.formats.game import load_game
    from solver.gtp.control import blokus_solo_command
    from solver.gtp.match import points

    out = tmp_path / "match"
    ours = shlex.join(blokus_solo_command(seed=1))
    result = run_cli("match", "-b", ours, "-w", ours, "--game", "t3", "--out", out)
    no_crash(result)
    assert result.exit_code == 0, result.output
    assert "Blokus Trigon Three-Player: black blokus-solo" in result.output
    game = load_game(out / "game-0001.blksgf")
    final = game.final
    scored = [points(final, c) for c in final.colour_names]
    assert f"game 1: black (blue) {scored[0]}, white (yellow red) {sum(scored[1:])}" in (
        result.output
    )
    assert game.num_placements >= 50


def test_batch_merge_of_trigon_shards_merges_or_refuses_in_one_line(tmp_path):
    import shutil

    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(SMALL, folder)
    shutil.copy(LATE, folder)
    for i in (1, 2):
        out = tmp_path / f"s{i}"
        result = run_cli("batch", folder, "--out", out, "--shard", f"{i}/2", "--backend", "search")
        assert result.exit_code == 0, result.output
    merged = tmp_path / "merged"
    result = run_cli("batch-merge", tmp_path / "s1", tmp_path / "s2", "--out", merged)
    no_crash(result)
    if result.exit_code == 0:  # once solution files on Trigon are read back
        assert result.output.startswith("merged 2 shards: 2 results\n")
    else:  # until then: the layouts written cannot be read back, said in one line
        one_line_error(result, "cannot be read")
        assert not merged.exists()


def test_review_comments_on_trigon_count_triangles(tmp_path):
    out = tmp_path / "reviewed.blksgf"
    result = run_cli("review", SMALL, "--out", out)
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "triangles) cannot all be placed (proven)" in text
    assert "squares)" not in text
