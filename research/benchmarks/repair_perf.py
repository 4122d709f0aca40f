"""Where the compiled repair search spends its time: ``perf`` samples named by numba
function.

numba's machine code lives in anonymous memory, so ``perf report`` shows bare addresses.
This script loads the kernels from numba's cache while keeping each library's object
code, writes ``/tmp/perf-PID.map`` (address, size, symbol of every function in it: the
map ``perf`` reads for code it cannot name), then runs the repair search on the positions
of ``benchmarks/repair_kernel.py`` for ``--seconds``; meanwhile::

    perf record -e cpu-clock -F 4000 -p PID -o perf.data -- sleep 18
    perf report -i perf.data --sort sym

(``PID`` is printed, and written to ``--ready``, once the map is written). This is how
issue 45 found that 70 % of a window repair's time went to ``NRT_incref`` /
``NRT_decref``: the reference counts numba keeps on arrays passed to helper functions
(docs/benchmarks.md, issue 45's attempts). Helpers inlined by LLVM have no symbol of
their own: their time shows under their caller.

Usage:
    python -m research.benchmarks.repair_perf [--eject 0|1] [--seconds 20]
        [--only person-s1] [--ready /tmp/repair_perf.pid]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from numba.core import codegen

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

LIBRARIES: list[Any] = []
_set_object = codegen.CodeLibrary._set_compiled_object


def _keep_object(self: Any, value: bytes) -> None:
    """numba drops a cached library's object code once loaded: keep a copy to name its
    functions."""
    self._perf_object = value
    LIBRARIES.append(self)
    _set_object(self, value)


codegen.CodeLibrary._set_compiled_object = _keep_object  # type: ignore[method-assign]


def write_map() -> int:
    """``/tmp/perf-PID.map`` for every function of the libraries loaded so far; returns
    how many."""
    entries: dict[int, tuple[int, str]] = {}
    for lib in LIBRARIES:
        with tempfile.NamedTemporaryFile(suffix=".o") as f:
            f.write(lib._perf_object)
            f.flush()
            listed = subprocess.run(
                ["nm", "-S", "--defined-only", f.name], capture_output=True, text=True
            ).stdout
        for line in listed.splitlines():
            parts = line.split()
            if len(parts) != 4 or parts[2] not in "tTW":
                continue
            try:
                address = lib.get_pointer_to_function(parts[3])
            except Exception:  # noqa: BLE001 (a symbol the engine does not export)
                continue
            if address:
                entries[address] = (int(parts[1], 16), parts[3][:160])
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for address, (size, name) in sorted(entries.items()):
            out.write(f"{address:x} {size:x} {name}\n")
    return len(entries)


def main() -> int:
    import repair_kernel as bench

    from solver.backends.repair import compiled

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eject", type=float, help="the share of ejections (default: as set)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--only", nargs="*", default=["person-s1"])
    parser.add_argument("--ready", type=Path, default=Path("/tmp/repair_perf.pid"))
    args = parser.parse_args()
    compiled.warm_up()
    cases = bench.cases(
        argparse.Namespace(people=[1], after=10, moves=2, only=args.only, games=None)
    )
    bench.kernel_run(cases[0], 0, 0.5, args.eject)  # every entry point loaded
    print(f"{write_map()} functions named; pid {os.getpid()}", flush=True)
    args.ready.write_text(str(os.getpid()))
    time.sleep(2)
    began = time.perf_counter()
    total: dict[str, float] = {}
    while time.perf_counter() - began < args.seconds:
        for case in cases:
            r = bench.kernel_run(case, int(time.perf_counter()) % 100, 2.0, args.eject)
            for key in ("steps", "ejections", "repairs", "nodes", "seconds"):
                total[key] = total.get(key, 0) + r[key]
    per = {k: round(v / total["seconds"]) for k, v in total.items() if k != "seconds"}
    print(f"per second: {per}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
