"""Solving backends: each turns a :class:`solver.problem.Problem` into a backend result.

``search`` (the Blokus-aware exact search, with its numba kernel in ``search_kernel``),
``cpsat`` (OR-tools CP-SAT), ``symmetric`` (symmetric layouts, layouts only) and ``auto``
(the default: the others raced). :mod:`solver.solve` dispatches to them and checks every
answer.
"""
