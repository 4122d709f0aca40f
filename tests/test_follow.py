"""Following a game with the joint question (solver.companion.follow, review --together)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from helpers import GAMES, one_line_error, run_cli

from solver.backends.base import SolveOptions
from solver.companion.follow import Follower, follow, follow_game, from_later
from solver.companion.layouts import carry
from solver.core.checker import check_layout
from solver.core.placements import legal_moves
from solver.formats.game import load_game, read_sgf_text
from solver.tasks.endgame import joint_check

LAYOUT_GAME = Path(__file__).parent / "data" / "follow" / "duo-both-layout.blksgf"
#: A Duo position (28 pieces left) whose joint answer is "no" (no layout exists: the LP
#: bound proves it after 13.5 s, `check --together`, 2 workers) but no solver settles in 8 s
#: on one worker (repair 14 squares short, full solvers unknown): "unknown" under a short
#: budget on any machine, never "yes".
UNSETTLED = (GAMES / "duo-L1-4-s35.blksgf", 14)
OPTIONS = SolveOptions(time_limit=2.0, workers=1)


def _all_placed(position, layout) -> bool:
    report = check_layout(position, layout)
    return report.legal and all(r.all_placed for r in report.colours)


def test_a_game_that_places_everything_is_yes_after_every_move_and_each_layout_checks():
    game = load_game(LAYOUT_GAME)
    followed = follow_game(game, OPTIONS)
    assert [s.placement for s in followed.steps] == list(range(game.num_placements + 1))
    assert followed.steps[-1].answer == "done"
    assert followed.loss() is None
    for step in followed.steps[:-1]:
        assert step.answer == "yes"
        assert _all_placed(game.position(step.placement), step.layout)


def test_a_move_inside_the_witness_keeps_the_answer_without_search():
    game = load_game(LAYOUT_GAME)
    witness = {c: list(game.final.colour(c).placed) for c in game.variant.colours}
    follower = Follower(OPTIONS, "test")
    follower.witness = witness
    first = follower.step(0, None, game.position(0))
    move = game.moves[0]
    step = follower.step(1, move, game.position(1))
    assert (first.answer, first.how) == ("yes", "pool")
    assert (step.answer, step.how, step.freed, step.tried) == ("yes", "pool", 0, ())
    assert move.placement not in step.layout[move.colour]
    assert _all_placed(game.position(1), step.layout)


def test_carry_drops_what_a_move_displaces_and_what_it_cuts_off():
    game = load_game(LAYOUT_GAME)
    witness = {c: list(game.final.colour(c).placed) for c in game.variant.colours}
    start = game.position(0)
    purple = start.colour_names[0]
    own = witness[purple][0]  # the piece on purple's start square: the root of its tree
    other = next(m for m in legal_moves(start, purple) if m.piece != own.piece)
    after = start.with_placement(purple, other)
    kept, gone = carry(witness, purple, other, after)
    assert gone >= 2  # the start piece's copy and more
    assert own not in kept[purple]
    assert all(p.piece != other.piece for p in kept[purple])
    assert sum(len(v) for v in kept.values()) + gone == 42
    assert check_layout(after, kept).legal


@pytest.mark.slow
def test_a_move_that_displaces_witness_pieces_is_repaired_and_agrees_with_a_cold_check():
    game = load_game(LAYOUT_GAME)
    k = 26  # 16 pieces left: the repairs and the cold checks take milliseconds
    before = game.position(k)
    witness = {c: list(game.final.colour(c).placed[len(before.colour(c).placed) :])
               for c in game.variant.colours}  # fmt: skip
    mover = game.moves[k].colour
    repaired = 0
    # one step first loads the kernels and solvers the steps call (on a loaded machine,
    # loading them took the first step's 2 s: "unknown" where the cold check said "no")
    warm = Follower(OPTIONS, "warm")
    warm.witness = {c: list(p) for c, p in witness.items()}
    warm.step(k + 1, game.moves[k], before.with_placement(mover, game.moves[k].placement))
    for move in legal_moves(before, mover):
        if move in witness[mover]:
            continue
        after = before.with_placement(mover, move)
        follower = Follower(OPTIONS, "test")
        follower.witness = {c: list(p) for c, p in witness.items()}
        step = follower.step(k + 1, replace(game.moves[k], placement=move), after)
        colours = tuple(c.name for c in after.colours if c.remaining)
        cold = joint_check(after, colours, SolveOptions(backend="search", time_limit=5))
        assert cold.answer != "unknown"
        if step.answer == "yes":
            assert cold.answer == "yes"
            assert _all_placed(after, step.layout)
            repaired += step.how == "repaired" and step.freed > 0
        else:
            assert step.answer == cold.answer == "no"
    assert repaired > 0


def test_a_no_stays_no_without_another_solve():
    game = load_game(GAMES / "duo-L4-s29.blksgf")
    n = game.num_placements
    follower = Follower(OPTIONS, "test")
    first = follower.check(n - 1, game.moves[n - 2], game.position(n - 1), 0)
    assert first.answer == "no"
    again = follower.step(n, game.moves[n - 1], game.position(n))
    assert (again.answer, again.how, again.tried) == ("no", "inferred", ())
    assert str(n - 1) in again.reason


def test_a_later_yes_turns_earlier_unknowns_into_checked_yes():
    game = load_game(LAYOUT_GAME)
    later = list(follow_game(game, OPTIONS).steps)
    unknown = [replace(s, answer="unknown", how="solved", layout=None) for s in later[:30]]
    out = from_later(game, unknown + later[30:])
    for k in range(30):
        assert (out[k].answer, out[k].how) == ("yes", "inferred")
        assert _all_placed(game.position(k), out[k].layout)


def test_a_no_before_a_later_layout_is_a_contradiction():
    from solver.errors import SolverBug

    game = load_game(LAYOUT_GAME)
    steps = list(follow_game(game, OPTIONS).steps)
    steps[5] = replace(steps[5], answer="no", layout=None)
    with pytest.raises(SolverBug):
        from_later(game, steps)


def test_review_together_prints_every_move_and_writes_comments(tmp_path):
    out = tmp_path / "reviewed.blksgf"
    result = run_cli(
        "review", str(LAYOUT_GAME), "--together", "--moves", "--time-limit", "2", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    assert "after every move" in result.output or "could still be placed" in result.output
    assert result.output.count(" yes ") >= 42
    text = out.read_text()
    assert text.count("blokus-solo review --together after move") == 42
    assert "Summary: Every piece of every colour could still be placed" in text
    again = read_sgf_text(text)
    assert [m.placement for m in again.moves] == [m.placement for m in load_game(LAYOUT_GAME).moves]


@pytest.mark.slow
def test_check_together_follow_answers_after_n():
    result = run_cli(
        "check", str(LAYOUT_GAME), "--after", "40", "--together", "--follow", "--time-limit", "0.05"
    )
    assert result.exit_code == 0, result.output
    assert "yes: all 2 pieces" in result.output


def test_together_with_a_colour_is_a_one_line_error():
    result = run_cli("review", str(LAYOUT_GAME), "--together", "--colour", "purple")
    assert result.exit_code == 2
    one_line_error(result, "--colour", "--together")


def test_follow_without_together_is_a_one_line_error():
    result = run_cli("check", str(LAYOUT_GAME), "--follow")
    assert result.exit_code == 2
    one_line_error(result, "--together")


def test_the_api_yields_an_answer_per_move_and_reviews_together():
    import solver.api as blokus

    steps = blokus.follow(str(LAYOUT_GAME), time_limit=2.0, workers=1)
    first = next(steps)
    assert (first.placement, first.colours, first.pieces_left) == (0, ("purple", "orange"), 42)
    if first.answer == "yes":
        assert _all_placed(load_game(LAYOUT_GAME).position(0), first.layout)
    followed = blokus.review_together(LAYOUT_GAME, time_limit=2.0, workers=1)
    assert [s.answer for s in followed.steps].count("yes") == 42


def test_the_loss_is_bracketed_by_the_last_yes_and_written_into_the_comments():
    from solver.answers.annotate_together import annotated_sgf
    from solver.companion.follow import Followed

    game = load_game(LAYOUT_GAME)
    steps = list(follow_game(game, OPTIONS).steps)[:-1]  # (the last: every piece placed)
    answers = {5: "unknown", 6: "unknown", 7: "no"}
    for k in range(5, len(steps)):
        new = answers.get(k, "no")
        steps[k] = replace(steps[k], answer=new, layout=None, reason="a test")
    loss = Followed(game, tuple(steps), 0.0).loss()
    assert (loss.first, loss.last_possible, loss.exact) == (7, 4, False)
    text = annotated_sgf(LAYOUT_GAME.read_text(), Followed(game, tuple(steps), 0.0))
    assert "lost at one of move 5 (purple 2) to move 7 (purple T4)" in text
    steps[6] = replace(steps[6], answer="yes")
    loss = Followed(game, tuple(steps), 0.0).loss()
    assert (loss.first, loss.last_possible, loss.exact) == (7, 6, True)


def test_reconnect_keeps_every_piece_the_move_does_not_displace():
    from solver.companion.tiers import RECONNECT_BUDGET, reconnect

    game = load_game(LAYOUT_GAME)
    k = 26
    before = game.position(k)
    witness = {c: list(game.final.colour(c).placed[len(before.colour(c).placed) :])
               for c in game.variant.colours}  # fmt: skip
    mover = game.moves[k].colour
    board = before.board
    found = 0
    for move in legal_moves(before, mover):
        if move in witness[mover]:
            continue
        after = before.with_placement(mover, move)
        layout = reconnect(witness, mover, move, after, RECONNECT_BUDGET)
        if layout is None:
            continue
        found += 1
        assert _all_placed(after, layout)
        edge = {n for s in move.squares for n in board.edge_neighbours[s]}
        hit = {c: move.squares | (edge if c == mover else set()) for c in witness}
        removed = [
            p
            for c, pieces in witness.items()
            for p in pieces
            if p.squares & hit[c] or (c == mover and p.piece == move.piece)
        ]
        ring = {n for p in removed for s in p.squares for n in board.corner_neighbours[s]}
        for c, pieces in witness.items():
            for p in pieces:
                if p not in removed and not p.squares & ring:
                    assert p in layout[c]  # cut-off pieces stay; only those at the gap move
    assert found > 0


def _final_layout(game):
    return {c: list(game.final.colour(c).placed) for c in game.variant.colours}


def test_a_position_first_checked_cold_is_checked_again_with_the_carried_layout():
    # review order: the end (placement 16) is checked cold first and, with 1 s, left
    # unknown; the layout carried from the start must then answer it
    game = load_game(LAYOUT_GAME)
    options = SolveOptions(time_limit=1.0, workers=1)
    followed = follow_game(game, options, upto=16, start=_final_layout(game))
    last = followed.steps[16]
    assert [s.answer for s in followed.steps] == ["yes"] * 17
    assert _all_placed(game.position(16), last.layout)


def test_following_live_a_game_that_places_everything_ends_done_not_from_the_pool():
    # the pool's layout contains the last move too, so step() answered "yes" (how "pool")
    # after it, where docs/companion.md promises "done" once no colour has pieces left
    game = load_game(LAYOUT_GAME)
    steps = list(follow(game, OPTIONS, start=_final_layout(game)))
    n = game.num_placements
    assert [s.answer for s in steps] == ["yes"] * n + ["done"]
    assert [s.how for s in steps[1:-1]] == ["pool"] * (n - 1)
    last = steps[-1]
    assert (last.placement, last.how, last.pieces_left, last.layout) == (n, "done", 0, None)
    assert last.move is not None and last.move.placement == game.moves[n - 1].placement


def test_an_unknown_carries_its_best_partial_layout_the_bound_and_the_short_colours():
    # a "no" no solver settles in seconds (UNSETTLED), so 2 s is "unknown"; one
    # check first loads the kernels and solvers it calls (a budget spent loading them
    # leaves no partial layout)
    game = load_game(UNSETTLED[0])
    k = UNSETTLED[1]
    position = game.position(k)
    # (at 0.5 s each colour alone, asked first here, could leave the repair no run)
    options = SolveOptions(time_limit=2.0, workers=1)
    Follower(options, "warm").check(k, game.moves[k - 1], position, 0)
    follower = Follower(options, "test")
    step = follower.check(k, game.moves[k - 1], position, 0)
    assert step.answer == "unknown", step.tried
    assert step.partial is not None, step.tried
    report = check_layout(position, step.partial)
    assert report.legal
    short = {r.colour: r.remaining for r in report.colours if r.remaining}
    assert dict(step.short) == short and short
    left = sum(position.colour(c).remaining_squares for c in step.colours)
    placed = sum(len(p.squares) for v in step.partial.values() for p in v)
    assert step.best_left == left - placed > 0
    assert step.fit is not None and step.fit.need == left


def test_check_follow_prints_and_draws_an_unknowns_best_partial_layout_and_bound():
    result = run_cli(
        "check", str(UNSETTLED[0]), "--after", str(UNSETTLED[1]), "--together", "--follow",
        "--time-limit", "0.3", "--board", "--plain",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "unknown for all 28 pieces" in result.output
    line = next(x for x in result.output.splitlines() if "best partial layout:" in x)
    assert "pieces placed" in line and "short:" in line
    assert "best bound proved: " in result.output
    drawn = [x for x in result.output.splitlines() if x[:3].strip().isdigit()]
    assert len(drawn) == 14  # the board with the partial layout on it


def test_carry_in_junior_drops_one_copy_of_the_movers_piece_not_both():
    from collections import Counter

    game = load_game(GAMES / "junior-L1-s104.blksgf")
    kept_one = 0
    for k in range(4, game.num_placements, 4):
        before = game.position(k)
        witness = {c: list(game.final.colour(c).placed[len(before.colour(c).placed) :])
                   for c in before.colour_names}  # fmt: skip
        mover = game.moves[k].colour
        twice = [x for x, n in Counter(p.piece for p in witness[mover]).items() if n == 2]
        for move in (m for m in legal_moves(before, mover) if m.piece in twice):
            taken = {s for p in witness[mover] for s in p.squares}
            if move in witness[mover] or move.squares & taken:
                continue
            after = before.with_placement(mover, move)
            kept, _ = carry(witness, mover, move, after)
            copies = sum(p.piece == move.piece for p in kept[mover])
            assert copies <= 1  # the move stands for one of the two
            kept_one += copies == 1
            assert check_layout(after, kept).legal
    assert kept_one > 0


def test_the_full_solve_is_not_started_with_too_little_of_the_budget_left():
    import time

    from solver.companion.tiers import MIN_FULL, full_check

    position = load_game(LAYOUT_GAME).position(16)
    started = time.perf_counter()
    soon = started + MIN_FULL[0] / 2
    answer, _, _, result = full_check(position, SolveOptions(time_limit=10.0), soon)
    assert (answer, result) == ("unknown", None)
    assert time.perf_counter() - started < MIN_FULL[0] / 2
    short = SolveOptions(time_limit=1.0, workers=1)  # a short budget still gets it
    answer, _, _, result = full_check(position, short, time.perf_counter() + 0.5)
    assert result is not None  # started: its partial layout and bound are kept


def test_a_game_with_setup_after_a_move_reports_progress():
    game = load_game(Path(__file__).parent / "data" / "sgf" / "ae-duo.blksgf")  # AE after move 2
    calls: list[tuple[int, int]] = []
    options = SolveOptions(time_limit=0.3, workers=1)
    followed = follow_game(game, options, progress=lambda done, total: calls.append((done, total)))
    assert len(followed.steps) == 3
    assert calls == [(0, 2), (1, 2), (2, 2)]
