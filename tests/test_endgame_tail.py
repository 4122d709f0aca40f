"""Slow endgame checks of the real games (issue 35): a "no" and its best match a search by
subsets of the pieces (place-all counts, a path of the search without the component memo
or branch and bound)."""

from dataclasses import replace
from itertools import combinations

import helpers
import pytest

from solver.backends.search.counting import count
from solver.core.pieces import PIECES
from solver.core.problem import Problem
from solver.formats.game import load_game
from solver.tasks.endgame import endgame_check

GAMES = helpers.GAMES


@pytest.mark.parametrize(
    "game, after, colour, best",
    [
        ("classic2-L4-6-4-6-s87.blksgf", 40, "red", -5),  # 11 pieces left, smallest 2 squares
        ("duo-L3-s25.blksgf", 20, "orange", -3),  # 11 left, the monomino among them
    ],
)
def test_a_slow_no_and_its_best_match_a_search_by_subsets(game, after, colour, best):
    """ "no" with the best proven; independently, the colour's remaining pieces less each
    set of pieces of fewer squares than the best loses never all fit (place-all counts),
    and less some set of exactly that many squares they do."""
    position = load_game(GAMES / game).position(after)
    answer = endgame_check(position, colour)
    assert answer.answer == "no" and answer.best is not None
    assert (answer.best.status, answer.best.score) == ("optimal", best)
    state = position.colour(colour)
    pieces = state.remaining

    def fits_without(left_out: tuple[str, ...]) -> bool:
        kept = list(pieces)
        for p in left_out:
            kept.remove(p)
        colours = tuple(
            replace(s, remaining=tuple(kept)) if s is state else s for s in position.colours
        )
        problem = Problem(replace(position, colours=colours), (colour,), "place-all", False)
        return count(problem, limit=1).count > 0

    def sets_of(area: int) -> set[tuple[str, ...]]:
        return {
            tuple(sorted(group))
            for k in range(1, area + 1)
            for group in combinations(pieces, k)
            if sum(PIECES[p].size for p in group) == area
        }

    assert not fits_without(())
    assert not any(fits_without(group) for area in range(1, -best) for group in sets_of(area))
    assert any(fits_without(group) for group in sets_of(-best))
