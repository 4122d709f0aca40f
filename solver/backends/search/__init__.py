"""The exact search: a Blokus-aware depth-first search (``exact``: solve, count,
list layouts) and its numba kernel (``kernel``)."""
