"""Proofs of "no" for the solo companion's joint question (issue 25), measured on the
positions after 20, 30, 40 placements of person-style games (benchmarks/solo_games.py).

Usage (from the project root):
    python -m research.benchmarks.companion_no positions FOLDER
    python -m research.benchmarks.companion_no METHOD LIMIT FILE.blksgf ...

METHOD: lp (the LP bound, no size cap), lpsub (the LP on each pair and triple of colours),
alone-search / alone-cpsat / alone-auto (each colour alone), pairs-search / pairs-cpsat
(each pair of colours alone, the others' pieces on the board, their remaining pieces
dropped: a relaxation), cpsat-relax (CP-SAT's packing model with lazy connectivity cuts,
no guide penalties, the full linear relaxation), auto / repair / cpsat (the joint solve).
One JSON line per file: answer, seconds, the load at start, a note. Results:
research/notes/companion_attempts.md, "Proofs of no, 20-40 band".
"""

import json
import os
import sys
import time
from itertools import combinations

import solver.api as blokus
from solver.backends.base import SolveOptions
from solver.core.problem import Problem
from solver.tasks.endgame import area_shortfall


def pos_of(path):
    g = blokus.load_game(path)
    return g.position(g.num_placements)


def open_colours(p):
    return tuple(c.name for c in p.colours if c.remaining)


def m_lp(p, cols, limit):
    from solver.backends.bounds.relaxation import lp_bound

    t = time.perf_counter()
    b = lp_bound(p, cols, time_limit=limit, max_variables=None)
    s = time.perf_counter() - t
    if b is None:
        return "unknown", s, "lp stopped"
    return (
        ("no" if b.proves_no else "unknown"),
        s,
        f"most {b.most:.2f} need {b.need} vars {b.variables} rows {b.rows}",
    )


def m_lp_subsets(p, cols, limit):
    t = time.perf_counter()
    notes = []
    for size in (2, 3):
        for grp in combinations(cols, size):
            a, s, note = m_lp(p, grp, limit)
            notes.append(f"{'+'.join(x[0] for x in grp)}:{note.split(' vars')[0]} {s:.1f}s")
            if a == "no":
                return "no", time.perf_counter() - t, "; ".join(notes)
    return "unknown", time.perf_counter() - t, "; ".join(notes)


def _solve(p, grp, backend, limit, workers=1, **kw):
    from solver.tasks.solve import solve

    return solve(
        Problem(p, grp, "place-all", False),
        SolveOptions(backend=backend, time_limit=limit, workers=workers, **kw),
    )


def m_pairs(backend):
    def run(p, cols, limit):
        t = time.perf_counter()
        notes = []
        for grp in combinations(cols, 2):
            r = _solve(p, grp, backend, limit)
            notes.append(f"{'+'.join(x[0] for x in grp)}:{r.status} {r.wall_time:.1f}s")
            if r.status == "infeasible":
                return "no", time.perf_counter() - t, "; ".join(notes)
        return "unknown", time.perf_counter() - t, "; ".join(notes)

    return run


def m_cpsat_relax(p, cols, limit):
    from solver.backends.cpsat import params as cpsat_params
    from solver.backends.cpsat import solving as cpsat_solving

    t = time.perf_counter()
    r = cpsat_solving.solve(
        Problem(p, cols, "place-all", False),
        SolveOptions(time_limit=limit, workers=1, params=cpsat_params.PROOF_PARAMS),
        guide=False,
    )
    s = time.perf_counter() - t
    a = {"infeasible": "no", "solved": "yes"}.get(r.status, "unknown")
    return a, s, f"{r.status} iters {r.stats.get('iterations')} cuts {r.stats.get('cuts')}"


def m_backend(name, workers=2):
    def run(p, cols, limit):
        t = time.perf_counter()
        r = _solve(p, cols, name, limit, workers=workers)
        a = {"infeasible": "no", "solved": "yes"}.get(r.status, "unknown")
        return a, time.perf_counter() - t, f"{r.status} {r.backend}"

    return run


METHODS = {
    "lp": m_lp,
    "lpsub": m_lp_subsets,
    "pairs-search": m_pairs("search"),
    "pairs-cpsat": m_pairs("cpsat"),
    "cpsat-relax": m_cpsat_relax,
    "auto": m_backend("auto"),
    "repair": m_backend("repair"),
    "cpsat": m_backend("cpsat"),
}


def m_alone(backend, workers=1):
    def run(p, cols, limit):
        t = time.perf_counter()
        notes = []
        ans = "unknown"
        for c in cols:
            r = _solve(p, (c,), backend, limit, workers=workers)
            notes.append(f"{c[0]}:{r.status} {r.wall_time:.1f}s")
            if r.status == "infeasible":
                ans = "no"
        return ans, time.perf_counter() - t, "; ".join(notes)

    return run


METHODS["alone-search"] = m_alone("search")
METHODS["alone-cpsat"] = m_alone("cpsat")
METHODS["alone-auto"] = m_alone("auto", 2)


def write_positions(folder: str, seeds=range(1, 11), marks=(20, 30, 40)) -> None:
    """The person games of benchmarks/solo_games.py (these seeds), the positions after
    ``marks`` placements written as FOLDER/sNN-K.blksgf."""
    from benchmarks.solo_games import person_game
    from solver.formats.game import write_sgf

    os.makedirs(folder, exist_ok=True)
    for seed in seeds:
        game = person_game(seed)
        for k in marks:
            text = write_sgf(game.position(k), name=f"person seed {seed} after {k}")
            with open(os.path.join(folder, f"s{seed:02d}-{k}.blksgf"), "w") as f:
                f.write(text)


if __name__ == "__main__":
    if sys.argv[1] == "positions":
        write_positions(sys.argv[2])
        sys.exit(0)
    method, limit = sys.argv[1], float(sys.argv[2])
    for f in sys.argv[3:]:
        p = pos_of(f)
        cols = open_colours(p)
        load = os.getloadavg()[0]
        if area_shortfall(p, cols):
            a, s, note = "no", 0.0, "area"
        else:
            a, s, note = METHODS[method](p, cols, limit)
        rec = dict(
            file=os.path.basename(f),
            method=method,
            limit=limit,
            answer=a,
            seconds=round(s, 2),
            load=round(load, 1),
            note=note,
        )
        print(json.dumps(rec), flush=True)
