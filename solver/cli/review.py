"""What ``blokus-solo review`` prints: the summary table, and with ``--moves`` one row per
placement.

Summary, one row per colour: the move after which it could no longer place all its pieces
(+15), the one after which it could no longer end with the monomino (+5), and its answer
at the end. Per placement: each colour's answer in a short cell, ``yes 20`` (all fit,
best score 20), ``yes 15`` (all fit, monomino not last), ``yes 15+`` (all fit, monomino
last unknown), ``no -4`` (proven; best score -4, proven), ``no -6..-4`` (best found -6,
at most -4), ``no ?``, ``?`` (unknown), ``done 20``; a ``!`` marks the placement that
took a chance away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import Progress
from rich.text import Text

from solver.answers.annotate import end_text, move_text
from solver.tasks.review import Loss, Review, Verdict

STYLES = {"yes": "green", "done": "green", "no": "red", "unknown": "yellow"}


@contextmanager
def review_progress(placements: int) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on standard error while a review runs (shown in a terminal only,
    and gone when it ends); yields the ``progress`` callback of
    :func:`solver.tasks.review.review_game`."""
    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("reviewing", total=placements + 1)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done + 1, total=total + 1)

        yield advance


def print_review(console: Console, review: Review, moves: bool) -> None:
    """The summary table, after the per-placement table when ``moves``."""
    if moves:
        _print_moves(console, review)
    losses = review.losses()
    heads = ("all pieces (+15)", "monomino last (+5)")
    rows = [
        [_chance_cell(review, [x for x in losses if x.colour == c], c, w) for w in ("all", "bonus")]
        for c in review.colours
    ]
    widths = [max(len(r[k]) for r in [list(heads), *rows]) for k in range(2)]
    console.print(f"{'colour':7}  {heads[0]:{widths[0]}}  {heads[1]:{widths[1]}}  at the end")
    for colour, cells in zip(review.colours, rows):
        line = Text(f"{colour:7}  ")
        for text, width in zip(cells, widths):
            line.append(f"{text:{width}}", style="red" if text.startswith("lost") else None)
            line.append("  ")
        end = review.final(colour)
        line.append(end_text(end), style=STYLES[end.answer])
        console.print(line)


def _chance_cell(review: Review, losses: list[Loss], colour: str, what: str) -> str:
    loss = next((x for x in losses if x.what == what), None)
    if loss is not None:
        return _loss_cell(loss, review)
    if what == "bonus" and not review.game.variant.bonus:
        return "-"
    end = review.final(colour)
    if end.answer == "unknown" or what == "bonus" and end.bonus == "unknown":
        return "open (time limit)"
    if end.answer == "done":
        return "all placed" if what == "all" else "monomino last"
    return "still possible"


def _loss_cell(loss: Loss, review: Review) -> str:
    if loss.first == 0:
        return "not possible at the start"
    if loss.exact:
        return f"lost at {move_text(loss.move)}"
    assert loss.move is not None
    if loss.last_possible is None:
        return f"lost by move {loss.move.number}"
    since = review.steps[loss.last_possible + 1].move
    assert since is not None
    return f"lost at one of moves {since.number}-{loss.move.number}"


def cell(v: Verdict) -> str:
    """One colour's answer in a few characters (see the module docstring)."""
    if v.answer == "unknown":
        return "?"
    if v.best is None:
        return f"{v.answer} ?"
    if v.answer == "yes" and v.bonus == "unknown":
        return f"yes {v.best}+"
    if v.proven or v.answer in ("yes", "done"):
        return f"{v.answer} {v.best}"
    return f"{v.answer} {v.best}..{v.bound}"


def _print_moves(console: Console, review: Review) -> None:
    lost = {(x.first, x.colour) for x in review.losses() if x.exact}
    head = f"{'move':>4} {'colour':7} {'piece':5}" + "".join(f" {c:>10}" for c in review.colours)
    console.print(head)
    for step in review.steps:
        move = step.move
        line = Text(
            f"{move.number if move else 0:>4} {move.colour if move else 'start':7} "
            f"{move.placement.piece if move and move.placement else '':5}"
        )
        for v in step.verdicts:
            mark = "!" if (step.placement, v.colour) in lost else " "
            line.append(f" {cell(v):>9}{mark}", style=STYLES[v.answer])
        console.print(line)
    console.print(
        "yes N: all pieces fit, best score N (N+: the monomino last unknown); no N: proven, "
        "best score N (A..B: best found A, at most B); ?: time limit (not a no); "
        "!: the move took a chance away"
    )
    console.print()
