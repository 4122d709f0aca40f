"""A game review in words, and written into the game record as Pentobi comments.

Each placement's node gets a comment (``C``) with every reviewed colour's answer after that
placement; the root node gets the summary: the move after which each colour could no
longer place all its pieces, and the one after which it could no longer end with the
monomino. Pentobi shows a node's comment beside the board when the move is selected.
The text is plain ASCII, so it reads the same whatever the file's charset (``CA``).

The original file is kept character for character: comments are inserted into it
(:func:`solver.formats.sgf.add_comments`), appended after a blank line to a comment a node
already has.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.answers.words import plural
from solver.core.board import cell_word
from solver.formats.game import Game, GameMove
from solver.formats.sgf import Location, add_comments, parse
from solver.tasks.review import Loss, Review, Step, Verdict, setup_between

INTRO = (
    "blokus-solo review: after every move, can each colour still place all its pieces "
    "(+15) and end with the monomino (+5), and what is the best score it can still reach? "
    "Each colour is judged on its own, with the other colours as they stand (their "
    "later moves are not played), as blokus-solo check answers it. 'no' is proven; "
    "'unknown' means a time limit ran out and is not a 'no'."
)


def move_text(move: GameMove | None) -> str:
    """``move 37 (yellow I5)``, or ``the start``."""
    if move is None or move.placement is None:
        return "the start"
    return f"move {move.number} ({move.colour} {move.placement.piece})"


def verdict_text(verdict: Verdict, grid: str = "square") -> str:
    """One colour's answer in words, e.g. ``blue: yes, all 6 pieces left still fit,
    monomino last too (best score 20)``; cells named as ``grid``'s (squares, triangles)."""
    v = verdict
    name = v.colour.capitalize()
    if v.answer == "done":
        last = ", monomino last" if v.bonus == "yes" else ""
        return f"{name}: all pieces placed{last} (score {v.best})"
    left = f"{v.pieces_left} piece{'' if v.pieces_left == 1 else 's'} left"
    if v.answer == "unknown":
        return f"{name}: unknown for the {left} (time limit reached; not a no)"
    if v.answer == "yes":
        text = f"{name}: yes, all {left} can still be placed"
        if v.bonus == "yes":
            text += ", with the monomino last"
        elif v.bonus == "no":
            text += ", but not with the monomino last"
        elif v.bonus == "unknown":
            text += "; with the monomino last: unknown (time limit)"
        return text + f" ({_score(v)})"
    squares = f"{v.squares_left} {plural(v.squares_left, cell_word(grid))}"
    return f"{name}: no, the {left} ({squares}) cannot all be placed (proven); {_score(v)}"


def _score(v: Verdict) -> str:
    if v.best is None:
        return "best score: unknown (time limit)" + (
            f", at most {v.bound}" if v.bound is not None else ""
        )
    if v.proven:
        return f"best score {v.best}" + (" (proven)" if v.answer == "no" else "")
    return f"best score found {v.best}, at most {v.bound}"


def loss_text(loss: Loss, review: Review) -> str:
    """When a colour lost a chance, e.g. ``move 44 (green N) cost Blue the chance to place
    all its pieces``, and what gave it back if anything did."""
    lost = _lost_text(loss, review)
    if loss.regained is None:
        return lost
    moves = [step.move for step in review.steps]
    return lost + "; " + regained_text(loss, review.game, moves)


def _lost_text(loss: Loss, review: Review) -> str:
    name = loss.colour.capitalize()
    what = (
        "the chance to place all its pieces"
        if loss.what == "all"
        else "the chance to end with the monomino (+5)"
    )
    if loss.first == 0:
        return f"{name} had not {what} at the start"
    if loss.exact:
        return f"{move_text(loss.move)} cost {name} {what}"
    if loss.last_possible is None:
        return (
            f"{name} had lost {what} by {move_text(loss.move)} "
            "(time limits left the answers before unknown)"
        )
    since = review.steps[loss.last_possible + 1].move
    return (
        f"{name} lost {what} at one of {move_text(since)} to {move_text(loss.move)} "
        "(time limits left the answers between unknown)"
    )


def regained_text(loss: Loss, game: Game, moves: Sequence[GameMove | None]) -> str:
    """What gave a lost chance back (``loss.regained`` set; ``moves[k]``: the move of
    placement k), e.g. ``the setup after move 4 (orange I4 at e1-h1) gave it back``. If no
    setup lies between, it says that the answers disagree rather than hide it."""
    assert loss.regained is not None
    k = setup_between(game, loss)
    if k is None:
        return (
            f"yet it was possible again after {move_text(moves[loss.regained])} with no "
            "setup between (the answers disagree: please report this)"
        )
    return f"the setup after {move_text(moves[k])} gave it back"


def end_text(verdict: Verdict) -> str:
    """A colour's answer after the last move, short: ``no, best score -12 (proven)``."""
    if verdict.answer == "done":
        return f"all pieces placed, score {verdict.best}"
    if verdict.answer == "unknown":
        return "unknown (time limit; not a no)"
    return f"{verdict.answer}, {_score(verdict)}"


def summary_lines(review: Review) -> list[str]:
    """One line per colour: what it lost and when, and its answer at the end."""
    losses = review.losses()
    lines = []
    for colour in review.colours:
        own = [loss_text(loss, review) for loss in losses if loss.colour == colour]
        end = review.final(colour)
        if not own:
            own = [
                colour.capitalize()
                + {
                    "done": " placed all its pieces",
                    "yes": " can still place all its pieces",
                }.get(end.answer, ": open (time limits)")
            ]
        lines.append("; ".join(own) + f". At the end: {end_text(end)}.")
    return lines


def step_comment(review: Review, step: Step) -> str:
    """The comment of one placement's node: every reviewed colour's answer after it, and
    the chances this placement took away."""
    lines = [
        f"blokus-solo review after {move_text(step.move)}; each colour on its own, "
        "with the other colours as they stand:"
    ]
    lines += [verdict_text(v, review.game.variant.grid) for v in step.verdicts]
    lines += [
        f"{loss_text(loss, review)}."
        for loss in review.losses()
        if loss.first == step.placement and loss.exact and step.placement > 0
    ]
    return "\n".join(lines)


def root_comment(review: Review) -> str:
    """The root node's comment: what the review is, the summary, the start."""
    lines = [INTRO, "", "Summary:"]
    lines += summary_lines(review)
    grid = review.game.variant.grid
    lines += ["", "At the start:"] + [verdict_text(v, grid) for v in review.steps[0].verdicts]
    return "\n".join(lines)


def annotated_sgf(text: str, review: Review, path: str | None = None) -> str:
    """The game record ``text`` (the file the review's game was read from) with the
    review's comments added: the summary in the root node, each placement's answers in
    its node. Everything in the text is kept; see :func:`solver.formats.sgf.add_comments`.

    Raises:
        InputError: the text is not well-formed SGF.
        ValueError: the text is not the record of the reviewed game (a placement's node
            is missing).
    """
    comments = [(step.move, step_comment(review, step)) for step in review.steps[1:]]
    return comment_moves(text, root_comment(review), comments, path)


def comment_moves(
    text: str,
    root: str,
    comments: Sequence[tuple[GameMove | None, str]],
    path: str | None = None,
) -> str:
    """``text`` with ``root`` as the root node's comment and each move's comment in the
    node of that move (two for one node are joined by a blank line).

    Raises:
        InputError: the text is not well-formed SGF.
        ValueError: a move has no node in the text (not the game's text).
    """
    tree = parse(text, path)[0]
    nodes = tree.main_line()
    node_of: dict[Location, Location] = {
        prop.location: node.location for node in nodes for prop in node.properties
    }
    out = {nodes[0].location: root}
    for move, comment in comments:
        assert move is not None
        where = node_of.get(move.location)
        if where is None:
            raise ValueError(f"no node for {move_text(move)}: not the reviewed game's text")
        out[where] = out[where] + "\n\n" + comment if where in out else comment
    return add_comments(text, out, path)
