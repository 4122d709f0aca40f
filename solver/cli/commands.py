"""The ``blokus-solo`` command line (Click): the group, its error handling, and the
commands in it (:data:`COMMANDS`). Each family of commands is a module of its own in
:mod:`solver.cli` (its options from :mod:`solver.cli.options`).

Bad input of any kind ends with one line on standard error naming the file and the place,
and exit status 2; no traceback, and no output file is touched.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import IO, Any

import click

from solver.errors import MESSAGE_LIMIT, InputError
from solver.quoting import shown


class BadInput(click.ClickException):
    """Bad input: printed as one line, exit status 2."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {shown(self.format_message(), MESSAGE_LIMIT)}", err=True)


#: every command: its name -> (its module, the click command there). A command's module is
#: imported when the command runs, or when ``--help`` lists every command (Click's lazily
#: loaded subcommands: :meth:`Group.get_command`), so that each module imports what its
#: commands use at its top and no command's start-up pays for the others' modules (the
#: batch runner's, the web page's, the GTP engine's move generator and its numba kernel).
COMMANDS: dict[str, tuple[str, str]] = {
    # solving a puzzle, and checking a position: each colour alone or all together
    "solve": ("solver.cli.solve", "solve_command"),
    "check": ("solver.cli.check", "check_command"),
    "moves": ("solver.cli.check", "moves_command"),
    # a game reviewed move by move
    "review": ("solver.cli.review", "review_command"),
    # a file's position printed or drawn
    "show": ("solver.cli.show", "show_command"),
    # the layouts counted, the exact-cover formulation written out
    "count": ("solver.cli.count", "count_command"),
    "export": ("solver.cli.export", "export_command"),
    # a solution file checked and its claims proved again
    "verify": ("solver.cli.verify", "verify_command"),
    # many files at once, into a results folder; job arrays' shards merged
    "batch": ("solver.cli.batch", "batch_command"),
    "batch-merge": ("solver.cli.batch", "batch_merge_command"),
    # puzzle cards: hints for players, ratings and generation for makers
    "hint": ("solver.cli.cards", "hint_command"),
    "rate": ("solver.cli.cards", "rate_command"),
    "generate": ("solver.cli.cards", "generate_command"),
    # cube-and-conquer
    "cubes": ("solver.cli.cubes", "cubes_command"),
    # move generation counted to a depth
    "perft": ("solver.cli.perft", "perft_command"),
    # the local web page (solver/web/)
    "serve": ("solver.cli.serve", "serve_command"),
    # a GTP engine in Pentobi's dialect (solver/gtp/)
    "gtp": ("solver.cli.gtp", "gtp_command"),
    # games between two GTP engines, refereed by our rules (solver/gtp/match.py)
    "match": ("solver.cli.match", "match_command"),
    # the compiled kernels' cache: where, how big; cleared
    "cache": ("solver.cli.cache", "cache_command"),
}


class Group(click.Group):
    """The commands of :data:`COMMANDS`, each loaded when first asked for. Turns
    InputError into :class:`BadInput`; Ctrl-C into "interrupted" and exit 130; a closed
    output pipe into a quiet exit 141; any other failure into one line and exit 70."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, name = COMMANDS[cmd_name]
            command = getattr(importlib.import_module(module), name)
            assert isinstance(command, click.Command) and command.name == cmd_name
            self.add_command(command)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as e:
            raise BadInput(str(e)) from None
        except click.UsageError as e:
            name = e.ctx.command_path if e.ctx else "blokus-solo"
            raise BadInput(f"{e.format_message()} (see {name} --help)") from None
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.stdout.flush()
            sys.stderr.flush()
            # os._exit: OR-tools may still own native threads that abort the interpreter's
            # normal shutdown; every output file is written atomically, so none is half done
            os._exit(130)
        except BrokenPipeError:  # e.g. | head: stop quietly, as Python's docs advise
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(141)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as e:  # a bug: one line, no traceback (BLOKUS_DEBUG=1 shows it)
            if os.environ.get("BLOKUS_DEBUG"):
                raise
            what = shown(f"{e.__class__.__name__}: {e}", MESSAGE_LIMIT)
            click.echo(f"internal error (please report): {what}", err=True)
            sys.exit(70)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="blokus-solo")
def main() -> None:
    """Solve Blokus placement puzzles: can a colour still place all its pieces, find a
    layout that places all 21 (or 84), count layouts, analyse Pentobi game records."""
