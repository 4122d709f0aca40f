"""Solving backends: each turns a :class:`solver.problem.Problem` into a
:class:`solver.backends.base.BackendResult`.

``search`` (the Blokus-aware exact search, with its numba kernel in ``search_kernel``),
``cpsat`` (OR-tools CP-SAT), ``symmetric`` (symmetric layouts, layouts only) and ``auto``
(the default: the others raced), listed by name in :mod:`solver.backends.registry`. They
share :mod:`solver.backends.base` (options, results), :mod:`solver.backends.race` (first
proven answer wins) and :mod:`solver.backends.tuning` (speed settings).
:func:`solver.solve.solve` runs one and checks its answer.
"""
