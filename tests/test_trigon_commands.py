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


def test_review_together_refuses_trigon_in_one_line(tmp_path):
    out = tmp_path / "reviewed.blksgf"
    refused(run_cli("review", SMALL, "--together", "--out", out), "review --together")
    assert not out.exists()
