"""``blokus-solo gtp``: a GTP engine in Pentobi's dialect (see docs/gtp.md).

Modules, bottom up: :mod:`~solver.gtp.moves` (the one door to the legal move generator),
:mod:`~solver.gtp.protocol` (command lines and responses), :mod:`~solver.gtp.board_text`
(``showboard``'s text), :mod:`~solver.gtp.genmove` (the move an engine plays),
:mod:`~solver.gtp.engine` (the game and its commands).
"""
