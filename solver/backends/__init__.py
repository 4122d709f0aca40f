"""Solving backends: each turns a :class:`solver.core.problem.Problem` into a
:class:`solver.backends.base.BackendResult`.

A package per engine, apart from each other: ``search/`` (the exact search and its
kernel), ``domain/`` (the fundamental-domain search and its kernel), ``cpsat/`` (the CP-SAT
model, symmetric layouts on it, the parameters that keep a proof), ``repair/`` (greedy
play, then repairs) and ``bounds/`` (the LP bound). Every backend, with its one-line
description, is listed by name in :mod:`solver.backends.registry` (the one place that says
what they are; ``--help`` and docs/engines.md are written from it; the entries are in
:mod:`solver.backends.engines`), and ``auto`` (:mod:`solver.backends.auto`) decides which of
them to race. They share :mod:`solver.backends.base` (options, results),
:mod:`solver.backends.race` (first proven answer wins), :mod:`solver.backends.driver` (the
kernels' sliced run), :mod:`solver.backends.warmup` (the first run's background compile)
and :mod:`solver.backends.tuning` (speed settings).
:func:`solver.tasks.solve.solve` runs one and checks its answer.
"""
