"""Region waste (issue 25, an attempt at proofs of "no"): the free squares within some colour's
reach split into edge-connected regions (every new piece lies in one); for each region of at
most 40 squares, the fewest squares any legal fill leaves empty (placements that fit the
position within their colour's reach, no overlap, no shared edge of one colour, each piece
once per colour; no corner support: a relaxation). Their sum above the slack (squares in
reach less squares needed) would prove "no".

Usage: python -m research.benchmarks.companion_regions FILE... Measured:
research/notes/companion_attempts.md.
"""

import sys
import time

import numpy as np

from research.benchmarks.companion_no import open_colours, pos_of
from solver.backends.bounds.relaxation import _placements
from solver.core.placements import reach


def regions(p, cols):
    b = p.board
    occ = p.occupied
    R = np.logical_or.reduce([reach(p, c) for c in cols])
    seen = set()
    out = []
    for s in range(b.size):
        if s in occ or s in seen or not R[s]:
            continue
        comp = [s]
        seen.add(s)
        i = 0
        while i < len(comp):
            for n in b.edge_neighbours[comp[i]]:
                if n not in seen and n not in occ and R[n]:
                    seen.add(n)
                    comp.append(n)
            i += 1
        out.append(frozenset(comp))
    return out, R


def min_waste(p, cols, region, tables, budget=200000):
    b = p.board
    cand = {}  # square -> list of (colour, piece, squares)
    for c in cols:
        t = tables[c]
        for i in range(len(t)):
            pl = t.placement(i)
            if pl.squares <= region:
                for s in pl.squares:
                    cand.setdefault(s, []).append((c, pl.piece, pl.squares))
    order = sorted(region)
    best = [len(region)]
    nodes = [0]

    def edges_ok(c, sq, own):
        for s in sq:
            for n in b.edge_neighbours[s]:
                if n in own.get(c, ()) and n not in sq:
                    return False
        return True

    def dfs(i, covered, own, used, waste):
        nodes[0] += 1
        if nodes[0] > budget:
            raise TimeoutError
        if waste >= best[0]:
            return
        while i < len(order) and order[i] in covered:
            i += 1
        if i == len(order):
            best[0] = waste
            return
        s = order[i]
        for c, piece, sq in cand.get(s, ()):
            if (c, piece) in used or (sq & covered) or min(x for x in sq if x not in covered) != s:
                continue
            if not edges_ok(c, sq, own):
                continue
            own2 = dict(own)
            own2[c] = own.get(c, frozenset()) | sq
            dfs(i + 1, covered | sq, own2, used | {(c, piece)}, waste)
        dfs(i + 1, covered | {s}, own, used, waste + 1)

    try:
        dfs(0, frozenset(), {}, frozenset(), 0)
        return best[0], nodes[0]
    except TimeoutError:
        return None, nodes[0]


if __name__ == "__main__":
    for f in sys.argv[1:]:
        t0 = time.time()
        p = pos_of(f)
        cols = open_colours(p)
        regs, R = regions(p, cols)
        tables = {c: _placements(p, c) for c in cols}
        need = sum(p.colour(c).remaining_squares for c in cols)
        slack = int(R.sum()) - need
        tot = 0
        det = []
        for r in sorted(regs, key=len):
            if len(r) > 40:
                det.append(f"{len(r)}:skip")
                continue
            w, n = min_waste(p, cols, r, tables)
            if w is None:
                det.append(f"{len(r)}:?")
                continue
            tot += w
            det.append(f"{len(r)}:{w}")
        print(
            f.split("/")[-1],
            "slack",
            slack,
            "waste>=",
            tot,
            "NO" if tot > slack else "",
            f"{time.time() - t0:.1f}s",
            " ".join(det),
            flush=True,
        )
