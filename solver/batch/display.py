"""Progress on screen: a rich progress bar in a terminal (items done, solved / no / unknown /
error counts, elapsed time, time left), one plain line per item otherwise (a log file, a
pipe, CI)."""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from solver.batch.report import COUNTED, answers
from solver.errors import MESSAGE_LIMIT
from solver.quoting import shown
from solver.trust.rows import ColourRecord, Row


def item_line(row: Row) -> str:
    """One line about a finished item: what it is, its answer(s), backend and time."""
    where = shown(row["item"]) + ("" if row.get("after") is None else f" after {row['after']}")
    where += f" seed {row.get('seed')}" if row.get("sweep") else ""
    if row.get("status") == "error":
        return f"{where}: error: {shown(row.get('error'), MESSAGE_LIMIT)}"
    if row.get("kind") == "puzzle":
        answer = row.get("answer")
        detail = {
            "solved": ("solved" if row.get("solve_status") == "solved" else "optimal")
            + f" (score {row.get('score')})",
            "no": "no (proven: no layout)",
            "unknown": "unknown (time limit: not a no)",
        }.get(answer or "", str(answer))
    else:
        detail = ", ".join(_colour_text(c) for c in row["colours"])
    return f"{where}: {detail}  [{row.get('answered_by')}, {row.get('seconds', 0):.2f} s]"


def _colour_text(record: ColourRecord) -> str:
    if not record.get("left"):
        return f"{record['colour']} done"
    text = f"{record['colour']} {record['answer']}"
    if record.get("reason") and record["answer"] == "no":  # a joint answer (--together)
        text += f" ({record['reason']})"
    elif record["answer"] == "no" and record.get("best") is not None:
        proven = record.get("best_status") == "optimal"
        text += f" (best {record['best']}{'' if proven else ', not proven'})"
    return text


class Display:
    """Counts what finishes; subclasses show it."""

    def __init__(self, console: Console, total: int):
        self.console = console
        self.total = total
        self.done = 0
        self.not_run = 0
        self.counts: Counter[str] = Counter({k: 0 for k in COUNTED})

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def finished(self, row: Row) -> None:
        self.done += 1
        self.counts.update(answers(row))
        self.show(row)

    def skip(self, line: str) -> None:
        """An item not run (a sweep's seed whose puzzle another seed answered): ``line``
        says which."""
        self.not_run += 1
        self.show_skip(line)

    def show(self, row: Row) -> None:
        raise NotImplementedError

    def show_skip(self, line: str) -> None:
        raise NotImplementedError

    def counts_text(self) -> str:
        c = self.counts
        return f"solved {c['solved']} · no {c['no']} · unknown {c['unknown']} · errors {c['error']}"


class PlainDisplay(Display):
    """One line per item: ``[  3/40] item: answer  [backend, time]``."""

    def show(self, row: Row) -> None:
        width = len(str(self.total))
        self.console.print(
            f"[{self.done:>{width}}/{self.total}] {item_line(row)}", markup=False, highlight=False
        )

    def show_skip(self, line: str) -> None:
        width = len(str(self.total))
        self.console.print(f"[{'-':>{width}}/{self.total}] {line}", markup=False, highlight=False)


class BarDisplay(Display):
    """A progress bar with the counts; errors and unknowns are printed above it."""

    def __init__(self, console: Console, total: int):
        super().__init__(console, total)
        # fits 80 columns: ━━━━━━━━━━ 14/40 solved 12 · no 15 · unknown 0 · errors 0
        # 0:00:03 0:00:05 left
        self.progress = Progress(
            BarColumn(bar_width=10),
            MofNCompleteColumn(),
            TextColumn("{task.fields[counts]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            TextColumn("left"),
            console=console,
        )
        self.task = self.progress.add_task("batch", total=total, counts=self.counts_text())

    def __enter__(self) -> Display:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def show(self, row: Row) -> None:
        if row.get("status") == "error" or "unknown" in answers(row):
            self.progress.console.print(item_line(row), markup=False, highlight=False)
        self.progress.update(self.task, advance=1, counts=self.counts_text())

    def show_skip(self, line: str) -> None:
        self.progress.update(self.task, advance=1)


def make_display(console: Console, total: int) -> Display:
    """A progress bar in a terminal, plain lines otherwise."""
    return BarDisplay(console, total) if console.is_terminal else PlainDisplay(console, total)
