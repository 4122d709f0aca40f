"""The solo companion: after every move of a game in progress, can every colour with
pieces left still place all of them at once? Used by the page (``blokus-solo serve``),
``review --together``, ``check --together --follow`` and the Python API.

The words used in code, docs and page:

* *carried layout*: a layout (maybe partial) that answered an earlier position of the
  line of play, carried over the moves made since (:mod:`solver.companion.follow`).
* How an answer came about: *kept* (a carried layout contains the move), *repaired* (the
  pieces the move displaced or cut off were put back), *solved* (the full solvers),
  *inferred* (from a later layout, in a review), *done*.
"""
