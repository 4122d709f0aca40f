"""blokus-solo: a solver for Blokus placement puzzles.

Data flows one way: file (:mod:`solver.formats`) -> position (:mod:`solver.core.position`) ->
placements (:mod:`solver.core.placements`) -> model and search (:mod:`solver.backends`) ->
solution -> checker (:mod:`solver.core.checker`) -> output (:mod:`solver.cli`).
"""
