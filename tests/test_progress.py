"""How close a running answer has come, told as it goes on (issue 45: "a move answered
unknown shows ... how close the search came, and the page updates as it goes on"): the
compiled repair search tells its listener (solver/backends/progress.py), the page's worker
sends it (solver/web/closeness.py), the job's poll hands it to the page (solver/web/jobs.py).
"""

from __future__ import annotations

import time

import solver.api as blokus
from solver.backends import progress
from solver.backends.repair.compiled import Run
from solver.companion.layouts import legal_part
from solver.companion.page import follow_request, layout_of
from solver.core.pieces import family
from solver.core.position import Placement
from solver.web.closeness import Closeness
from solver.web.jobs import Jobs
from solver.web.kinds import JointQuestion
from tests.helpers import PUZZLES

RECORD = PUZZLES / "records" / "four-19x19.toml"  # 84 pieces on 19x19: no layout in seconds


def cells_left(position, layout) -> int:
    """Cells of the colours' remaining pieces that ``layout`` does not place."""
    size = family(position.board.grid).size
    need = sum(size[p] for c in layout for p in position.colour(c).remaining)
    return need - sum(len(p.squares) for ps in layout.values() for p in ps)


def legal_partial(position, layout) -> bool:
    """Accepted by the rule checker as a partial layout, in some order of play."""
    return legal_part(position, layout) is not None


def test_a_run_tells_its_listener_its_better_partial_layouts_and_its_last_best():
    problem = blokus.load(str(RECORD))
    told = []
    run = Run(problem.position, problem.colours, seed=1)
    with progress.listening(lambda position, layout: told.append((position, dict(layout)))):
        assert progress.wanted()
        run.advance(deadline=time.perf_counter() + 1.2)
    assert not progress.wanted()
    assert not run.found and len(told) >= 2  # every MIN_GAP while it improves, and at the end
    lefts = [cells_left(position, layout) for position, layout in told]
    assert all(position is problem.position for position, _ in told)
    assert all(legal_partial(problem.position, layout) for _, layout in told)
    assert lefts == sorted(lefts, reverse=True) and lefts[0] > lefts[-1]
    assert lefts[-1] == cells_left(problem.position, run.best())  # the last best is told


class Pipe:
    """A job's end of its pipe, keeping what is sent."""

    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, message: dict) -> None:
        self.sent.append(message)


def test_the_worker_sends_only_checked_better_layouts_and_nothing_after_the_answer():
    problem = blokus.load(str(RECORD))
    position = problem.position
    run = Run(position, problem.colours, seed=2)
    run.advance(steps=0)  # greedy play's layout
    first = run.best()
    run.advance(steps=3000)
    better = run.best()
    assert cells_left(position, better) < cells_left(position, first)
    pipe = Pipe()
    closeness = Closeness(pipe, time.time())  # type: ignore[arg-type]
    closeness(position, better)
    closeness(position, first)  # worse than the one sent: not sent
    twice = dict(better)
    twice["blue"] = list(better["blue"]) + list(better["blue"][:1])  # a piece twice: refused
    closeness(position, twice)
    # a missing piece laid over a placed piece of its size: fewer cells left, but illegal
    size = family(position.board.grid).size
    colour, piece = next(
        (c, p)
        for c in problem.colours
        for p in position.colour(c).remaining
        if p not in [q.piece for q in better[c]]
    )
    under = next(q for ps in better.values() for q in ps if len(q.squares) == size[piece])
    over = {c: list(v) for c, v in better.items()}
    over[colour].append(Placement(piece, under.squares))
    assert cells_left(position, over) < cells_left(position, better)
    closeness(position, over)
    assert [m["left"] for m in pipe.sent] == [cells_left(position, better)]
    message = pipe.sent[0]
    assert message["progress"].startswith("best so far: ")
    placed = sum(len(v) for v in better.values())
    assert (
        f"{placed} of 84 pieces placed, {message['left']} squares left; short: "
        in (message["progress"])
    )
    assert legal_partial(position, layout_of(message["layout"]))
    closeness.close()
    run.advance(steps=3000)
    closeness(position, {c: [] for c in problem.colours} | run.best())
    assert len(pipe.sent) == 1  # the answer is on its way: nothing after it


def test_a_running_joint_question_shows_how_close_it_has_come():
    """The page's worker on a question the companion cannot settle in 4 s (the 84 pieces
    on 19x19, from scratch): while it runs, the job's poll carries the best partial layout
    so far (checked), better each time it changes; the unknown at the end says no less."""
    problem = blokus.load(str(RECORD))
    jobs = Jobs(1)
    jobs.warm()  # the fork server up, the kernels loaded: the question's time is its own
    try:
        question = JointQuestion(problem, follow_request([(None, None, problem)], {}))
        job = jobs.start("me", question, 4)
        seen = []
        while (out := jobs.poll("me", job))["state"] == "running":
            if "progress" in out and (not seen or out["progress"] is not seen[-1]):
                seen.append(out["progress"])
            time.sleep(0.02)
    finally:
        jobs.shutdown()
    result = out["result"]
    assert result["answer"] == "unknown", result["text"]
    assert seen, ("no progress while the answer ran", result["text"])
    lefts = [p["left"] for p in seen]
    assert lefts == sorted(set(lefts), reverse=True)
    for p in seen:
        layout = layout_of(p["layout"])
        assert legal_partial(problem.position, layout)
        assert cells_left(problem.position, layout) == p["left"]
        assert p["seconds"] < result["seconds"]
    final = int(result["text"].split(" squares left")[0].rsplit(" ", 1)[-1])
    assert final <= lefts[-1], result["text"]


def test_the_command_line_shows_the_best_so_far_in_a_terminal_only():
    import io

    from rich.console import Console

    from solver.cli.so_far import so_far_status

    problem = blokus.load(str(RECORD))
    terminal = Console(file=io.StringIO(), force_terminal=True, width=240)
    with so_far_status(terminal):
        assert progress.wanted()
        Run(problem.position, problem.colours, seed=3).advance(deadline=time.perf_counter() + 0.8)
    shown = terminal.file.getvalue()
    assert "searching" in shown and "best so far: " in shown and " of 84 pieces placed, " in shown
    piped = Console(file=io.StringIO(), force_terminal=False)
    with so_far_status(piped):
        assert not progress.wanted()
    assert piped.file.getvalue() == ""
