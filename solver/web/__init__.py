"""``blokus-solo serve``: the solver on a local web page (Starlette, served by uvicorn).

One module per idea: :mod:`~solver.web.app` (the application put together),
:mod:`~solver.web.routes` (the route table: every URL and its handler),
:mod:`~solver.web.handlers` (the handlers, each a plain function of one
:class:`~solver.web.context.Call`), :mod:`~solver.web.store` (the session store),
:mod:`~solver.web.middleware` (the checks every request passes), :mod:`~solver.web.bodies`
(request bodies read), :mod:`~solver.web.session` (one page's game: the problem, the
moves played, undo and redo), :mod:`~solver.web.questions` (the answers, run in a worker
process), :mod:`~solver.web.jobs` (those workers: a limit, cancellation),
:mod:`~solver.web.files` (uploads read by the project's own readers; downloads). The page
itself is ``static/`` (plain HTML, CSS and JavaScript, no build step, nothing from the
network): it draws and asks; every rule and answer comes from the server.
"""
