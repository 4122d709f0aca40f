"""File formats: puzzle TOML (with its diagram), Pentobi SGF game records, solution JSON.

Each module reads a file into a :class:`solver.position.Position` or
:class:`solver.problem.Problem` (and writes results back); nothing here solves.
"""
