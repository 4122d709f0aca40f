"""blokus-solo: a solver for Blokus placement puzzles.

Data flows one way: file (:mod:`solver.formats`) -> position (:mod:`solver.position`) ->
placements (:mod:`solver.placements`) -> model and search (:mod:`solver.backends`) ->
solution -> checker (:mod:`solver.checker`) -> output (:mod:`solver.cli`).
"""
