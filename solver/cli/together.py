"""What ``blokus-solo review --together`` prints: with ``--moves`` one row per placement
(the joint answer, how it came about, its time), then the summary: the move after which
every piece of every colour could no longer be placed (exact or bracketed)."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from solver.answers.annotate_together import answer_text, step_closeness, summary_text
from solver.cli.output import ANSWER_STYLES
from solver.companion.follow import Followed, JointStep


def print_followed(console: Console, followed: Followed, moves: bool) -> None:
    """The per-placement table (when ``moves``), then the summary lines."""
    if moves:
        console.print(f"{'move':>4} {'colour':7} {'piece':5} {'answer':8} {'how':9} {'s':>6}  note")
        for step in followed.steps:
            move = step.move
            line = Text(
                f"{move.number if move else 0:>4} {move.colour if move else 'start':7} "
                f"{move.placement.piece if move and move.placement else '':5} "
            )
            line.append(f"{step.answer:8}", style=ANSWER_STYLES[step.answer])
            line.append(f" {step.how:9} {step.seconds:6.2f}  {_note(step)}")
            console.print(line)
            for close in step_closeness(step):
                console.print("     " + close)
        console.print()
    console.print(summary_text(followed))
    counts = {a: sum(s.answer == a for s in followed.steps) for a in ("yes", "no", "unknown")}
    ways = ("book", "pool", "repaired", "solved", "inferred")
    hows = ", ".join(f"{followed.count(h)} {h}" for h in ways)
    console.print(
        f"answers: {counts['yes']} yes, {counts['no']} no, {counts['unknown']} unknown "
        f"({hows}); every yes checked by the rule checker"
    )


def answer_line(step: JointStep, seconds: float) -> str:
    """The line of ``check --together --follow``: the joint answer after the last
    placement followed, how it came about, and the time of the whole follow."""
    head = f"  together ({', '.join(step.colours)}): " if step.colours else "  "
    text = head + answer_text(step)
    return (
        text
        + f"  [followed, {step.how}; {step.seconds:.2f} s for this check, {seconds:.1f} s in all]"
    )


def _note(step: JointStep) -> str:
    if step.answer == "no":
        return step.reason
    if step.answer == "unknown":
        return "time limit (not a no)"
    return ""
