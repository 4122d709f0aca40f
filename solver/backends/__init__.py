"""Solving backends: each turns a :class:`solver.core.problem.Problem` into a
:class:`solver.backends.base.BackendResult`.

Every backend, with its one-line description, is listed by name in
:mod:`solver.backends.registry` (the one place that says what they are; ``--help`` and
docs/engines.md are written from it), and ``auto`` (:mod:`solver.backends.auto`) decides
which of them to race. They share :mod:`solver.backends.base` (options, results),
:mod:`solver.backends.race` (first proven answer wins) and :mod:`solver.backends.tuning`
(speed settings).
:func:`solver.tasks.solve.solve` runs one and checks its answer.
"""
