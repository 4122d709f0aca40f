"""Solving backends: each turns a :class:`solver.core.problem.Problem` into a
:class:`solver.backends.base.BackendResult`.

A package per engine, apart from each other, each behind its front door (its
``__init__``: :mod:`solver.backends.face`): ``search/`` (the exact search and its kernel),
``domain/`` (the fundamental-domain search and its kernel), ``cpsat/`` (the CP-SAT model,
symmetric layouts on it, the parameters that keep a proof), ``repair/`` (greedy play, then
repairs), ``symmetric/`` (the ``symmetric`` backend: the search's or CP-SAT's reduction to
the orbits of a board symmetry) and ``bounds/`` (the LP bound). Every engine has one
record in :mod:`solver.backends.registry` (the one place that says what they are and what
each can do; ``--help``, ``auto`` and docs/engines.md read it), and ``auto``
(:mod:`solver.backends.auto`) decides which of them to race. They share
:mod:`solver.backends.base` (options, results, the record's type),
:mod:`solver.backends.race` (first proven answer wins), :mod:`solver.backends.driver` (the
kernels' sliced run), :mod:`solver.backends.warmup` (the first run's background compile)
and :mod:`solver.backends.tuning` (speed settings).
:func:`solver.tasks.solve.solve` runs one and checks its answer.
"""
