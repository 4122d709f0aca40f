"""The companion's pool, pondering and the game-in-progress object (solver.companion: pool.py,
ponder.py, live.py), on the Duo game that follows a verified layout."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from solver.api import Companion, Focus
from solver.companion.layouts import checked
from solver.companion.ponder import candidates, ponder
from solver.companion.pool import Pool, pool_of
from solver.core.checker import check_layout
from solver.core.placements import legal_moves
from solver.core.position import Placement
from solver.errors import InputError
from solver.formats.game import load_game

LAYOUT_GAME = Path(__file__).parent / "data" / "follow" / "duo-both-layout.blksgf"


def _rest(game, k):
    """The placements of the record after placement k, per colour: a layout of position k."""
    return {
        c: list(game.final.colour(c).placed[len(game.position(k).colour(c).placed) :])
        for c in game.variant.colours
    }


def _places_all(position, layout) -> bool:
    report = check_layout(position, {c: list(v) for c, v in layout.items()})
    return report.legal and all(r.all_placed for r in report.colours)


def test_the_pool_answers_a_move_its_layouts_contain_and_refuses_a_wrong_layout():
    game = load_game(LAYOUT_GAME)
    k = 20
    position = game.position(k)
    rest = _rest(game, k)
    pool = pool_of(position, [rest], "known")
    assert len(pool) == 1
    # a layout missing a piece, or a piece moved onto another, is refused by the checker
    short = {c: v[:-1] if c == "purple" else v for c, v in rest.items()}
    assert not pool.add(short, "test") and len(pool) == 1
    move = game.moves[k]
    assert pool.status(move.colour, move.placement) == "keeps"
    after = pool.after(move.colour, move.placement, game.position(k + 1))
    assert len(after) == 1
    assert _places_all(game.position(k + 1), after.layouts[0])
    # a legal move the layout does not contain is not known either way
    off = next(m for m in legal_moves(position, move.colour) if m not in rest[move.colour])
    assert pool.status(move.colour, off) == "unknown"
    assert len(pool.after(move.colour, off, position.with_placement(move.colour, off))) == 0
    # carried over it, the nearest layout loses the pieces the move displaced or cut off
    (carried, lost), *_ = pool.nearest(move.colour, off, position.with_placement(move.colour, off))
    assert lost >= 1
    assert sum(len(v) for v in carried.values()) == sum(len(v) for v in rest.values()) - lost


def test_a_game_in_progress_is_answered_from_its_pool_after_each_move():
    game = load_game(LAYOUT_GAME)
    k = 24
    companion = Companion(game.position(k), time_limit=5, known=[_rest(game, k)])
    first = companion.answer()
    assert (first.answer, first.how) == ("yes", "pool")
    for j in range(k, k + 3):
        move = game.moves[j]
        companion.play(move.placement, move.colour)
        step = companion.answer()
        assert (step.answer, step.how) == ("yes", "pool")
        assert _places_all(game.position(j + 1), step.layout)
    assert companion.position == game.position(k + 3)


def test_a_move_by_its_squares_and_an_illegal_move():
    game = load_game(LAYOUT_GAME)
    companion = Companion(game.position(10), time_limit=1, book=False)
    move = game.moves[10]
    names = ",".join(game.position(10).board.names(move.placement.squares))
    assert companion.play(f"{move.colour}:{names}") == move.placement
    assert companion.moves == [(move.colour, move.placement)]
    taken = next(iter(game.position(11).colour(move.colour).placed))
    with pytest.raises(InputError):
        companion.play(taken, "orange")


@pytest.mark.slow
def test_pondering_answers_candidates_with_checked_layouts_or_proofs():
    game = load_game(LAYOUT_GAME)
    k = 26  # 16 pieces left: a repair takes milliseconds to a second
    position = game.position(k)
    colour = game.moves[k].colour
    pool = Pool(position)
    assert pool.add(_rest(game, k), "known")
    focus = Focus(colour, game.moves[k].placement.piece)
    order = candidates(position, colour, focus)
    assert {m.piece for m in order[:3]} == {focus.piece}
    report = ponder(pool, colour, 6.0, focus)
    assert report.tried >= 3
    assert report.kept + report.lost >= 1
    for layout in pool.layouts:  # every layout of the pool is one of the position's
        assert checked(position, layout) is not None
    for m in legal_moves(position, colour):
        if pool.status(colour, m) == "keeps":
            layout = pool.layouts[pool.containing(colour, m)]
            rest = {c: [p for p in v if p != m] for c, v in layout.items()}
            assert _places_all(position.with_placement(colour, m), rest)
    # a move pondered "yes" is answered from the pool the moment it is played
    kept = next(m for m in legal_moves(position, colour) if pool.status(colour, m) == "keeps")
    companion = Companion(position, time_limit=5, known=pool.layouts)
    companion.play(kept, colour)
    assert companion.answer().how == "pool"


def test_the_placement_under_the_mouse_is_tried_while_it_stays_there(monkeypatch):
    """Pondering's order (ponder.ponder): the hovered placement first on every try while
    it is unanswered, each try at most HOVER_STEPS a thread; moved away, the other
    candidates get their turns, each at most MAX_TRIES times."""
    import solver.companion.ponder as ponder_module

    game = load_game(LAYOUT_GAME)
    k = 26
    position = game.position(k)
    colour = game.moves[k].colour
    pool = Pool(position)
    assert pool.add(_rest(game, k), "known")
    legal = [m for m in legal_moves(position, colour) if pool.status(colour, m) == "unknown"]
    hovered = legal[len(legal) // 2]
    calls: list[tuple[Placement, int]] = []

    def unknown(pool, colour, move, deadline, steps, seed=0, stop=None):
        calls.append((move, steps))
        return "unknown"

    monkeypatch.setattr(ponder_module, "answer_candidate", unknown)
    focus = Focus(colour, hovered.piece, hovered)
    state = {"focus": focus}
    ponder(pool, colour, 30.0, lambda: state["focus"] if len(calls) < 12 else Focus(colour))
    first = calls[:12]
    assert [m for m, _ in first] == [hovered] * 12
    steps = [n for _, n in first]
    assert steps[0] == ponder_module.CANDIDATE_STEPS
    assert max(steps) == ponder_module.HOVER_STEPS
    rest = calls[12:]
    assert rest and all(m != hovered for m, _ in rest)
    tries: dict[Placement, int] = {}
    for m, _ in rest:
        tries[m] = tries.get(m, 0) + 1
    assert max(tries.values()) == ponder_module.MAX_TRIES
    open_ = {m for m in candidates(position, colour) if pool.status(colour, m) == "unknown"}
    assert set(tries) == open_ - {hovered}


def test_the_hint_is_a_legal_move_of_a_verified_layout():
    game = load_game(LAYOUT_GAME)
    companion = Companion(game.position(30), time_limit=2, known=[_rest(game, 30)])
    colour, placement = companion.hint("orange")
    assert colour == "orange" and isinstance(placement, Placement)
    assert companion.status(colour, placement) == "keeps"


@pytest.mark.parametrize("corner", ["a5", "e5", "a1", "e1"])
def test_a_repair_start_whose_pieces_hang_from_the_monomino_stays_legal(corner):
    """The repair search holds each monomino back for the end, so a start layout (e.g. a
    pool's layout carried over a move) with a piece reaching its colour only through the
    monomino must not keep that piece: it would be an island (found in pondering, where the
    rule checker refused such a layout). On 5x5, the domino on the start corner, the
    monomino diagonal to it, the I3 diagonal to the monomino only: the search's layout is
    checked, placing all three."""
    from solver.companion.tiers import repair_search
    from solver.formats.puzzle import parse_puzzle

    text = (
        'variant = "custom"\nsize = [5, 5]\ncolours = ["blue"]\n[pieces]\n'
        f'blue = ["1", "2", "I3"]\n[start]\nblue = "{corner}"\n'
    )
    position = parse_puzzle(text, "t.toml").position
    # the shapes for the a5 corner, mirrored to the others (a <-> e, 5 <-> 1)
    flip_col = corner[0] == "e"
    flip_row = corner[1] == "1"

    def squares(*names: str) -> frozenset[int]:
        out = set()
        for name in names:
            col, row = name[0], int(name[1])
            col = chr(ord("a") + ord("e") - ord(col)) if flip_col else col
            row = 6 - row if flip_row else row
            out.add(position.board.parse(f"{col}{row}"))
        return frozenset(out)

    start = {
        "blue": [
            Placement("2", squares("a5", "b5")),
            Placement("1", squares("c4")),
            Placement("I3", squares("d3", "d2", "d1")),
        ]
    }
    found, _ = repair_search(position, start, time.perf_counter() + 5, steps=50)
    assert found is not None
    report = check_layout(position, {c: list(ps) for c, ps in found.items()})
    assert report.legal and report.report("blue").all_placed


def test_after_the_last_placement_the_answer_is_done():
    """Issue 41 item 6: with a pool whose layout contains the last move, answer() said
    "yes" (how "pool") after the last placement, where docs/companion.md promises "done"
    (no colour has pieces left); so did the last answer of a companion whose move before
    was never asked about."""
    game = load_game(LAYOUT_GAME)
    n = game.num_placements
    assert not any(c.remaining for c in game.final.colours)
    for asked in (True, False):
        k = n - 2
        companion = Companion(game.position(k), time_limit=5, known=[_rest(game, k)])
        assert companion.answer().answer == "yes"
        for j in range(k, n):
            companion.play(game.moves[j].placement, game.moves[j].colour)
            if asked or j == n - 1:
                step = companion.answer()
        assert (step.answer, step.how, step.pieces_left) == ("done", "done", 0)
        assert step.move is not None and step.move.placement == game.moves[n - 1].placement
        assert companion.to_move is None and companion.answer() is step


def test_repair_from_on_two_workers_finds_a_checked_layout_and_counts_its_runs():
    """Two threads of the compiled repair search from a carried layout (the Duo record's
    layout after 12 placements, its pieces of 6 placements later taken off): the layout
    found places every piece and passes the rule checker; ``max_runs`` bounds the runs of
    both workers together."""
    from solver.companion.tiers import repair_from

    game = load_game(LAYOUT_GAME)
    position = game.position(12)
    rest = _rest(game, 12)
    start = {c: pieces[:-3] for c, pieces in rest.items()}  # the last 3 of each colour off
    found, partial, runs = repair_from(position, [start], time.perf_counter() + 30, workers=2)
    assert found is not None and runs >= 1
    assert _places_all(position, found)
    assert sum(len(v) for v in partial.values()) == sum(
        len(position.colour(c).remaining) for c in position.colour_names
    )
    _, _, one = repair_from(position, [start], time.perf_counter() + 30, max_runs=1, workers=2)
    assert one == 1
