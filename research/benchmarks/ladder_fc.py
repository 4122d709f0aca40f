"""Forward checking in greedy play (idea A of issue 25's second round, branch find-yes-2),
as a patch of :mod:`solver.backends.repair.greedy` for the repair search, measured on the ladder.

Each turn of greedy play (the repair search's construction and its put-backs) scores the
legal placements of the colour's largest pieces as before, minus ``W`` times the share of
the live placements each piece still to place (any colour) loses: a placement of colour j
and piece p is live while its squares are free and share no edge with j; a candidate of
colour i kills those covering its squares, and for i also those sharing an edge with it.
A candidate after which some piece still to place has no live placement is refused (score
- 1e9) unless every candidate does that. ``ORDER`` = "fewest": among the colour's pieces,
the one with the fewest live placements goes first (not the largest).

ORDER "size-construct" / "fewest-construct": the same, in the construction only (the
put-backs of ejected pieces play as shipped).

Usage: python -m research.benchmarks.ladder_fc W ORDER LIMIT SEED puzzles/asym-ladder-k06.toml ...
(W = 0 and ORDER = size: the repair search as shipped, the same harness). One thread
(`Repairer.run`). One JSON line per file.

The whole command with the patch: python -m research.benchmarks.ladder_fc cli W ORDER
solve puzzles/asym-ladder-k15.toml --time-limit 60 --seed S (the repair threads that auto
starts play this way).
"""

import json
import os
import sys
import threading
import time

import numpy as np

from solver.backends.repair import greedy as G
from solver.backends.repair import repairer as R
from solver.core.pieces import PIECE_NAMES, PIECES
from solver.core.position import Placement
from solver.formats.sources import load_source

W = 0.0
ORDER = "size"
EXACT_BELOW = 60  # live placements: below this the kill count is exact, else summed per square


def _live(masks, j, piece_index):
    geo = masks.geo
    rows = geo.rows_of[piece_index]
    allowed = np.append(masks.allowed(j), True)
    return rows[allowed[geo.table.squares[rows]].all(axis=1)]


def _penalty(masks, i, rows, lefts):
    """Per candidate row: sum over pieces still to place of (live placements killed /
    live placements), and whether some piece loses all of them."""
    geo = masks.geo
    n = len(masks.free)
    cand = geo.table.squares[rows]  # (R, 5), -1 padded
    kill_other = np.zeros((len(rows), n + 1), dtype=bool)
    kill_other[np.arange(len(rows))[:, None], cand] = True
    kill_other[:, -1] = False
    nb = geo.edge_nb[np.where(cand >= 0, cand, 0)].reshape(len(rows), -1)
    nb = np.where(np.repeat(cand >= 0, 4, axis=1), nb, -1)
    kill_own = kill_other.copy()
    kill_own[np.arange(len(rows))[:, None], nb] = True
    kill_own[:, -1] = False
    pen = np.zeros(len(rows))
    dead = np.zeros(len(rows), dtype=bool)
    for j, c in enumerate(masks.colours):
        kill = kill_own if j == i else kill_other
        for name in dict.fromkeys(lefts.get(c, [])):
            live = _live(masks, j, PIECES[name].index)
            if len(live) == 0:
                continue
            sq = geo.table.squares[live]
            if len(live) <= EXACT_BELOW:
                hit = kill[:, sq].any(axis=2).sum(axis=1)
            else:
                per = np.bincount(sq[sq >= 0], minlength=n + 1)
                per[-1] = 0
                hit = np.minimum((kill * per).sum(axis=1), len(live))
            pen += hit / len(live)
            dead |= hit >= len(live)
    return pen, dead


def choose(masks, i, left, rng, lefts, guide=None):
    geo = masks.geo
    groups = {}
    for p in dict.fromkeys(left):
        key = PIECES[p].size if ORDER == "size" else 0
        groups.setdefault(key, []).append(PIECES[p].index)
    if ORDER == "fewest":
        counts = {p: len(_live(masks, i, p)) for p in groups[0]}
        order = sorted(counts, key=lambda p: (counts[p], -PIECES[PIECE_NAMES[p]].size))
        seq = [[p] for p in order]
    else:
        seq = [groups[s] for s in sorted(groups, reverse=True)]
    for pieces in seq:
        rows = masks.legal_rows(i, pieces)
        if len(rows) == 0:
            continue
        allowed = np.append(masks.allowed(i) & (masks.corner[i] == 0), False)
        gain = allowed[geo.corner[rows]].sum(axis=1)
        others = np.zeros(len(masks.free) + 1, dtype=np.int64)
        for j in range(len(masks.colours)):
            if j != i:
                others[:-1] += masks.attach(j)
        loss = others[geo.table.squares[rows]].sum(axis=1)
        score = gain - G.BLOCK * loss + G.NOISE * rng.gumbel(size=len(rows))
        if W > 0:
            rest = dict(lefts)
            c = masks.colours[i]
            mine = list(rest.get(c, []))
            rest[c] = mine  # the piece being placed is among them; its own loss is uniform
            pen, dead = _penalty(masks, i, rows, rest)
            score = score - W * pen - 1e9 * dead
        if guide is not None:
            score += G.GUIDE * guide[0][geo.corner[rows]].sum(axis=1)
            score -= G.GUIDE * guide[1][geo.table.squares[rows]].sum(axis=1)
        return int(rows[int(np.argmax(score))])
    return -1


ONLY_CONSTRUCT = False
_IN_CONSTRUCT = [False]


def greedy_fc(position, colours, todo, rng, masks=None):
    if ONLY_CONSTRUCT and not _IN_CONSTRUCT[0]:
        return G.greedy(position, colours, todo, rng, masks)
    masks = G.Masks(position, colours) if masks is None else masks
    geo = masks.geo
    left = {c: sorted(todo.get(c, []), key=lambda p: -PIECES[p].size) for c in colours}
    placed = {c: [] for c in colours}
    active = [i for i, c in enumerate(colours) if left[c]]
    while active:
        for i in list(active):
            c = colours[i]
            row = choose(masks, i, left[c], rng, left)
            if row < 0:
                active.remove(i)
                continue
            sq = geo.table.squares[row]
            sq = sq[sq >= 0]
            masks.place(i, sq)
            piece = PIECE_NAMES[geo.table.piece[row]]
            left[c].remove(piece)
            placed[c].append(Placement(piece, frozenset(int(s) for s in sq)))
            if not left[c]:
                active.remove(i)
    return placed, left


def patch(w, order):
    """Put forward-checking greedy play into the repair search (module state)."""
    global W, ORDER, ONLY_CONSTRUCT
    W = w
    ONLY_CONSTRUCT = order.endswith("-construct")
    ORDER = order.removesuffix("-construct")
    if W > 0 or ORDER != "size":
        R.greedy = greedy_fc
        construct = R.Repairer.construct

        def patched(self):
            _IN_CONSTRUCT[0] = True
            try:
                return construct(self)
            finally:
                _IN_CONSTRUCT[0] = False

        R.Repairer.construct = patched


def main(argv):
    if argv[0] == "cli":  # the whole command with the patch: cli W ORDER blokus-solo args
        patch(float(argv[1]), argv[2])
        from solver.cli.commands import main as cli

        sys.exit(cli(argv[3:]))
    w, order, limit, seed, files = float(argv[0]), argv[1], float(argv[2]), int(argv[3]), argv[4:]
    patch(w, order)
    for path in files:
        load = os.getloadavg()[0]
        problem = load_source(path)
        t = time.perf_counter()
        run = R.Repairer(problem, seed, threading.Event(), t + limit)
        state = run.run()
        seconds = time.perf_counter() - t
        answer = "unknown"
        if state is not None:
            from research.benchmarks.ladder_yes import checked

            complete, _ = checked(problem, run.layout(state))
            assert complete
            answer = "yes"
        best = run.best
        print(
            json.dumps(
                {
                    "file": os.path.basename(path),
                    "W": W,
                    "order": ORDER + ("-construct" if ONLY_CONSTRUCT else ""),
                    "seed": seed,
                    "answer": answer,
                    "seconds": round(seconds, 2),
                    "best": None if best is None else best.cost,
                    "left": None if best is None else {c: v for c, v in best.left.items() if v},
                    "load": round(load, 2),
                    "stats": run.stats,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
