"""What every worker process starts with: the solver imported and its kernels loaded.

The workers of :mod:`solver.web.jobs` are forked from multiprocessing's fork server,
which imports this module once. Importing it loads the numba kernels of the search from
their disk cache (:func:`solver.backends.warmup.compile_kernel` on tiny puzzles), and the
repair search's when cached, so that each question's process starts with them instead of
loading them again (about half a second each time; the repair search's 0.8 s). When the
search's cache is missing (the first run after installing), it is compiled here, once,
at the server's start (10-30 s; :func:`solver.web.jobs.warm` waits for it), rather than
in the first question's process, where it would eat its time limit.
"""

from __future__ import annotations

import solver.web.questions  # noqa: F401  (imported once, inherited by every worker)


def _load_kernels() -> None:
    from solver.backends import warmup

    try:
        warmup.compile_kernel()  # from the disk cache, a fraction of a second
        if warmup.repair_cached():
            # the companion's repair search: loaded here when it is cached (0.8 s a
            # process; a first run compiles it in the background instead of delaying the
            # server's start by a minute: until the server restarts, each question's
            # process loads it on its first repair)
            warmup.compile_kernel(("repair",))
    except Exception:  # a warm-up is an optimisation: a worker still answers without it
        pass
    from solver.companion.book import warm

    warm()  # the opening book read once here, not by each question


_load_kernels()
