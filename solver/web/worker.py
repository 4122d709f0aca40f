"""What every worker process starts with: the solver imported and its kernels loaded.

The workers of :mod:`solver.web.jobs` are forked from multiprocessing's fork server,
which imports this module once. Importing it loads the numba kernels of the search from
their disk cache (:func:`solver.backends.warmup.compile_kernel` on tiny puzzles), so that
each question's process starts with them instead of loading them again (about half a
second each time). When the search kernel's cache is missing, nothing is compiled here:
the first question compiles in its own process, as a library call does.
"""

from __future__ import annotations

import solver.web.questions  # noqa: F401  (imported once, inherited by every worker)


def _load_kernels() -> None:
    from solver.backends import warmup

    try:
        if warmup.kernel_ready():  # cached on disk: loading takes a fraction of a second
            warmup.compile_kernel()
    except Exception:  # a warm-up is an optimisation: a worker still answers without it
        pass


_load_kernels()
