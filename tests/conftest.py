"""pytest's hook file: the fixtures every test file may use (their code is in
:mod:`helpers`, with the shared data and helpers, which tests import from there), and the
numba kernels compiled once before the test workers start."""

import signal
import subprocess
import sys

from helpers import ROOT, fresh_first_run  # noqa: F401  (a fixture: pytest finds it here)

# A suite started in the background by a shell without job control (`cmd &` in a script,
# `nohup`) inherits SIGINT ignored, and so would every command a test starts: the tests of
# Ctrl-C (tests/test_perft.py, tests/test_batch.py) need it delivered, as in a terminal.
# A handler set here is reset to the default in the children when they start.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config):
    """On a fresh checkout, compile the numba kernels (the search's, the domain search's,
    the move generator's, the repair search's) before the tests start, one process each at the same time, and
    cache them on disk: otherwise
    each xdist worker, and each command a test starts before the cache is written,
    compiles them again. Nothing to do when they are cached (the usual run)."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller has done it
        return
    from solver.backends import warmup
    from solver.backends.domain import kernel as domain_kernel
    from solver.backends.repair import kernel as repair_kernel
    from solver.backends.search import kernel as search_kernel
    from solver.core import movegen_kernel

    kernels = {
        "search": search_kernel.run,
        "domain": domain_kernel.run,
        "movegen": movegen_kernel.perft,
        "repair": repair_kernel.run,
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


def pytest_collection_modifyitems(session, config, items):
    """The longest first: the modules with the most tests marked slow before the others,
    and in each module its slow tests before the rest (otherwise in file order). With
    ``-n 2 --dist worksteal`` an idle worker takes tests from the end of the busy one's
    queue, so the run then ends on short tests, not on a long one started last (a 50-70 s
    CP-SAT proof that began near the end made the whole suite wait for it)."""
    from collections import Counter

    def slow(item) -> bool:
        return item.get_closest_marker("slow") is not None

    slow_in = Counter(item.module.__name__ for item in items if slow(item))
    first_seen = {name: k for k, name in enumerate(dict.fromkeys(i.module.__name__ for i in items))}
    items.sort(
        key=lambda item: (
            -slow_in[item.module.__name__],
            first_seen[item.module.__name__],
            not slow(item),
        )
    )
