"""The handlers of the page's routes, by what they do: :mod:`~.page` (the page itself),
:mod:`~.play` (the game: state, moves, undo, the game viewer's steps), :mod:`~.files`
(the catalogue, opening, uploads, saving), :mod:`~.asking` (questions: ask, poll,
cancel) and :mod:`~.companion` (the solo companion: the player's focus, the marks of a
piece's placements). The route table that names them is :mod:`solver.web.routes`; each API handler
takes a :class:`solver.web.context.Call` and returns a response, so that it can be
called alone.
"""
