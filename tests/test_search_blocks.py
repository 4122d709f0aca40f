"""The 2x2-block bound of the exact search: counted with bit masks of the reach's rows, as
the search does, it equals the count block by block (the kernel's fallback) on random
reaches of boards of several shapes, in every partition."""

from __future__ import annotations

import numpy as np
import pytest

from solver.backends.search import exact
from solver.backends.search import kernel as core


@pytest.mark.parametrize("rows, cols", [(20, 20), (14, 14), (3, 48), (7, 18), (1, 60), (60, 5)])
def test_block_bound_by_bits_equals_the_count_block_by_block(rows, cols):
    rng = np.random.default_rng(rows * 100 + cols)
    blk = exact._blocks(rows, cols)
    nsq = rows * cols
    sqr = (np.arange(nsq) // cols).astype(np.int32)
    sqc = (np.arange(nsq) % cols).astype(np.int32)
    rem = np.zeros((1, core.NPIECES), dtype=np.int64)
    rem[0, rng.choice(core.NPIECES, 5, replace=False)] = 1
    pextra = exact._PIECE_EXTRA
    ext = np.zeros((4, core.NPIECES), dtype=np.int64)
    nblocks = int(blk.max()) + 1
    seen = set()
    for density in (0.1, 0.5, 0.9, 1.0):
        for _ in range(20):
            squares = np.flatnonzero(rng.random(nsq) < density).astype(np.int32)
            queue = np.zeros(nsq, dtype=np.int32)
            queue[: len(squares)] = rng.permutation(squares)
            caps = []
            for rmask in (np.zeros(rows, dtype=np.int64), np.zeros(0, dtype=np.int64)):
                st = np.zeros(core.N_SCALARS, dtype=np.int64)
                bstamp = np.zeros(nblocks, dtype=np.int64)
                bcnt = np.zeros(nblocks, dtype=np.int64)
                args = (0, queue, len(squares), rem, pextra, ext, False, blk, bstamp, bcnt, st)
                caps.append(core._block_cap(*args, sqr, sqc, rmask))
            assert caps[0] == caps[1]
            seen.add(caps[0] < len(squares))
    assert (
        seen == {True, False} or rows == 1
    )  # both kinds of reach met (a 1-row board: no block holds 3)
