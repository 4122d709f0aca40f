"""Batch runs: many puzzles and game records in, one trustworthy results table out.

Data flows one way: paths -> items (:mod:`.items`: the files found, their content and hash,
the game positions to check) -> tasks run by worker processes or a Dask cluster
(:mod:`.work` does one item as ``solve`` or ``check`` would, :mod:`.pools` runs them) ->
results store (:mod:`.store`: ``results.jsonl`` and the solution files, crash-safe) ->
summary (:mod:`.report`: ``summary.csv`` and ``README.md``). :mod:`.runner` ties them
together for the ``blokus-solo batch`` command (:func:`solver.batch.runner.run_batch`).
"""
