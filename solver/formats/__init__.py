"""File formats: puzzle TOML (with its diagram), Pentobi SGF game records, solution JSON.

Each module reads a file into a :class:`solver.core.position.Position` or
:class:`solver.core.problem.Problem` (and writes results back); nothing here solves.
"""
