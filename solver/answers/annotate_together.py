"""A game followed with the joint question (``review --together``), in words and written
into the game record as Pentobi comments.

Each placement's node gets a comment with the joint answer after it ("can every colour
with pieces left still place all of them?"); the root node gets the summary: the move
after which that was lost (exactly, or bracketed between two moves when time limits left
the answers between unknown). Plain ASCII, like :mod:`solver.answers.annotate`; the
original file is kept character for character (:func:`solver.formats.sgf.add_comments`).
"""

from __future__ import annotations

from solver.answers.annotate import comment_moves, move_text, regained_text
from solver.answers.words import partial_line, plural
from solver.companion.follow import Followed, JointStep
from solver.core.board import cell_word
from solver.tasks.review import Loss

INTRO = (
    "blokus-solo review --together: after every move, can every colour with pieces left "
    "still place all of them, with the board otherwise as it stands (the solo player's "
    "question)? 'yes' comes with a layout the rule checker accepted; 'no' is proven; "
    "'unknown' means a time limit ran out and is not a 'no'."
)

HOW = {
    "book": "a layout of the opening book",
    "pool": "a layout known before this move contains it",
    "repaired": "the layout carried from the move before, repaired around this move",
    "solved": "solved afresh",
    "inferred": "inferred: the moves up to a later layout plus that layout, checked",
    "done": "",
}


def answer_text(step: JointStep) -> str:
    """The joint answer in words, e.g. ``yes: all 52 pieces (230 squares) of blue, yellow,
    red and green can still be placed (the layout carried from the move before still
    fits)``."""
    if step.answer == "done":
        return "every colour has placed all its pieces"
    pieces = f"{step.pieces_left} piece{'' if step.pieces_left == 1 else 's'}"
    who = _names(step.colours)
    word = cell_word(step.grid)
    squares = f"{step.squares_left} {plural(step.squares_left, word)}"
    what = f"all {pieces} ({squares}) of {who}"
    if step.answer == "yes":
        return f"yes: {what} can still be placed ({HOW[step.how]})"
    if step.answer == "no":
        return f"no: {what} cannot all be placed (proven; {step.reason})"
    close = (
        "; no layout found"
        if step.best_left is None
        else f"; the best layout found leaves {step.best_left} {plural(step.best_left, word)}"
    )
    return f"unknown for {what} (time limit reached; not a no{close})"


def _names(colours: tuple[str, ...]) -> str:
    """``blue``, ``blue and red``, ``blue, yellow and red``."""
    if len(colours) < 2:
        return "".join(colours) or "no colour"
    return ", ".join(colours[:-1]) + " and " + colours[-1]


def summary_text(followed: Followed) -> str:
    """The summary of a followed game: every placement after which placing every piece of
    every colour was lost, what setup gave back, and where it stands at the end. It says
    no more than the answers after each move do: a proven "no" is never summed up as
    "could still be placed after every move"."""
    losses = followed.losses()
    end = followed.steps[-1]
    if not losses:
        if end.answer in ("yes", "done"):
            return "Every piece of every colour could still be placed after every move."
        return "Whether every piece can still be placed is open at the end (time limits)."
    lines = [loss_text(loss, followed) for loss in losses]
    last = losses[-1]
    if last.regained is not None:
        lines.append(
            "At the end every piece of every colour can still be placed."
            if end.answer in ("yes", "done")
            else "Whether every piece can still be placed at the end is open (time limits)."
        )
    elif end.answer != "no" and any(k > last.first for k in followed.game.setup_after):
        lines.append(
            "Setup later changed the board; whether it gave the chance back is open (time limits)."
        )
    return " ".join(lines)


def loss_text(loss: Loss, followed: Followed) -> str:
    """One loss of the chance to place every piece, in words, with what gave it back."""
    lost = _lost_text(loss, followed)
    if loss.regained is None:
        return lost
    moves = [step.move for step in followed.steps]
    return lost[:-1] + "; " + regained_text(loss, followed.game, moves) + "."


def _lost_text(loss: Loss, followed: Followed) -> str:
    if loss.first == 0:
        return "Not every piece could be placed even at the start."
    if loss.exact:
        return f"{move_text(loss.move).capitalize()} lost the chance to place every piece."
    if loss.last_possible is None:
        return f"The chance to place every piece was lost by {move_text(loss.move)}."
    since = followed.steps[loss.last_possible + 1].move
    return (
        f"The chance to place every piece was lost at one of {move_text(since)} to "
        f"{move_text(loss.move)} (time limits left the answers between unknown)."
    )


def step_comment(followed: Followed, step: JointStep) -> str:
    """The comment of one placement's node."""
    lines = [f"blokus-solo review --together after {move_text(step.move)}: {answer_text(step)}"]
    lines += [
        loss_text(loss, followed)
        for loss in followed.losses()
        if loss.exact and loss.first == step.placement and step.placement
    ]
    return "\n".join(lines)


def root_comment(followed: Followed) -> str:
    """The root node's comment: what the review is, the summary, the start."""
    return "\n".join(
        [INTRO, "", "Summary: " + summary_text(followed), "",
         "At the start: " + answer_text(followed.steps[0])]
    )  # fmt: skip


def annotated_sgf(text: str, followed: Followed, path: str | None = None) -> str:
    """The game record ``text`` with the joint answers as comments (the summary in the
    root node, each placement's answer in its node); everything in the text is kept.

    Raises:
        InputError: the text is not well-formed SGF.
        ValueError: the text is not the record of the followed game.
    """
    comments = [(step.move, step_comment(followed, step)) for step in followed.steps[1:]]
    return comment_moves(text, root_comment(followed), comments, path)


def step_closeness(step: JointStep) -> list[str]:
    """For an unknown: its best partial layout (pieces and squares left, the short
    colours; "no layout found" when it places no piece) and the best bound proved, as
    ``check --together`` prints them; no lines otherwise."""
    if step.answer != "unknown":
        return []
    if step.partial is None:
        lines = ["  best partial layout: no layout found"]
    else:
        lines = [partial_line(step.pieces_left, step.short or {}, step.grid)]
    if step.fit is not None:
        lines.append(f"  best bound proved: {step.fit.text}")
    return lines
