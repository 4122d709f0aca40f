"""The compiled playouts and NRPA. Move generation is compared with the NumPy
reference (:class:`solver.backends.repair.greedy.Masks`); every layout goes through the rule
checker."""

from __future__ import annotations

import time

import helpers
import numpy as np
import pytest

from research import nrpa
from research import playout_kernel as pk
from solver.backends.base import order_and_check
from solver.backends.repair.greedy import Masks
from solver.core.checker import check_layout
from solver.core.order import order_of_play
from solver.core.pieces import MONOMINO, PIECE_NAMES, PIECES
from solver.formats.puzzle import load_puzzle

PUZZLES = helpers.PUZZLES


def _playout(pl: nrpa.Playouts, seed: int) -> tuple[int, np.ndarray, np.ndarray, int]:
    search = nrpa.Search(pl, seed)
    pk.seed_rng(seed)
    seq_c = np.empty(pk.MAX_SEQ, dtype=np.int64)
    seq_r = np.empty(pk.MAX_SEQ, dtype=np.int64)
    pol = np.zeros(pl.codes)
    score, length = pk.playout(pl.tables, pl.start, pol, search.params, search.stamp, seq_c, seq_r)
    return score, seq_c, seq_r, length


def _reference_moves(problem, pl, seq_c, seq_r, length, c: int) -> set[int]:
    """Colour c's legal rows after a sequence prefix, by the NumPy reference."""
    masks = Masks(problem.position, problem.colours)
    left = {i: list(problem.position.colour(col).remaining) for i, col in enumerate(pl.colours)}
    for k in range(length):
        r = int(seq_r[k])
        if r >= 0:
            i = int(seq_c[k])
            sq = pl.tables[0][r]
            masks.place(i, sq[sq >= 0].astype(np.int64))
            left[i].remove(PIECE_NAMES[pl.tables[2][r]])
    pieces = set(left[c])
    if MONOMINO in pieces and pl.start[6][c] and len(left[c]) > left[c].count(MONOMINO):
        pieces.discard(MONOMINO)  # held back while the colour has other pieces
    return set(masks.legal_rows(c, sorted(PIECES[p].index for p in pieces)).tolist())


@pytest.mark.parametrize("name", ["asym-ladder-k09", "asym-blocked-1", "two-colours-7x7"])
def test_incremental_moves_match_the_reference(name):
    problem = load_puzzle(PUZZLES / f"{name}.toml")
    pl = nrpa.playouts(problem)
    search = nrpa.Search(pl, 0)
    for seed in (1, 2):
        _, seq_c, seq_r, length = _playout(pl, seed)
        for prefix in sorted({0, 1, length // 3, length // 2, length - 1}):
            for c in range(len(pl.colours)):
                got = pk.moves_after(
                    pl.tables, pl.start, search.params, search.stamp, seq_c, seq_r, prefix, c
                )
                assert len(set(got.tolist())) == len(got)
                assert set(got.tolist()) == _reference_moves(problem, pl, seq_c, seq_r, prefix, c)


def test_playout_is_a_legal_partial_layout_with_its_score():
    problem = load_puzzle(PUZZLES / "classic-solo-84.toml")
    pl = nrpa.playouts(problem)
    score, seq_c, seq_r, length = _playout(pl, 3)
    layout = pl.layout(seq_c, seq_r, length)
    assert score == sum(PIECES[p.piece].size for c in layout for p in layout[c])
    assert 250 < score <= pl.target == 356
    ordered = {c: order_of_play(problem.position, c, layout[c]) for c in problem.colours}
    assert all(v is not None for v in ordered.values())
    assert check_layout(problem.position, ordered).legal
    for c in problem.colours:  # the monomino is held back until the colour's last piece
        pieces = [p.piece for p in layout[c]]
        assert MONOMINO not in pieces[:-1]
    # each colour stopped (row -1) at most once, and only with pieces left
    stops = [int(seq_c[k]) for k in range(length) if seq_r[k] < 0]
    assert len(stops) == len(set(stops))


def test_adapt_moves_weight_to_the_sequence():
    """Each step adds alpha to the move played and takes alpha times its probability from
    every legal move: the weights sum to 0, and the sequence becomes likelier."""
    problem = load_puzzle(PUZZLES / "asym-ladder-k06.toml")
    pl = nrpa.playouts(problem)
    search = nrpa.Search(pl, 0)
    _, seq_c, seq_r, length = _playout(pl, 5)
    pol = np.zeros(pl.codes)
    new = pk.adapt(pl.tables, pl.start, pol, search.params, search.stamp, seq_c, seq_r, length, 1.0)
    assert abs(new.sum()) < 1e-6
    args = (pl.tables, pl.start)
    rest = (search.params, search.stamp, seq_c, seq_r, length)
    before, after = pk.log_prob(*args, pol, *rest), pk.log_prob(*args, new, *rest)
    assert after > before + 1.0


@pytest.mark.parametrize("name", ["classic-solo-blue", "asym-ladder-k03", "two-colours-7x7"])
@pytest.mark.parametrize("method", ["nrpa", "nmcs"])
def test_nrpa_and_nmcs_find_checked_layouts(name, method):
    problem = load_puzzle(PUZZLES / f"{name}.toml")
    pl = nrpa.playouts(problem)
    run = nrpa.Search(pl, 0)
    ends = time.perf_counter() + 60
    if method == "nrpa":
        run.run(2, 10, lambda: time.perf_counter() > ends)
    while run.best < pl.target and time.perf_counter() < ends:
        run.nmcs(5)
    assert run.best == pl.target and run.best_seq is not None
    # the rule checker, through order_and_check: raises SolverBug if the layout breaks a
    # rule, leaves a piece or cannot end with the monomino
    order_and_check(problem, pl.layout(*run.best_seq), "nrpa")


def test_best_playout_leaves_what_it_did_not_place():
    problem = load_puzzle(PUZZLES / "two-colours-7x7-crowded.toml")  # no layout places all
    placed, left = nrpa.best_playout(problem, 20, 1)
    for c in problem.colours:
        got = sorted([p.piece for p in placed[c]] + left[c])
        assert got == sorted(problem.position.colour(c).remaining)
    assert any(left.values())
