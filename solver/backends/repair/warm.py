"""The repair search from a given partial layout: the warm start that following a game
needs (a move off the carried layout, the layout put right around it).

The compiled search (:class:`solver.backends.repair.compiled.Run`) when its kernel may run
and takes the start, else the Python search (:class:`WarmRepairer`). Both start alike:
a colour's held-back monomino is taken out of the start (it is placed last), and with it
the pieces that reached their colour only through it, so the state stays legal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from solver.backends.base import Cancel
from solver.backends.repair import compiled
from solver.backends.repair.greedy import held_back
from solver.backends.repair.repairer import Repairer, RepairState
from solver.core.order import connected_part
from solver.core.pieces import MONOMINO
from solver.core.position import Placement, Position, pieces_less
from solver.core.problem import Problem

#: colour -> placements
Start = Mapping[str, Sequence[Placement]]


class WarmRepairer(Repairer):
    """The Python repair search started from a partial layout instead of greedy play, for
    at most ``steps`` repair steps (None: no limit).

    Args:
        problem: the problem (place-all).
        seed: the run's random seed.
        stop: ends the run when set.
        deadline: the ``time.perf_counter()`` at which the run ends.
        start: colour -> a legal partial layout of its pieces.
        steps: most repair steps, or None.
    """

    def __init__(
        self,
        problem: Problem,
        seed: int,
        stop: Cancel,
        deadline: float,
        start: Start,
        steps: int | None = None,
    ) -> None:
        super().__init__(problem, seed, stop, deadline)
        placed = _without_held(problem.position, self.colours, start)
        left = {c: pieces_less(self.todo[c], [p.piece for p in placed[c]]) for c in self.colours}
        self._warm: RepairState | None = self._finish(RepairState(placed, left))
        self._steps_left = steps

    def construct(self) -> RepairState:
        """The start first; then, after a restart, greedy play as the plain search."""
        warm, self._warm = self._warm, None
        return warm if warm is not None else super().construct()

    def _stopped(self) -> bool:
        # asked once before each repair step (Repairer.run): a budget in steps, not in
        # seconds, does the same work whatever else runs on the machine
        if self._steps_left is not None:
            self._steps_left -= 1
            if self._steps_left < 0:
                return True
        return super()._stopped()


def _without_held(
    position: Position, colours: Sequence[str], start: Start
) -> dict[str, list[Placement]]:
    """``start`` less each held-back monomino and the pieces connected only through it."""
    return {
        c: connected_part(
            position,
            c,
            [p for p in start.get(c, ()) if not (held_back(position, c) and p.piece == MONOMINO)],
        )
        for c in colours
    }


def search_from(
    position: Position,
    colours: Sequence[str],
    start: Start,
    deadline: float,
    seed: int,
    stop: Cancel,
    steps: int | None = None,
) -> tuple[dict[str, list[Placement]] | None, dict[str, list[Placement]] | None, str]:
    """The repair search from ``start`` (a legal partial layout) until ``deadline`` (a
    ``time.perf_counter()`` value), ``stop`` or ``steps`` repair steps, one thread.

    Returns:
        (a complete layout in an order of play, not yet checked by the rule checker, or
        None; the best partial layout found, or None; which search ran: "the compiled
        repair search" or "the repair search").
    """
    square = position.board.square_grid
    if compiled.kernel_ready() or not square:  # (only the kernel reads other geometries)
        warm = _without_held(position, colours, start)
        if not square:  # a colour yet to start: the starting point its warm pieces cover
            problem = Problem(position, tuple(colours), "place-all")
            position = compiled.with_assignment(problem, seed, warm).position
        try:
            run = compiled.Run(position, colours, seed, warm)
        except ValueError:
            if not square:
                run = compiled.Run(position, colours, seed)  # greedy starts instead
                found = run.advance(deadline, stop, steps)
                return run.layout() if found else None, run.best(), "the compiled repair search"
            # the kernel refuses the start: the Python search takes it
        else:
            found = run.advance(deadline, stop, steps)
            layout = run.layout() if found else None
            return layout, run.best(), "the compiled repair search"
    problem = Problem(position, tuple(colours), "place-all")
    search = WarmRepairer(problem, seed, stop, deadline, start, steps)
    state = search.run()
    layout = search.layout(state) if state is not None else None
    best = search.best.placed if search.best is not None else None
    return layout, best, "the repair search"
