"""Tuning settings of the backends: values that change how fast an answer comes, never
which answer (every setting keeps the searches complete and the counts exact).

They travel in :attr:`solver.backends.base.SolveOptions.tuning`, so a caller (a test, a
benchmark) changes them per solve with :func:`dataclasses.replace`. Why these defaults:
``research/notes/search_notes.md``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SearchTuning:
    """Settings of the exact search (:mod:`solver.backends.search.exact`).

    Attributes:
        strong: flood the reach again through the squares some live placement in reach
            covers: 0 off, 1 repeated to a fixpoint, 2 once.
        blocks: cap the area a reach can hold by the 2x2-block bound.
        late: placements of at most this many squares are tried after the exclusion child
            (0: none; small pieces are the most flexible).
        portfolio: (``late``, seed) of the extra copies of the search raced in threads, one
            per worker beyond the first; seed != 0 shuffles equal-size children.
        first_chunk: nodes searched as built before a one-colour search switches to the
            memo (most checks end within them).
        memo_rows: rows of the memo's hash table at first (a power of 2; 32 bytes each);
            a full table doubles, up to
            :data:`solver.backends.search.tables.MEMO_MAX_ROWS` rows.
    """

    strong: int = 2
    blocks: bool = True
    late: int = 0
    portfolio: tuple[tuple[int, int], ...] = ((2, 0), (1, 1), (0, 2))
    first_chunk: int = 2000
    memo_rows: int = 1 << 16


@dataclass(frozen=True)
class AutoTuning:
    """Settings of the "auto" backend (:mod:`solver.backends.auto`).

    Attributes:
        search_alone: seconds the search runs alone before the other backends join it.
        many_pieces: "place-all" with several colours and more pieces left than this:
            after ``search_alone`` the exact search and plain CP-SAT stop and the cores go
            to the methods that can answer such problems (the symmetric reduction where it
            applies, and the repair search); measurements in
            ``research/notes/asymmetric_attempts.md``.
        many_alone: ``search_alone`` for those many-piece problems (the search settles
            only the easiest of them, e.g. a proof by area, and those at once).
        symmetric_cores: with at most this many workers, a many-piece problem with a
            colour symmetry gives them all to the symmetric reduction (CP-SAT's), and the
            repair search runs only if that gives up; with more, the two race and share
            the workers (measured with 2 workers: ``research/notes/asymmetric_attempts.md``,
            turn 5). The domain search (two colours, e.g. Duo, or tight boards) always
            takes every worker.
        symmetric_alone: for those many-piece problems with a colour symmetry (and the
            search kernel ready), seconds the exact search's symmetric reduction runs alone
            on every worker before the repair search joins it (the reduction answers the
            84-piece solo puzzle in about a second: docs/benchmarks.md, issue 35).
        greedy_first: seconds of greedy plays before the search, for "place-all" (0: none);
            at least one play (about 15 ms for one colour's 21 pieces, 90 ms for 84).
        lp_seconds: for the many-piece problems, seconds the LP bound
            (:func:`solver.backends.bounds.relaxation.lp_bound`) may take before anything else runs
            (it proves most "no" answers of joint checks in mid-game in 0.1-1.2 s; 0: never).
        repair_pieces: "place-all" for one colour with at least this many pieces left
            (early in a game): the repair search joins after ``search_alone`` too. There a
            layout usually exists, and the search's depth-first order can miss it for
            minutes (junior-L7-4-s102 after 6 placements, orange, 21 pieces: unknown at
            120 s; the repair search: yes in 0.13 s). Over every 3rd placement of the test
            games, every check past 2 s with 16 pieces or more left was a "yes" or unknown
            (5 checks), and with the repair search they took 1.4-3.2x less time, the
            unknown a "yes" in 3.0 s; with 15 left half were proofs of "no", which the
            repair search cannot give, and it slowed some by taking a core
            (docs/benchmarks.md, issue 35).
    """

    search_alone: float = 2.0
    many_pieces: int = 30
    many_alone: float = 0.5
    symmetric_cores: int = 1
    symmetric_alone: float = 5.0
    greedy_first: float = 0.05
    lp_seconds: float = 5.0
    repair_pieces: int = 16


@dataclass(frozen=True)
class RepairTuning:
    """Settings of the repair search (:mod:`solver.backends.repair.repairer`). NRPA and compiled
    playouts in place of greedy play were measured and not kept (``research/nrpa.py``,
    research/notes/asymmetric_attempts.md, turn 4).

    Attributes:
        restarts: greedy layouts made for a run's first layout (the best is kept).
        warm_start: start from the library layout that fits the position best
            (:func:`solver.library.layouts.best_start`): each new start is the best of guided plays
            towards it (:func:`solver.backends.repair.greedy.guided`) and plain greedy plays;
            see docs/warmstart.md for what it measured.
        compiled: run the compiled repair search (:mod:`solver.backends.repair.compiled`)
            where it applies; off: today's Python one (the reference
            ``benchmarks/repair_kernel.py`` pairs it with).
    """

    restarts: int = 8
    warm_start: bool = False
    compiled: bool = True


@dataclass(frozen=True)
class Tuning:
    """The tuning settings of every backend."""

    search: SearchTuning = SearchTuning()
    auto: AutoTuning = AutoTuning()
    repair: RepairTuning = RepairTuning()
