"""The 2x2-block bound of the exact search: counted with bit masks of the reach's rows, as
the search does, it equals a count block by block in Python on random reaches of boards of
several shapes, in every partition."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from solver.backends.search import kernel as core
from solver.backends.search import tables as search_tables


def _bound_block_by_block(squares, cols, rem, pextra):
    """The bound from its definition: per partition (dr, dc), each 2x2 block (its rows
    (r + dr) // 2, its columns (c + dc) // 2) holds at most 2 squares of the reach, plus
    each piece left its extra; the smallest over the 4 partitions and the reach's size."""
    extra = sum(int(rem[0, t]) * int(pextra[t]) for t in range(core.NPIECES))
    best = len(squares)
    for dr in (0, 1):
        for dc in (0, 1):
            per_block = Counter(((s // cols + dr) // 2, (s % cols + dc) // 2) for s in squares)
            best = min(best, sum(min(n, 2) for n in per_block.values()) + extra)
    return best


@pytest.mark.parametrize("rows, cols", [(20, 20), (14, 14), (3, 48), (7, 18), (1, 60), (60, 5)])
def test_block_bound_by_bits_equals_the_count_block_by_block(rows, cols):
    rng = np.random.default_rng(rows * 100 + cols)
    rem = np.zeros((1, core.NPIECES), dtype=np.int64)
    rem[0, rng.choice(core.NPIECES, 5, replace=False)] = 1
    pextra = search_tables._PIECE_EXTRA
    ext = np.zeros((4, core.NPIECES), dtype=np.int64)
    seen = set()
    for density in (0.1, 0.5, 0.9, 1.0):
        for _ in range(20):
            squares = np.flatnonzero(rng.random(rows * cols) < density)
            rmask = np.zeros(rows, dtype=np.int64)
            for s in squares:
                rmask[s // cols] |= 1 << int(s % cols)
            got = core._block_cap(0, len(squares), rem, pextra, ext, False, rmask)
            assert got == _bound_block_by_block(squares, cols, rem, pextra)
            seen.add(got < len(squares))
    assert (
        seen == {True, False} or rows == 1
    )  # both kinds of reach met (a 1-row board: no block holds 3)
