"""What a solver is asked: a position, the colours it plays, the goal.

The rules on a goal, on monomino-last and on the card goals (squares to cover, colours to
connect) are checked here, once, for every reader (puzzle files, solution files, the
command line) and for problems built in code.

The card goals of Mattel's Blokus Puzzle (2018): *Avoid the Xs* is a board with blocked
squares; *Cover the Stars* asks that the layout cover some squares (``cover``); *Connect
the Blocks* asks that a colour's separate groups of pieces on the board end as one group
joined by corner contact (``connect``). Each applies to the goal place-all only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, cast

from solver.core.pieces import MONOMINO
from solver.core.position import Position
from solver.core.rules import corner_groups
from solver.errors import InputError, located

Goal = Literal["place-all", "max-score"]
GOALS: tuple[str, ...] = ("place-all", "max-score")

#: An answer (docs/glossary.md#answer) to a yes/no question about a problem (can a colour
#: place every piece it has left? can every colour together? can it still end with its
#: monomino?): "yes" (a layout found and accepted by the rule checker), "no" (proven
#: impossible), "unknown" (a time limit ran out first: never a "no").
Answer = Literal["yes", "no", "unknown"]
ANSWERS: tuple[str, ...] = ("yes", "no", "unknown")

#: The answer after one placement of a game (a review's :class:`~solver.tasks.review.Verdict`,
#: the companion's :class:`~solver.companion.follow.JointStep`): an :data:`Answer`, or "done"
#: when nothing is left to place (the question no longer applies).
StepAnswer = Literal["yes", "no", "unknown", "done"]


def check_goal(goal: str) -> Goal:
    """``goal`` as a :data:`Goal`. Raises InputError if it is none of :data:`GOALS`."""
    if goal not in GOALS:
        raise InputError(f"unknown goal {goal!r} (goals: {', '.join(GOALS)})"[:160])
    return cast(Goal, goal)


def check_monomino_last(goal: str, monomino_last: bool) -> None:
    """Raises InputError if monomino-last is asked with a goal other than place-all."""
    if monomino_last and goal != "place-all":
        raise InputError(
            "applies to goal place-all only (max-score counts the +5 bonus "
            "whenever the monomino can be last)"
        )


def check_monomino_left(position: Position, colours: Iterable[str]) -> None:
    """Monomino-last: raises InputError naming the first of ``colours`` that still has
    pieces to place but no monomino among them. A colour with nothing left to place is
    not refused here: its last piece is on the board, and the goal holds iff it is the
    monomino."""
    for colour in colours:
        state = position.colour(colour)
        if state.remaining and MONOMINO not in state.remaining:
            raise InputError(f"{colour} has no monomino left to place last")


def check_goal_kind(goal: str, what: str, asked: bool) -> None:
    """Raises InputError if a card goal (``what``: "cover" or "connect") is asked with a
    goal other than place-all."""
    if asked and goal != "place-all":
        raise InputError(f"{what} applies to goal place-all only, not {goal}")


def check_star(position: Position, colours: Iterable[str], square: int) -> None:
    """A square to cover (a star): on the board, not blocked, and free or already covered
    by a played colour (then the goal holds there already). Raises InputError."""
    board = position.board
    if not 0 <= square < board.size:
        raise InputError(f"square number {square} is off the board")
    if square in board.blocked:
        raise InputError(f"star {board.name(square)} is on a blocked square")
    owner = position.owner.get(square)
    if owner is not None and owner not in colours:
        raise InputError(
            f"star {board.name(square)} is under a piece of {owner}, which is not played"
        )


def check_connect(position: Position, colours: Iterable[str], colour: str) -> None:
    """A colour to connect must be played and have pieces on the board. Raises InputError."""
    if colour not in colours:
        raise InputError(f"{colour} must be played to be connected")
    if not position.colour(colour).squares:
        raise InputError(f"{colour} has no pieces on the board to connect")


def check_connect_groups(position: Position, colour: str) -> None:
    """Input rule of the files: a colour to connect has two or more separate groups of
    pieces on the board (one group is connected already). Raises InputError."""
    state = position.colour(colour)
    if len(corner_groups(position.board, state.placed)) < 2:
        raise InputError(
            f"{colour}'s pieces on the board are one group already: connect needs two or "
            "more groups that no corner joins"
        )


def connect_groups(position: Position, colour: str) -> list[frozenset[int]]:
    """The groups of a colour's pieces on the board (:func:`solver.core.rules.corner_groups`)."""
    return corner_groups(position.board, position.colour(colour).placed)


@dataclass(frozen=True)
class Problem:
    """A solving task.

    Attributes:
        position: the position to start from; colours not in ``colours`` stay frozen.
        colours: the colours the solver places pieces for (each must have a start square or
            squares on the board).
        goal: "place-all" (every remaining piece of every played colour) or "max-score"
            (the layout with the highest total official score of the played colours).
        monomino_last: with "place-all", also require that each played colour can place its
            monomino last (it must be among its remaining pieces).
        name: where the problem came from (a file path), for messages.
        title: a human title (from a puzzle file), may be empty.
        cover: squares the final layout must cover ("Cover the Stars"), each free or
            covered by a played colour already (place-all only).
        connect: played colours whose pieces must end as one group joined by corner
            contact ("Connect the Blocks"; place-all only); each has pieces on the board.

    ``colours``, ``cover`` and ``connect`` may be given as any iterable: they are copied
    at construction, so a list or set changed later does not change the problem.

    Raises:
        InputError: an unknown goal (``where="goal"``), monomino-last with max-score or
            with a played colour that has no monomino left (``where="monomino-last"``), a
            played colour without a start square or squares (``where="colours"``), a
            star off the board, blocked or under a colour not played (``where="cover"``),
            a colour to connect that is not played or has no pieces on the board
            (``where="connect"``), cover or connect with max-score.
    """

    position: Position
    colours: tuple[str, ...]
    goal: Goal = "place-all"
    monomino_last: bool = False
    name: str = ""
    title: str = ""
    cover: frozenset[int] = frozenset()
    connect: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name, kind in (("colours", tuple), ("cover", frozenset), ("connect", tuple)):
            if type(getattr(self, name)) is not kind:  # a list or set given: copied
                object.__setattr__(self, name, kind(getattr(self, name)))
        with located(where="goal"):
            check_goal(self.goal)
        with located(where="monomino-last"):
            check_monomino_last(self.goal, self.monomino_last)
            if self.monomino_last:
                check_monomino_left(self.position, self.colours)
        for c in self.colours:
            state = self.position.colour(c)
            shared = bool(self.position.starting_points)  # Trigon: any free starting point
            if state.start is None and not state.squares and not shared:
                raise InputError(f"colour {c} has no start square", where="colours")
        with located(where="cover"):
            check_goal_kind(self.goal, "cover", bool(self.cover))
            for square in sorted(self.cover):
                check_star(self.position, self.colours, square)
        with located(where="connect"):
            check_goal_kind(self.goal, "connect", bool(self.connect))
            for colour in self.connect:
                check_connect(self.position, self.colours, colour)

    @property
    def stars_left(self) -> frozenset[int]:
        """The squares to cover that are still free."""
        return frozenset(s for s in self.cover if s not in self.position.occupied)

    @property
    def has_card_goals(self) -> bool:
        """Whether the problem asks to cover squares or to connect a colour."""
        return bool(self.cover or self.connect)
