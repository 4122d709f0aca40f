"""blokus-solo: a solver for Blokus placement puzzles.

Data flows one way: file (:mod:`solver.formats`) -> position (:mod:`solver.core.position`) ->
placements (:mod:`solver.core.placements`) -> model and search (:mod:`solver.backends`) ->
solution -> checker (:mod:`solver.core.checker`) -> output (:mod:`solver.cli`).
"""

from solver.numba_cache import ensure_writable

# a read-only install without a writable home still gets a cache for the compiled kernels
# (numba would otherwise refuse to import them): solver/numba_cache.py
ensure_writable()
