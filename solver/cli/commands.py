"""The ``blokus-solo`` command line (Click): the group, its error handling, and the
commands attached to it. Each family of commands is a module of its own in
:mod:`solver.cli` (its options from :mod:`solver.cli.options`).

Bad input of any kind ends with one line on standard error naming the file and the place,
and exit status 2; no traceback, and no output file is touched.
"""

from __future__ import annotations

import os
import sys
from typing import IO, Any

import click

from solver.cli.batch import batch_command, batch_merge_command
from solver.cli.cards import generate_command, hint_command, rate_command
from solver.cli.check import check_command, moves_command
from solver.cli.count import count_command
from solver.cli.cubes import cubes_command
from solver.cli.export import export_command
from solver.cli.gtp import gtp_command
from solver.cli.perft import perft_command
from solver.cli.review import review_command
from solver.cli.serve import serve_command
from solver.cli.show import show_command
from solver.cli.solve import solve_command
from solver.cli.verify import verify_command
from solver.errors import MESSAGE_LIMIT, InputError
from solver.quoting import shown


class BadInput(click.ClickException):
    """Bad input: printed as one line, exit status 2."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {shown(self.format_message(), MESSAGE_LIMIT)}", err=True)


class Group(click.Group):
    """Turns InputError into :class:`BadInput`; Ctrl-C into "interrupted" and exit 130; a
    closed output pipe into a quiet exit 141; any other failure into one line and exit 70."""

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


# solving a puzzle, and checking a position: each colour alone or all together
main.add_command(solve_command)  # solver/cli/solve.py
main.add_command(check_command)  # solver/cli/check.py
main.add_command(moves_command)  # solver/cli/check.py
# a game reviewed move by move (solver/cli/review.py)
main.add_command(review_command)
# a file's position printed or drawn (solver/cli/show.py)
main.add_command(show_command)
# the layouts counted, the exact-cover formulation written out
main.add_command(count_command)  # solver/cli/count.py
main.add_command(export_command)  # solver/cli/export.py
# a solution file checked and its claims proved again (solver/cli/verify.py)
main.add_command(verify_command)
# many files at once, into a results folder (solver/cli/batch.py)
main.add_command(batch_command)
main.add_command(batch_merge_command)
# puzzle cards: hints for players, ratings and generation for makers (solver/cli/cards.py)
main.add_command(hint_command)
main.add_command(rate_command)
main.add_command(generate_command)
# cube-and-conquer (solver/cli/cubes.py)
main.add_command(cubes_command)
# move generation counted to a depth (solver/cli/perft.py)
main.add_command(perft_command)
# the local web page (solver/cli/serve.py, solver/web/)
main.add_command(serve_command)
# a GTP engine in Pentobi's dialect (solver/cli/gtp.py, solver/gtp/)
main.add_command(gtp_command)
