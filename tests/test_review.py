"""The game review: answers that agree with the endgame check, "unknown" never shown as
"no", the reviewed SGF keeping everything and reading back, bad input."""

from __future__ import annotations

import dataclasses
import json
import re

import helpers
import pytest
from test_cli import one_line_error, run

import solver.tasks.endgame
import solver.tasks.review
from solver.answers.annotate import annotated_sgf, summary_lines, verdict_text
from solver.backends.base import DEFAULT_TIME_LIMIT, SolveOptions
from solver.core.checker import check_layout
from solver.core.order import connected_part
from solver.core.placements import legal_moves, piece_moves
from solver.core.problem import Problem
from solver.core.rules import corner_touches
from solver.formats.game import load_game, read_sgf_text
from solver.formats.sgf import add_comments, parse
from solver.tasks.endgame import endgame_check
from solver.tasks.review import Review, review_game
from solver.tasks.solve import SolveResult, solve

GAME = helpers.GAMES / "classic-L6-s52-book.blksgf"  # 73 placements, reviewed in ~1 s
SGF = helpers.SGF_FIXTURES


@pytest.fixture(scope="module")
def review() -> Review:
    return review_game(load_game(GAME))


# ---------------------------------------------------------------------------------------
# The answers


@pytest.mark.parametrize("after", [0, 20, 40, 48, 49, 55, 57, 58, 62, 73])
def test_answers_agree_with_the_endgame_check(review, after):
    """After these placements every colour's answer is the endgame check's, asked
    directly; a "no" has the same proven best score; a "yes" scores 20 exactly when a
    layout with the monomino last exists."""
    game = review.game
    position = game.position(after)
    for verdict in review.steps[after].verdicts:
        state = position.colour(verdict.colour)
        if not state.remaining:
            assert verdict.answer == "done" and verdict.best == position.score(verdict.colour)
            continue
        direct = endgame_check(position, verdict.colour)
        assert verdict.answer == direct.answer, (after, verdict)
        assert verdict.pieces_left == len(state.remaining)
        if direct.answer == "no":
            assert direct.best is not None and direct.best.status == "optimal"
            assert verdict.proven and verdict.best == direct.best.score
            assert verdict.bonus == "no"
        else:
            mono_left = "1" in state.remaining
            mono = mono_left and solve(Problem(position, (verdict.colour,), "place-all", True))
            assert verdict.bonus == ("yes" if mono and mono.status == "solved" else "no")
            assert verdict.best == (20 if verdict.bonus == "yes" else 15) == verdict.bound
        if verdict.layout is not None:  # the layout shown is legal and scores `best`
            report = check_layout(position, {verdict.colour: list(verdict.layout)})
            assert report.legal and report.report(verdict.colour).score == verdict.best


def test_losses_are_where_the_answers_change(review):
    """Each colour lost the chance to place everything at the first "no" (the answer
    before it was "yes"), and never got it back (a "no" is for good)."""
    losses = {(x.colour, x.what): x for x in review.losses()}
    assert {c for c, _ in losses} == set(review.colours)  # nobody finished this game
    for colour in review.colours:
        answers = [s.verdict(colour).answer for s in review.steps]
        loss = losses[colour, "all"]
        assert loss.exact and answers[loss.first - 1] == "yes"
        assert set(answers[loss.first :]) == {"no"} and "no" not in answers[: loss.first]
        assert loss.move == review.steps[loss.first].move
        bonus = losses[colour, "bonus"]
        assert bonus.first <= loss.first
    # yellow put its monomino down at move 30 with pieces left: the +5 is gone there
    yellow = losses["yellow", "bonus"]
    assert yellow.first == 30 and yellow.move.colour == "yellow"
    assert yellow.move.placement.piece == "1"


@pytest.mark.parametrize("name", ["classic-L6-s52-book", "classic-L6-s48"])
def test_at_the_end_the_best_is_the_score_pentobi_gave(review, name):
    """Nobody can move at the end of these games, so each colour's proven best score is
    its final score, as recorded beside the game (Pentobi's count); in the second game
    blue placed everything, the monomino last."""
    path = helpers.GAMES / f"{name}.blksgf"
    result = review if path == GAME else review_game(load_game(path))
    sidecar = json.loads(path.with_suffix(".json").read_text())["per_color"]
    for k, colour in enumerate(result.colours, start=1):
        end, pentobi = result.final(colour), sidecar[str(k)]
        assert end.answer == ("done" if pentobi["all_pieces_placed"] else "no")
        assert end.proven and end.best == pentobi["official_score"]
        if end.answer == "done":
            assert end.bonus == ("yes" if pentobi["last_piece_monomino"] else "no")
    summary = "\n".join(summary_lines(result))
    assert ("Blue placed all its pieces. At the end: all pieces placed, score 20." in summary) == (
        name == "classic-L6-s48"
    )


def test_most_answers_need_no_solve(review):
    """The layout found earlier still fits most of the time (the point of the review)."""
    answers = sum(1 for s in review.steps for v in s.verdicts if v.answer != "done")
    assert review.kept > answers / 2
    assert review.solves < answers / 2


def _fake_unknown(monkeypatch, when):
    """Make every solve for which ``when(placements, colour)`` holds time out."""
    real = solver.tasks.review.solve

    def fake(problem: Problem, options: SolveOptions = SolveOptions()) -> SolveResult:
        placed = sum(len(c.placed) for c in problem.position.colours)
        if when(placed, problem.colours[0]):
            return SolveResult(problem, "unknown", None, None, None, "fake", 0.0, {})
        return real(problem, options)

    monkeypatch.setattr(solver.tasks.review, "solve", fake)
    monkeypatch.setattr(solver.tasks.endgame, "solve", fake)


def test_unknown_is_never_shown_as_no(monkeypatch):
    _fake_unknown(monkeypatch, lambda placed, colour: True)
    game = load_game(SGF / "passes.blksgf")
    review = review_game(game)
    answers = {v.answer for s in review.steps for v in s.verdicts}
    assert answers == {"unknown"}
    # only purple's monomino, put down first with pieces left, took a chance for sure
    (loss,) = review.losses()
    assert (loss.colour, loss.what, loss.first, loss.last_possible) == ("purple", "bonus", 1, None)
    text = annotated_sgf((SGF / "passes.blksgf").read_text(), review)
    assert "unknown for the 21 pieces left (time limit reached; not a no)" in text
    assert ": no," not in text


def test_an_unknown_before_a_yes_becomes_yes(monkeypatch, review):
    """A time-out where a solve was needed, followed by a "yes": the colour's own moves
    in between plus the later layout are a layout here too (checked)."""
    k = 10
    assert review.steps[k].verdict("red").answer == "yes"
    repaired = solver.tasks.review.repaired_witness

    def no_repair(position, colour, base, displaced):
        placed = sum(len(c.placed) for c in position.colours)
        return (
            None if (placed, colour) == (k, "red") else repaired(position, colour, base, displaced)
        )

    monkeypatch.setattr(solver.tasks.review, "repaired_witness", no_repair)
    _fake_unknown(monkeypatch, lambda placed, colour: placed == k and colour == "red")
    again = review_game(review.game, ["red"])
    verdict = again.steps[k].verdict("red")
    assert verdict.answer == "yes" and verdict.how == "inferred"
    position = review.game.position(k)
    report = check_layout(position, {"red": list(verdict.layout)})
    assert report.legal and report.report("red").all_placed
    assert verdict.best == report.report("red").score


def test_an_unknown_at_the_loss_makes_it_inexact(monkeypatch, review):
    loss = next(x for x in review.losses() if x.colour == "green" and x.what == "all")
    k = loss.first
    _fake_unknown(monkeypatch, lambda placed, colour: placed == k and colour == "green")
    again = review_game(review.game, ["green"])
    assert again.steps[k].verdict("green").answer == "unknown"
    moved = next(x for x in again.losses() if x.what == "all")
    assert (moved.first, moved.last_possible, moved.exact) == (k + 1, k - 1, False)
    text = annotated_sgf(GAME.read_text(), again)
    assert f"at one of move {k} (" in text and "time limits left the answers between" in text


def test_a_better_layout_later_lifts_an_unproven_best(monkeypatch, review):
    """A "no" whose best-score solve stopped early with a poor layout (here: placing
    nothing) takes the best score of a later layout, extended back and checked."""
    k = next(x for x in review.losses() if x.colour == "green" and x.what == "all").first
    real = solver.tasks.endgame.solve

    def poor(problem: Problem, options: SolveOptions = SolveOptions()) -> SolveResult:
        placed = sum(len(c.placed) for c in problem.position.colours)
        if (placed, problem.goal) != (k, "max-score"):
            return real(problem, options)
        report = check_layout(problem.position, {"green": []})
        return SolveResult(problem, "solved", {"green": []}, report, None, "poor", 0.0, {})

    monkeypatch.setattr(solver.tasks.endgame, "solve", poor)
    again = review_game(review.game, ["green"])
    verdict = again.steps[k].verdict("green")
    later = [s.verdict("green").best for s in again.steps[k + 1 :]]
    assert verdict.answer == "no" and verdict.how == "inferred"
    assert verdict.best == max(later) > -verdict.squares_left
    report = check_layout(review.game.position(k), {"green": list(verdict.layout)})
    assert report.legal and report.report("green").score == verdict.best


def test_review_of_some_colours_only(review):
    green = review_game(review.game, ["green"])
    assert green.colours == ("green",)
    assert [s.verdict("green").answer for s in green.steps] == [
        s.verdict("green").answer for s in review.steps
    ]


# ---------------------------------------------------------------------------------------
# The reviewed SGF


def _properties(text):
    """Every node of every variation: its properties other than C, in file order."""
    out = []
    stack = list(parse(text))
    while stack:
        tree = stack.pop()
        for node in tree.nodes:
            out.append(tuple((p.ident, p.values) for p in node.properties if p.ident != "C"))
        stack.extend(tree.children)
    return out


def _comments(text):
    return [
        node.get("C").value if node.get("C") else None
        for tree in parse(text)
        for node in tree.main_line()
    ]


@pytest.mark.parametrize(
    "name", ["escapes.blksgf", "variations.blksgf", "setup-classic.blksgf", "passes.blksgf"]
)
def test_reviewed_sgf_keeps_everything_and_reads_back(name):
    path = SGF / name
    original = path.read_text()
    game = load_game(path)
    text = annotated_sgf(original, review_game(game), str(path))
    again = read_sgf_text(text)
    assert [(m.colour, m.placement) for m in again.moves] == [
        (m.colour, m.placement) for m in game.moves
    ]
    assert again.final == game.final
    assert _properties(text) == _properties(original)  # every node, variations included
    before = {n.location: n.get("C") for t in parse(original) for n in t.main_line()}
    after = parse(text)[0].main_line()
    for node, new in zip(parse(original)[0].main_line(), after):
        old = before[node.location]
        if old is not None:  # an existing comment is kept, ours follows it
            assert new.get("C").value.startswith(old.value + "\n\nblokus-solo review")
    assert "blokus-solo review:" in after[0].get("C").value
    # the original text is all still there, in order: the review only inserts
    rest = iter(text)
    assert all(ch in rest for ch in original)


def test_comments_escape_brackets_and_backslashes():
    text = "(;GM[Blokus Duo]C[a \\] b]\n;B[e10];W[j5]PB[x])"
    root, first, second = parse(text)[0].main_line()
    comments = {
        root.location: "ends with ] and \\",
        first.location: "[x]",
        second.location: "two\nlines",
    }
    out = add_comments(text, comments)
    assert _comments(out) == ["a ] b\n\nends with ] and \\", "[x]", "two\nlines"]
    assert "C[[x\\]]" in out
    assert parse(out)[0].main_line()[2].get("PB").value == "x"
    empty = "(;GM[Blokus Duo];)"
    node = parse(empty)[0].main_line()[1]
    assert _comments(add_comments(empty, {node.location: "here"})) == [None, "here"]


def test_comments_match_the_answers(review):
    """The comment of a placement's node names every colour's answer after it."""
    text = annotated_sgf(GAME.read_text(), review)
    comments = _comments(text)
    assert len(comments) == review.game.num_placements + 1
    for step in review.steps[1:]:
        comment = comments[step.placement]
        assert comment.startswith(f"blokus-solo review after move {step.placement} (")
        assert "each colour on its own, with the other colours as they stand:" in comment
        assert comment.isascii()
        for verdict in step.verdicts:
            assert verdict_text(verdict) in comment
    yellow = comments[30]
    assert "move 30 (yellow 1) cost Yellow the chance to end with the monomino (+5)" in yellow
    assert (
        "Yellow: yes, all 13 pieces left can still be placed, but not with the monomino last"
        in yellow
    )
    root = comments[0]
    assert "with the other colours as they stand" in root
    assert "Yellow lost" not in root and "move 30 (yellow 1) cost Yellow" in root


# ---------------------------------------------------------------------------------------
# The command


def test_review_command_prints_the_summary_and_writes_the_game(tmp_path):
    out = tmp_path / "reviewed.blksgf"
    result = run("review", SGF / "setup-classic.blksgf", "--out", out, "--moves", "--plain")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{SGF / 'setup-classic.blksgf'}: classic 20x20, 3 placements")
    header = next(k for k, line in enumerate(lines) if line.startswith("colour "))
    rows = lines[header + 1 : header + 5]
    assert [r.split()[0] for r in rows] == ["blue", "yellow", "red", "green"]
    # blue and green put their monominoes down in the setup, with pieces left
    for row, bonus, score in zip(rows, [False, True, True, False], [15, 20, 20, 15]):
        cells = re.split(r"\s{2,}", row.strip())
        assert cells[1:] == [
            "still possible",
            "still possible" if bonus else "not possible at the start",
            f"yes, best score {score}",
        ]
    assert f"wrote {out}" in lines[-1]
    again = load_game(out)
    assert again.final == load_game(SGF / "setup-classic.blksgf").final
    assert "A diagram: blue's pieces" in _comments(out.read_text())[0]


def test_review_bad_input(tmp_path, monkeypatch):
    def no_work(*args, **kwargs):
        raise AssertionError("bad input must be refused before any work")

    monkeypatch.setattr(solver.tasks.review, "review_game", no_work)
    out = tmp_path / "out.blksgf"
    one_line_error(run("review", helpers.PUZZLES / "tiny-5x5-corner.toml"), "not a game record")
    one_line_error(run("review", GAME, "--out", tmp_path / "r.json"), "--out", "use .blksgf")
    one_line_error(run("review", GAME, "--out", tmp_path / "no" / "r.blksgf"), "does not exist")
    one_line_error(run("review", GAME, "--colour", "purple"), "--colour", "purple")
    one_line_error(run("review", GAME, "--time-limit", "nan"), "--time-limit")
    cut = tmp_path / "cut.blksgf"
    cut.write_text(GAME.read_text()[:200])
    out.write_text("keep me")
    one_line_error(run("review", cut, "--out", out), str(cut), "line")
    illegal = tmp_path / "illegal.blksgf"
    illegal.write_text("(;GM[Blokus Duo];B[a1])")
    one_line_error(run("review", illegal, "--out", out), str(illegal), "move 1")
    missing = tmp_path / "missing.blksgf"
    one_line_error(run("review", missing, "--out", out), str(missing))
    assert out.read_text() == "keep me"


def test_review_time_limit_is_a_budget_per_check(monkeypatch):
    """Every solve gets at most what is left of its check's --time-limit; the first try
    at a layout with the monomino last is short."""
    seen = []
    real = solver.tasks.review.solve

    def spy(problem, options=SolveOptions()):
        seen.append(options.time_limit)
        return real(problem, dataclasses.replace(options))

    monkeypatch.setattr(solver.tasks.review, "solve", spy)
    monkeypatch.setattr(solver.tasks.endgame, "solve", spy)
    assert run("review", SGF / "passes.blksgf", "--time-limit", "0.5").exit_code == 0
    assert seen and all(0 <= t <= 0.5 for t in seen)
    seen.clear()
    assert run("review", SGF / "passes.blksgf").exit_code == 0
    assert seen and all(0 < t <= DEFAULT_TIME_LIMIT for t in seen)
    assert solver.tasks.review.QUICK_TRY in seen


# ---------------------------------------------------------------------------------------
# What the repair of a layout uses


@pytest.mark.parametrize(
    ("name", "after"), [("classic-L6-s52-book", 30), ("duo-L4-s29", 12), ("junior-L3-s106", 20)]
)
def test_piece_moves_are_the_legal_moves_of_that_piece(name, after):
    position = load_game(helpers.GAMES / f"{name}.blksgf").position(after)
    for state in position.colours:
        legal = legal_moves(position, state.name)
        for piece in set(state.remaining) | {"X"}:
            expected = {p for p in legal if p.piece == piece}
            assert set(piece_moves(position, state.name, piece)) == expected


def test_connected_part_leaves_out_islands():
    """Blue's witness after placement 40, with one piece taken out: the pieces that only
    reached blue's squares through it are left out, the others kept in a legal order."""
    game = load_game(GAME)
    position = game.position(40)
    pieces = list(endgame_check(position, "blue").place_all.layout["blue"])
    assert connected_part(position, "blue", pieces) == pieces  # already in order of play
    cut = 0
    for k in range(len(pieces)):
        rest = pieces[:k] + pieces[k + 1 :]
        part = connected_part(position, "blue", rest)
        assert check_layout(position, {"blue": part}).legal
        left_out = [p for p in rest if p not in part]
        cut += bool(left_out)
        for p in left_out:  # truly cut off: no corner contact with blue or the part
            squares = position.colour("blue").squares.union(*(q.squares for q in part))
            assert not corner_touches(position.board, p.squares, frozenset(squares))
    assert cut > 0  # some piece is a bridge
