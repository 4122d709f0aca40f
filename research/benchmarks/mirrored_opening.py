"""Probe (issue 32, the opening): the Classic position after blue's and yellow's first
placements (two random five-square first placements), made symmetric by mirroring them
onto the colours whose corners a board symmetry sends them to (red and green), then the
orbit search (the symmetric backend) on it. A layout found, with the mirrored placements,
is a layout of the real position (re-checked here by the rule checker).

Usage: python -m research.benchmarks.mirrored_opening [SEED] [SECONDS] [TRIALS]
(research/notes/companion_attempts.md: 2 of 11 found, 9 unknown at 10-30 s).
"""

import random
import sys
import time

from solver.backends.base import SolveOptions
from solver.core.checker import check_layout
from solver.core.placements import legal_moves
from solver.core.position import Placement
from solver.core.problem import Problem
from solver.core.symmetry import board_symmetries
from solver.formats.game import start_position
from solver.tasks.solve import solve


def main() -> None:
    """Run the probe; one line per trial: the pieces, (symmetry, seconds, found)."""
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    limit = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
    empty = start_position("classic")
    perms = board_symmetries(empty.board)
    rows = []
    for trial in range(int(sys.argv[3]) if len(sys.argv) > 3 else 8):
        pos = empty
        firsts = {}
        for colour in ("blue", "yellow"):
            moves = [m for m in legal_moves(pos, colour)]
            big = [m for m in moves if len(m.squares) == 5]
            m = rng.choice(big)
            firsts[colour] = m
            pos = pos.with_placement(colour, m)
        real = pos
        found = None
        for k, perm in enumerate(perms[1:], 1):
            images = {
                c: Placement(firsts[c].piece, frozenset(int(perm[s]) for s in firsts[c].squares))
                for c in firsts
            }
            # which colour's corner each image lands on
            sym = real
            ok = True
            mapping = {}
            for c, img in images.items():
                for d in ("blue", "yellow", "red", "green"):
                    st = empty.colour(d).start
                    if st in img.squares:
                        mapping[c] = d
                if mapping.get(c) in (None, "blue", "yellow"):
                    ok = False
            if not ok or len(set(mapping.values())) != 2:
                continue
            for c, img in images.items():
                sym = sym.with_placement(mapping[c], img)
            problem = Problem(sym, ("blue", "yellow", "red", "green"), "place-all", True)
            t = time.time()
            r = solve(problem, SolveOptions(backend="symmetric", time_limit=limit, seed=trial))
            dt = time.time() - t
            if r.status == "solved":
                layout = {c: list(ps) for c, ps in r.layout.items()}
                for c, img in images.items():
                    layout[mapping[c]] = [img] + layout[mapping[c]]
                rep = check_layout(real, layout)
                all_placed = all(
                    rep.report(c).all_placed for c in ("blue", "yellow", "red", "green")
                )
                found = (k, dt, rep.legal and all_placed)
                break
            else:
                found = (k, dt, r.status)
        rows.append((firsts["blue"].piece, firsts["yellow"].piece, found))
        print(trial, firsts["blue"].piece, firsts["yellow"].piece, found, flush=True)


if __name__ == "__main__":
    main()
