"""The solo companion on Blokus Trigon (issue 43): ``check --together --follow`` and
``review --together`` follow a Pentobi Trigon game with the compiled repair search
carrying its layout from move to move; every "yes" is a layout the rule checker accepts
from that very position, and the answers are in triangles."""

from __future__ import annotations

from pathlib import Path

from helpers import run_cli

from solver.backends.base import SolveOptions
from solver.companion.follow import follow
from solver.core.checker import check_layout
from solver.formats.game import load_game

DATA = Path(__file__).parent / "data" / "trigon"
GAME = DATA / "trigon-L1-s9100.blksgf"


def test_following_a_trigon_game_answers_yes_with_layouts_the_rules_accept():
    game = load_game(GAME)
    steps = list(follow(game, SolveOptions(time_limit=20), 12))
    assert [s.placement for s in steps] == list(range(13))
    assert all(s.grid == "trigon" for s in steps)
    for step in steps:
        # the opening of a Pentobi game: every colour can still place all 22 pieces
        assert step.answer == "yes", step
        position = game.position(step.placement)
        assert step.layout is not None
        report = check_layout(position, step.layout)
        assert report.legal, (step.placement, report.problem)
        for colour in position.colour_names:
            placed = {p.piece for p in step.layout.get(colour, ())}
            assert placed == set(position.colour(colour).remaining), (step.placement, colour)
    # colours that had not started get a free starting point of their own
    first = {c: ps[0] for c, ps in steps[0].layout.items()}
    starting = game.position(0).starting_points
    assert len({frozenset(p.squares & starting) for p in first.values()}) == 4


def test_check_follow_on_trigon_speaks_of_triangles():
    result = run_cli("check", GAME, "--together", "--follow", "--after", "6", "--time-limit", "20")
    assert result.exit_code == 0, result.output
    line = result.output.strip().splitlines()[-1]
    assert "together (blue, yellow, red, green): yes: all " in line
    assert "triangles) of blue, yellow, red and green can still be placed" in line
    assert "squares" not in result.output


def first_moves(path: Path, n: int, tmp_path: Path) -> Path:
    """The record cut after its first ``n`` move nodes (a short game to review)."""
    head, *nodes = path.read_text().rstrip().rstrip(")").split("\n;")
    out = tmp_path / f"first-{n}.blksgf"
    out.write_text("\n;".join([head, *nodes[: n + 1]]) + ")\n")  # nodes[0]: the root
    return out


def test_review_together_on_trigon_annotates_each_move_in_triangles(tmp_path):
    short = first_moves(GAME, 10, tmp_path)
    assert load_game(short).num_placements == 10
    out = tmp_path / "reviewed.blksgf"
    result = run_cli("review", short, "--together", "--time-limit", "10", "--out", out)
    assert result.exit_code == 0, result.output
    assert "answers: 11 yes, 0 no, 0 unknown" in result.output
    game = load_game(out)  # the annotated record reads back, every move checked
    assert game.num_placements == 10
    text = out.read_text()
    assert text.count("can still be placed") == 11 and "squares" not in text
