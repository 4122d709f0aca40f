"""blokus-solo: a solver for Blokus placement puzzles.

Data flows one way: file (:mod:`solver.formats`) -> position (:mod:`solver.core.position`) ->
placements (:mod:`solver.core.placements`) -> model and search (:mod:`solver.backends`) ->
solution -> checker (:mod:`solver.core.checker`) -> output (:mod:`solver.cli`).
"""

from solver.numba_cache import choose_folder

# the compiled kernels' cache goes to the user's cache folder, never beside the sources in
# site-packages (pip uninstall would leave it behind), unless NUMBA_CACHE_DIR says where:
# solver/numba_cache.py
choose_folder()
