"""pytest's hook file: the fixtures every test file may use (their code is in
:mod:`helpers`, with the shared data and helpers, which tests import from there), and the
numba kernels compiled once before the test workers start."""

import subprocess
import sys

from helpers import ROOT, fresh_first_run  # noqa: F401  (a fixture: pytest finds it here)


def pytest_configure(config):
    """On a fresh checkout, compile the numba kernels (the search's, the domain search's,
    the move generator's) before the tests start, one process each at the same time, and
    cache them on disk: otherwise
    each xdist worker, and each command a test starts before the cache is written,
    compiles them again. Nothing to do when they are cached (the usual run)."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller has done it
        return
    from solver.backends import warmup
    from solver.backends.domain import kernel as domain_kernel
    from solver.backends.search import kernel as search_kernel
    from solver.core import movegen_kernel

    kernels = {
        "search": search_kernel.run,
        "domain": domain_kernel.run,
        "movegen": movegen_kernel.perft,
    }
    missing = [name for name, run in kernels.items() if not warmup.compiled_or_cached(run)]
    compiles = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                f"from solver.backends import warmup; warmup.compile_kernel(({name!r},))",
            ],
            cwd=ROOT,
        )
        for name in missing
    ]
    for process in compiles:
        process.wait()
