"""Summaries and answers in words say exactly what the rows say: never less (a chance
lost and given back by setup in mid-game) and never wrongly (plurals).

The game (``tests/data/sgf/duo-regained-by-setup.blksgf``): the root sets up 17 pieces of
each colour of a layout that places all 42; move 3 (purple's monomino at g2) makes placing
every piece impossible, proven; an ``AE`` node after move 4 takes the monomino away again.
A "no" followed by a "yes" is then consistent, and every summary must say both.
"""

import json

from helpers import SGF_FIXTURES, run_cli
from hypothesis import given
from hypothesis import strategies as st

GAME = SGF_FIXTURES / "duo-regained-by-setup.blksgf"
AE_DUO = SGF_FIXTURES / "ae-duo.blksgf"


def test_setup_after_lists_the_placements_after_which_setup_changed_the_board():
    from solver.formats.game import load_game, read_sgf_text

    assert load_game(GAME).setup_after == (4,)
    assert load_game(AE_DUO).setup_after == (2,)
    assert load_game(SGF_FIXTURES / "setup-duo.blksgf").setup_after == ()  # root setup only
    added = "(;GM[Blokus Duo];B[e10,e11];W[j5,j6];AB[a1];B[f12,f13,f14])"  # setup that puts a piece down
    assert read_sgf_text(added).setup_after == (2,)


def test_the_together_summary_says_the_move_that_lost_it_and_the_setup_that_gave_it_back():
    result = run_cli("review", GAME, "--together", "--moves", "--time-limit", "20")
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines() if line[:4].strip().isdigit()]
    answers = [next(w for w in row if w in ("yes", "no", "unknown")) for row in rows]
    assert answers == ["yes", "yes", "yes", "no", "yes", "yes"]
    assert "could still be placed after every move" not in result.output
    assert (
        "Move 3 (purple 1) lost the chance to place every piece; the setup after move 4 "
        "(orange I4) gave it back. At the end every piece of every colour can still be "
        "placed." in result.output
    )


def test_the_together_comments_carry_the_same_summary(tmp_path):
    out = tmp_path / "reviewed.blksgf"
    result = run_cli("review", GAME, "--together", "--out", out, "--time-limit", "20")
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "Summary: Move 3 (purple 1) lost the chance" in text
    assert "the setup after move 4 (orange I4) gave it back" in text
    assert "could still be placed after every move" not in text


def test_the_per_colour_review_says_when_the_bonus_was_lost_and_given_back():
    import solver.api as blokus

    review = blokus.review(GAME, time_limit=20.0)
    (loss,) = review.losses()
    assert (loss.colour, loss.what, loss.first, loss.exact, loss.regained) == (
        "purple",
        "bonus",
        3,
        True,
        4,
    )
    result = run_cli("review", GAME, "--plain", "--time-limit", "20")
    purple = next(line for line in result.output.splitlines() if line.startswith("purple "))
    assert "lost at move 3 (purple 1), given back by setup after move 4; still possible" in purple
    sgf = blokus.reviewed_sgf(review)
    assert "cost Purple the chance to end with the monomino (+5); the setup after move 4" in sgf


def test_the_batch_report_calls_yes_after_no_with_setup_between_consistent(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / GAME.name).write_bytes(GAME.read_bytes())
    out = tmp_path / "out"
    args = ("batch", folder, "--out", out, "--together", "--every", "1", "--workers", "1")
    result = run_cli(*args, "--time-limit", "20")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {row["after"]: row["colours"][0]["answer"] for row in rows} == {
        1: "yes",
        2: "yes",
        3: "no",
        4: "yes",
        5: "yes",
    }
    readme = (out / "README.md").read_text()
    assert "inconsistent" not in readme
    assert "not reached; no by 3, given back by setup after 4" in readme


def test_no_return_tells_setup_from_disagreeing_answers():
    from solver.batch.report import no_return

    answers = {1: "yes", 3: "no", 4: "yes", 5: "yes"}
    assert no_return(answers).text() == "inconsistent (yes after no, no setup between)"
    assert no_return(answers, [4]).text() == "not reached; no by 3, given back by setup after 4"
    assert no_return(answers, [2]).text() == "inconsistent (yes after no, no setup between)"
    lost_again = {1: "yes", 3: "no", 4: "yes", 6: "no"}
    assert no_return(lost_again, [4]).text() == "4 (no by 6); no by 3, given back by setup after 4"


STATES = st.lists(st.sampled_from(["yes", "no", "unknown", None]), max_size=12)


@given(STATES)
def test_every_no_lies_in_exactly_one_run_that_ends_at_the_next_yes(states):
    from solver.tasks.review import lost_runs

    runs = lost_runs(states)
    for k, state in enumerate(states):
        inside = [r for r in runs if r[0] <= k < (len(states) if r[2] is None else r[2])]
        if state == "no":
            assert len(inside) == 1
        if state == "yes":
            assert not inside
    for first, last_yes, back in runs:
        assert states[first] == "no"
        assert back is None or states[back] == "yes"
        yes_before = [k for k in range(first) if states[k] == "yes"]
        assert last_yes == (yes_before[-1] if yes_before else None)


def test_an_unknown_that_leaves_one_square_says_square():
    from solver.answers.annotate_together import answer_text
    from solver.companion.follow import JointStep

    step = JointStep(0, None, "unknown", "solved", 1.0, ("blue",), 1, 1, "time limit", 1)
    assert answer_text(step).endswith("the best layout found leaves 1 square)")
    step = JointStep(0, None, "unknown", "solved", 1.0, ("blue",), 1, 5, "time limit", 5)
    assert answer_text(step).endswith("the best layout found leaves 5 squares)")
