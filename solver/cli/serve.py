"""``blokus-solo serve``: the solver on a local web page (:mod:`solver.web`)."""

from __future__ import annotations

import errno
import socket

import click

from solver.cli.params import WORKERS
from solver.errors import InputError

# The page (solver.web: Starlette, uvicorn, its worker processes) is imported where the
# server starts, not by every command's --help, which imports this module.

LOCAL = ("127.0.0.1", "localhost", "::1")


def machine_names() -> list[str]:
    """This machine's host name, full name and addresses (IPv6 ones in brackets, as a
    ``Host`` header writes them): the names a page reached over the network comes by."""
    names = {socket.gethostname(), socket.getfqdn()}
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None)
    except OSError:
        infos = []
    names |= {str(info[4][0]) for info in infos}
    return sorted(f"[{n}]" if ":" in n else n for n in names)


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` and ``port``, opened before anything is printed (the
    server is then handed it), so that a port another program holds is one line and exit
    2, with no address printed and no browser opened.

    Raises:
        InputError: the port is taken or needs privileges (``--port``), or ``host`` is
            not an address of this machine (``--host``).
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except OSError as e:
        raise InputError(f"cannot listen on {host}: {e.strerror or e}", where="--host") from None
    sock = socket.socket(family, kind, proto)
    # as uvicorn opens it: a port left in TIME_WAIT by a server just stopped is free
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            why = f"port {port} is taken (another program listens on it): choose another"
        elif e.errno == errno.EACCES:
            why = f"port {port} needs privileges this user lacks: choose one above 1023"
        elif e.errno == errno.EADDRNOTAVAIL:
            raise InputError(f"{host} is not an address of this machine", where="--host") from None
        else:
            why = f"cannot listen on port {port}: {e.strerror or e}"
        raise InputError(why, where="--port") from None
    return sock


@click.command("serve")
@click.argument("files", nargs=-1, metavar="[FILE]...")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Anything but this machine's own lets other machines "
    "play and solve on it (a warning says so).",
)
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="Port."
)
@click.option("--open", "open_", is_flag=True, help="Open the page in the default browser.")
@click.option(
    "--solves",
    type=WORKERS,
    default=None,
    help="Answers computed at once (default: the number of cores); more are refused "
    "with a message.",
)
@click.option(
    "--no-ponder",
    "no_ponder",
    is_flag=True,
    help="Do not let the companion think while the player thinks (pondering: the answer "
    "after a move is then worked out only when asked).",
)
def serve_command(
    files: tuple[str, ...],
    host: str,
    port: int,
    open_: bool,
    solves: int | None,
    no_ponder: bool,
) -> None:
    """Play in a browser: the solo challenge (Classic 84, Duo, one colour, the shipped and
    uploaded puzzles), the puzzle cards, and a game viewer with its review; after every
    move ask whether everything still fits, for a hint, or for a solution. FILEs
    (puzzles, game records, solutions) are offered in the page's Open menu. The page
    works offline; it answers only pages it served itself (Host, Origin and a token)."""
    import uvicorn

    from solver.web.app import create_app
    from solver.web.jobs import warm

    hosts = ["127.0.0.1", "localhost"]
    if host in ("0.0.0.0", "::"):  # every address of this machine: the names it answers by
        hosts += machine_names()
    elif host not in hosts:
        hosts.append(host if ":" not in host else f"[{host}]")
    app = create_app(tuple(files), hosts, port, solves, ponder=not no_ponder)
    sock = listening_socket(host, port)  # a port taken: one line, before any address
    if host not in LOCAL:
        click.echo(
            f"warning: listening on {host}: other machines that reach it can play and run "
            "solves here",
            err=True,
        )
    click.echo("blokus-solo serve: loading the solver (the first run compiles it: 10-30 s)")
    warm()  # before the address is printed: the first question does not wait for it
    shown = host if ":" not in host else f"[{host}]"
    url = f"http://{shown}:{port}/"
    click.echo(f"blokus-solo serve: {url}  (Ctrl-C stops it)")
    if open_:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
