"""Finding layouts on the ladder rungs (issue 25, branch find-yes-2): colour decompositions
with the exact search as the unit.

Measured first: on every ladder rung each pair of colours alone (the other two frozen, their
remaining pieces dropped) is solved by the exact search in 0.01-0.04 s, while triples and the
joint four are unknown at 10 s. So the joint problem is split into two pairs: a layout of one
pair (A, B) is sampled (exact search, a random value order), put on the board, and the other
pair (C, D) is solved on what is left within a node budget. A layout found is complete only
if all four colours are placed; it goes through the rule checker (order of play, then
check_layout). The script only ever says yes or unknown.

Usage (from the project root):
    python -m research.benchmarks.ladder_yes METHOD LIMIT SEED puzzles/asym-ladder-k06.toml ...

METHOD: pairs (split 2+2, pairings in turn), pairs-f (the same, the first pair's layout kept
only if C and D each fit alone on the rest). One JSON line per file.
Results: research/notes/companion_attempts.md, "Finding layouts, second round".
"""

import json
import os
import sys
import time
from dataclasses import replace

import numpy as np

from solver.backends.search import exact as S
from solver.backends.search import kernel as core
from solver.backends.search import tables as search_tables
from solver.core.board import Board
from solver.core.checker import check_layout
from solver.core.order import order_of_play
from solver.core.pieces import PIECE_NAMES, PIECES
from solver.core.placements import colour_masks
from solver.core.position import Placement
from solver.core.problem import Problem
from solver.formats.sources import load_source


def with_layout(position, layout):
    for colour, pls in layout.items():
        for pl in pls:
            position = position.with_placement(colour, pl)
    return position


def find(position, colours, seed, budget, late=0):
    """A layout of ``colours`` alone (exact search, value order from ``seed``) within
    ``budget`` nodes: (layout or None, "found" / "none" / "budget", nodes)."""
    problem = Problem(position, tuple(colours), "place-all", False)
    search = search_tables.build(problem, core.FIND, seed=seed)
    if search.infeasible:
        return None, "none", 0
    if late:
        search = search.clone(late, 0)
    code = core.PAUSE
    while code == core.PAUSE and search.nodes < budget:
        code = search.run(min(20000, budget - search.nodes))
    if code == core.FOUND:
        return search_tables.found_layout(search, problem), "found", search.nodes
    return None, ("none" if code == core.DONE else "budget"), search.nodes


PAIRINGS = (
    (("blue", "yellow"), ("red", "green")),
    (("blue", "red"), ("yellow", "green")),
    (("blue", "green"), ("yellow", "red")),
)


def pairs(problem, limit, seed, filter_alone=False, budget2=20000):
    started = time.perf_counter()
    position = problem.position
    rng = np.random.default_rng(seed)
    tries = {"first": 0, "filtered": 0, "second": 0, "second_none": 0, "second_budget": 0}
    i = 0
    while time.perf_counter() - started < limit:
        first, second = PAIRINGS[i % 3]
        if i % 2:
            first, second = second, first
        i += 1
        s1 = int(rng.integers(1, 2**31))
        lay1, how, _ = find(position, first, s1, 50000)
        tries["first"] += 1
        if lay1 is None:
            continue
        rest = with_layout(position, lay1)
        if filter_alone:
            ok = True
            for c in second:
                lay, how, _ = find(rest, (c,), 0, 20000)
                if lay is None:
                    ok = False
                    break
            if not ok:
                tries["filtered"] += 1
                continue
        tries["second"] += 1
        lay2, how, _ = find(rest, second, int(rng.integers(1, 2**31)), budget2)
        if lay2 is None:
            tries["second_" + how] += 1
            continue
        layout = {**lay1, **lay2}
        return "yes", layout, time.perf_counter() - started, tries
    return "unknown", None, time.perf_counter() - started, tries


KING = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def king_distances(position, colour):
    """Steps (king moves through squares the colour may cover) from its attach squares to
    every free square; a large number where it cannot get."""
    board = position.board
    allowed, attach = colour_masks(position, colour)
    far = 10**6
    dist = np.full(board.size, far, dtype=np.int64)
    frontier = [int(s) for s in np.flatnonzero(attach)]
    dist[frontier] = 0
    d = 0
    while frontier:
        d += 1
        nxt = []
        for s in frontier:
            r, c = divmod(s, board.cols)
            for dr, dc in KING:
                rr, cc = r + dr, c + dc
                if 0 <= rr < board.rows and 0 <= cc < board.cols:
                    t = rr * board.cols + cc
                    if allowed[t] and dist[t] == far:
                        dist[t] = d
                        nxt.append(t)
        frontier = nxt
    return dist


def blocked_but(position, keep):
    """The position with every free square outside ``keep`` blocked."""
    board = position.board
    free = set(range(board.size)) - set(position.occupied) - set(board.blocked)
    return replace(position, board=Board(board.rows, board.cols, board.blocked | (free - keep)))


def territories(problem, limit, seed, budget=30000, grow=1.15, noise=0.5, groups=None):
    """Each colour alone in a territory: free squares shared out by weighted king distance
    from each colour's attach squares (plus noise), then the colours solved one at a time
    (exact search, one colour, node budget), each on its own territory plus what the
    colours solved before it left unused. A colour that fails gets a larger weight (its
    territory grows) and the share is drawn again."""
    started = time.perf_counter()
    position = problem.position
    rng = np.random.default_rng(seed)
    groups = groups or tuple((c,) for c in problem.colours)
    colours = groups
    free = np.array(
        [
            s not in position.occupied and s not in position.board.blocked
            for s in range(position.board.size)
        ]
    )
    one = {c: king_distances(position, c).astype(float) for c in problem.colours}
    for c in problem.colours:
        one[c][one[c] >= 10**6] = np.inf
    dist = {g: np.min([one[c] for c in g], axis=0) for g in groups}
    need = {g: sum(position.colour(c).remaining_squares for c in g) for g in groups}
    mean = sum(need.values()) / len(need)
    w = {c: (need[c] / mean) ** 0.5 for c in colours}
    fails = {c: 0 for c in colours}
    notes = {"rounds": 0, "fail": {"+".join(c): 0 for c in colours}, "best_left": None}
    best_left = None
    while time.perf_counter() - started < limit:
        notes["rounds"] += 1
        score = np.stack([dist[c] / w[c] + noise * rng.random(len(free)) for c in colours])
        owner = np.argmin(score, axis=0)
        terr = {c: set(np.flatnonzero(free & (owner == i)).tolist()) for i, c in enumerate(colours)}
        order = sorted(colours, key=lambda c: (-fails[c], rng.random()))
        used = set()
        layout = {}
        left = 0
        for n, c in enumerate(order):
            later = set().union(*(terr[d] for d in order[n + 1 :])) if n + 1 < len(order) else set()
            keep = set(np.flatnonzero(free).tolist()) - used - later
            lay, how, _ = find(blocked_but(position, keep), c, int(rng.integers(1, 2**31)), budget)
            if lay is None:
                fails[c] += 1
                notes["fail"]["+".join(c)] += 1
                w[c] = min(w[c] * grow, 20.0)
                left = sum(need[d] for d in order[n:])
                break
            layout.update(lay)
            for d in c:
                for pl in lay[d]:
                    used |= pl.squares
        else:
            return "yes", layout, time.perf_counter() - started, notes
        if best_left is None or left < best_left:
            best_left = left
            notes["best_left"] = left
    return "unknown", None, time.perf_counter() - started, notes


def negotiate(problem, limit, seed, budget=30000, hist=0.3, base=0.5):
    """Negotiated congestion at the level of colours (PathFinder-style min-conflicts): each
    colour has a layout valid alone; layouts may overlap. A step re-lays one colour in
    conflict, alone, with each square of the other colours' layouts blocked with
    probability 1 - exp(-(base + hist * history)) (history: how many steps the square has
    been overlapped); if that fails, again with half the squares kept blocked, down to
    none. Ends when no square is used twice (all four placed: "yes")."""
    started = time.perf_counter()
    position = problem.position
    rng = np.random.default_rng(seed)
    colours = problem.colours
    nsq = position.board.size
    h = np.zeros(nsq)
    lay = {}
    for c in colours:
        got, how, _ = find(position, (c,), int(rng.integers(1, 2**31)), 10**6)
        if got is None:
            return "unknown", None, time.perf_counter() - started, {"alone": c}
        lay[c] = got[c]
    notes = {"steps": 0, "best_overlap": None, "relay_fail": 0}
    while time.perf_counter() - started < limit:
        use = {c: np.zeros(nsq, dtype=bool) for c in colours}
        for c in colours:
            for pl in lay[c]:
                use[c][list(pl.squares)] = True
        occ = sum(u.astype(int) for u in use.values())
        over = occ > 1
        n_over = int(over.sum())
        if notes["best_overlap"] is None or n_over < notes["best_overlap"]:
            notes["best_overlap"] = n_over
        if n_over == 0:
            return "yes", {c: lay[c] for c in colours}, time.perf_counter() - started, notes
        h[over] += 1
        notes["steps"] += 1
        bad = [c for c in colours if (use[c] & over).any()]
        c = bad[int(rng.integers(len(bad)))]
        others = np.zeros(nsq, dtype=bool)
        for d in colours:
            if d != c:
                others |= use[d]
        p_block = 1 - np.exp(-(base + hist * h))
        forbid = others & (rng.random(nsq) < p_block)
        free = set(range(nsq)) - set(position.occupied) - set(position.board.blocked)
        while True:
            got, how, _ = find(
                blocked_but(position, free - set(np.flatnonzero(forbid).tolist())),
                (c,),
                int(rng.integers(1, 2**31)),
                budget,
            )
            if got is not None:
                lay[c] = got[c]
                break
            notes["relay_fail"] += 1
            if not forbid.any():
                break
            idx = np.flatnonzero(forbid)
            forbid[rng.choice(idx, size=(len(idx) + 1) // 2, replace=False)] = False
    return "unknown", None, time.perf_counter() - started, notes


def nested(problem, limit, seed, tries_b=50, budget=20000):
    """Colour by colour with the exact search as the filter (idea B): a layout of the
    first colour (random value order) is kept only if every pair of the other three still
    fits on the rest (pair search, node budget); then up to ``tries_b`` layouts of the
    second colour, each followed by the last pair solved jointly on what is left."""
    started = time.perf_counter()
    position = problem.position
    rng = np.random.default_rng(seed)
    cols = list(problem.colours)
    notes = {"a": 0, "a_kept": 0, "b": 0, "last_pair_none": 0, "last_pair_budget": 0}
    while time.perf_counter() - started < limit:
        order = [cols[i] for i in rng.permutation(4)]
        a, rest3 = order[0], order[1:]
        lay_a, _, _ = find(position, (a,), int(rng.integers(1, 2**31)), 10**5)
        notes["a"] += 1
        if lay_a is None:
            continue
        pos_a = with_layout(position, lay_a)
        ok = True
        for i in range(3):
            pair = tuple(c for j, c in enumerate(rest3) if j != i)
            got, _, _ = find(pos_a, pair, int(rng.integers(1, 2**31)), budget)
            if got is None:
                ok = False
                break
        if not ok:
            continue
        notes["a_kept"] += 1
        for _ in range(tries_b):
            if time.perf_counter() - started > limit:
                break
            b = rest3[int(rng.integers(3))]
            pair = tuple(c for c in rest3 if c != b)
            lay_b, _, _ = find(pos_a, (b,), int(rng.integers(1, 2**31)), 10**5)
            notes["b"] += 1
            if lay_b is None:
                continue
            lay_cd, how, _ = find(
                with_layout(pos_a, lay_b), pair, int(rng.integers(1, 2**31)), budget
            )
            if lay_cd is not None:
                return "yes", {**lay_a, **lay_b, **lay_cd}, time.perf_counter() - started, notes
            notes["last_pair_" + how] += 1
    return "unknown", None, time.perf_counter() - started, notes


def best_alone(position, colour, seed):
    """Colour alone, the rest frozen: (placements, squares short): a complete layout by
    place-all (value order from ``seed``), else the max-score layout."""
    from solver.backends.base import SolveOptions

    need = position.colour(colour).remaining_squares
    lay, how, _ = find(position, (colour,), seed, 200000)
    if lay is not None:
        return lay[colour], 0
    if how == "budget":
        return None, need
    res = S.solve(
        Problem(position, (colour,), "max-score", False), SolveOptions(time_limit=2, workers=1)
    )
    if res.layout is None:
        return None, need
    got = res.layout.get(colour, [])
    return got, need - sum(len(p.squares) for p in got)


def colour_lns(problem, limit, seed, warm=20.0, worse=0.0):
    """Colour-level large-neighbourhood search from a repair plateau: a step re-lays one
    complete colour d by a fresh complete layout (exact one-colour search, random value
    order) with the other complete colours frozen and the short colours off the board;
    then every short colour is re-solved alone (place-all, else max-score) on what is
    left. Kept if the squares short do not rise. "yes" when nothing is short."""
    import threading

    from solver.backends.repair.repairer import Repairer

    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    position = problem.position
    cols = problem.colours
    run = Repairer(problem, seed, threading.Event(), started + min(warm, limit))
    done = run.run()
    if done is not None:
        return "yes", run.layout(done), time.perf_counter() - started, {"by": "repair"}
    part = run.partial(run.best)
    lay = {c: list(part[c]) for c in cols}
    need = {c: position.colour(c).remaining_squares for c in cols}

    def short(c):
        return need[c] - sum(len(p.squares) for p in lay[c])

    cost = sum(short(c) for c in cols)
    notes = {"warm_cost": cost, "steps": 0, "kept": 0, "best": cost, "relay_fail": 0}
    while time.perf_counter() - started < limit:
        shorts = [c for c in cols if short(c) > 0]
        if not shorts:
            return "yes", lay, time.perf_counter() - started, notes
        full = [c for c in cols if c not in shorts]
        if not full:
            break
        d = full[int(rng.integers(len(full)))]
        notes["steps"] += 1
        frozen = {c: lay[c] for c in full if c != d}
        got, miss = best_alone(with_layout(position, frozen), d, int(rng.integers(1, 2**31)))
        if got is None or miss:
            notes["relay_fail"] += 1
            continue
        new = dict(lay)
        new[d] = got
        for k, c in enumerate(shorts):
            others = {e: new[e] for e in full}
            others.update({e: new[e] for e in shorts[:k]})
            got_c, _ = best_alone(with_layout(position, others), c, int(rng.integers(1, 2**31)))
            new[c] = got_c or []
        new_cost = sum(need[c] - sum(len(p.squares) for p in new[c]) for c in cols)
        if new_cost <= cost or rng.random() < worse:
            lay, cost = new, new_cost
            notes["kept"] += 1
            notes["best"] = min(notes["best"], cost)
    if cost == 0:
        return "yes", lay, time.perf_counter() - started, notes
    return "unknown", None, time.perf_counter() - started, notes


def checked_play(problem, limit, seed, top=6, pairs_below=12, budget=20000):
    """Greedy play with exact forward checks (ideas A and B together): the colours play in
    turn; a colour's candidates are its largest pieces' legal placements, best first by
    the greedy score with the per-piece forward-checking penalty (``ladder_fc``, W = 3);
    the first of the ``top`` best whose placement leaves every colour able to place all
    its remaining pieces alone (exact one-colour search, the rest frozen) is played, and
    once at most ``pairs_below`` pieces are left in all, every pair of colours with pieces
    left must still fit together too. With no such candidate, the one that dooms the
    fewest colours is played and those colours are no longer checked. Restarts until the
    time is up; the best play is reported."""
    from research.benchmarks import ladder_fc as F
    from solver.backends.repair import greedy as G

    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    position = problem.position
    cols = problem.colours
    F.W = 3.0
    notes = {"plays": 0, "checks": 0, "doomed": 0, "best_left": None}
    while time.perf_counter() - started < limit:
        notes["plays"] += 1
        masks = G.Masks(position, cols)
        geo = masks.geo
        left = {
            c: sorted(position.colour(c).remaining, key=lambda p: -PIECES[p].size) for c in cols
        }
        placed = {c: [] for c in cols}
        active = [i for i, c in enumerate(cols) if left[c]]
        alive = set(cols)
        while active and time.perf_counter() - started < limit:
            for i in list(active):
                c = cols[i]
                rows = _ranked(masks, i, left[c], rng, left, F, G)
                chosen, fallback = -1, (None, -1, ())
                for row in rows[:top]:
                    sq = geo.table.squares[row]
                    sq = sq[sq >= 0]
                    piece = PIECE_NAMES[geo.table.piece[row]]
                    pl = Placement(piece, frozenset(int(s) for s in sq))
                    trial = {d: list(v) for d, v in placed.items()}
                    trial[c].append(pl)
                    after = with_layout(position, trial)
                    rest = {d: list(left[d]) for d in cols}
                    rest[c].remove(piece)
                    killed = []
                    for d in cols:
                        if rest[d] and d in alive:
                            notes["checks"] += 1
                            got, how, _ = find(after, (d,), 0, budget)
                            if how == "none":
                                killed.append(d)
                    if not killed and sum(len(v) for v in rest.values()) <= pairs_below:
                        open_ = [d for d in cols if rest[d] and d in alive]
                        for a in range(len(open_)):
                            for b in range(a + 1, len(open_)):
                                notes["checks"] += 1
                                got, how, _ = find(after, (open_[a], open_[b]), 0, budget)
                                if how == "none":
                                    killed.append(open_[a])
                                    break
                            if killed:
                                break
                    if not killed:
                        chosen = row
                        break
                    if fallback[0] is None or len(killed) < fallback[0]:
                        fallback = (len(killed), row, tuple(killed))
                if chosen < 0 and fallback[0] is not None:
                    chosen = fallback[1]  # play it anyway; those it dooms are no longer checked
                    alive.difference_update(fallback[2])
                    notes["doomed"] += len(fallback[2])
                if chosen < 0:
                    active.remove(i)
                    continue
                sq = geo.table.squares[chosen]
                sq = sq[sq >= 0]
                masks.place(i, sq)
                piece = PIECE_NAMES[geo.table.piece[chosen]]
                left[c].remove(piece)
                placed[c].append(Placement(piece, frozenset(int(s) for s in sq)))
                if not left[c]:
                    active.remove(i)
        short = sum(PIECES[p].size for c in cols for p in left[c])
        if notes["best_left"] is None or short < notes["best_left"]:
            notes["best_left"] = short
        if short == 0:
            return "yes", placed, time.perf_counter() - started, notes
    return "unknown", None, time.perf_counter() - started, notes


def _ranked(masks, i, left, rng, lefts, F, G):
    """Legal rows of colour i's largest pieces that have one, best first (greedy score
    with the forward-checking penalty)."""
    geo = masks.geo
    by_size = {}
    for p in dict.fromkeys(left):
        by_size.setdefault(PIECES[p].size, []).append(PIECES[p].index)
    for size in sorted(by_size, reverse=True):
        rows = masks.legal_rows(i, by_size[size])
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
        pen, dead = F._penalty(masks, i, rows, lefts)
        score = score - F.W * pen - 1e9 * dead
        return rows[np.argsort(-score)]
    return np.zeros(0, dtype=np.int64)


def checked(problem, layout):
    """The layout in a legal order of play, through the rule checker: True if it places
    every remaining piece of every colour."""
    ordered = {}
    for colour, pls in layout.items():
        ordered[colour] = order_of_play(problem.position, colour, pls)
        if ordered[colour] is None:
            raise AssertionError(f"{colour}: no legal order of play")
    report = check_layout(problem.position, ordered)
    if report.problem:
        raise AssertionError(report.problem)
    final = report.final
    return all(not final.colour(c).remaining for c in problem.colours), ordered


METHODS = {
    "pairs": lambda pr, lim, seed: pairs(pr, lim, seed),
    "pairs-f": lambda pr, lim, seed: pairs(pr, lim, seed, filter_alone=True),
    "neg": lambda pr, lim, seed: negotiate(pr, lim, seed),
    "nested": lambda pr, lim, seed: nested(pr, lim, seed),
    "colour-lns": lambda pr, lim, seed: colour_lns(pr, lim, seed),
    "checked-play": lambda pr, lim, seed: checked_play(pr, lim, seed),
    "terr": lambda pr, lim, seed: territories(pr, lim, seed),
    "terr-lr": lambda pr, lim, seed: territories(
        pr, lim, seed, groups=(("blue", "green"), ("yellow", "red"))
    ),
    "terr-tb": lambda pr, lim, seed: territories(
        pr, lim, seed, groups=(("blue", "yellow"), ("red", "green"))
    ),
}


def main(argv):
    method, limit, seed, files = argv[0], float(argv[1]), int(argv[2]), argv[3:]
    for path in files:
        load = os.getloadavg()[0]
        problem = load_source(path)
        answer, layout, seconds, notes = METHODS[method](problem, limit, seed)
        if answer == "yes":
            complete, _ = checked(problem, layout)
            if not complete:
                raise AssertionError("a layout that does not place everything")
        print(
            json.dumps(
                {
                    "file": os.path.basename(path),
                    "method": method,
                    "seed": seed,
                    "answer": answer,
                    "seconds": round(seconds, 2),
                    "load": round(load, 2),
                    "notes": notes,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
