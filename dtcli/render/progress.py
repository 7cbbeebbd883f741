"""Progress on standard error: a rich bar on a terminal, plain lines under TERM=dumb, else nothing.

Where it shows (``mode``):

- standard error is a terminal and ``TERM`` is not ``dumb``: a rich bar (label, bar, done/total,
  elapsed time, a detail such as the current level), drawn only once the work has run for more
  than ``DELAY`` seconds, redrawn at most ten times a second when the work reports, and erased
  when the work ends (also when it ends by an error or Ctrl-C);
- standard error is a terminal and ``TERM=dumb`` (Emacs' shell, some CI consoles): a plain line
  such as ``cross-validation: 3/10, 12.5 s`` at most every ``DUMB_EVERY`` seconds (no cursor
  movement; these lines stay);
- standard error is not a terminal (a pipe, a file), or ``-q``: nothing.

Nothing ever goes to standard output. The bar is redrawn only when the work reports (no thread),
so nothing can draw it again after a stop signal has unwound the run. One bar at a time: work
started while a bar shows (a fold's training inside cross-validation) shows nothing, and neither
does a worker process of ``multiprocessing``.

The API for long work (``steps``)::

    with steps("cross-validation", total=10, quiet=quiet) as bar:
        for fold in folds:
            ...
            bar.advance()        # or bar.update(completed=k, detail="fold 3")
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator

DELAY = 1.0  # seconds of work before anything is shown (DTREE_PROGRESS_DELAY overrides it)
DUMB_EVERY = 5.0  # seconds between two plain lines under TERM=dumb
REDRAW_EVERY = 0.1  # seconds between two redraws of the bar


def default_delay() -> float:
    """``DELAY``, or the seconds ``DTREE_PROGRESS_DELAY`` gives (0 shows progress at once)."""
    try:
        value = float(os.environ.get("DTREE_PROGRESS_DELAY", DELAY))
    except ValueError:
        return DELAY
    return value if value >= 0 else DELAY


def mode(stream) -> str:
    """``"bar"``, ``"lines"`` or ``"off"``: what progress ``stream`` gets (see the module's doc)."""
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError, OSError):
        terminal = False
    if not terminal:
        return "off"
    from dtcli.induction.workers import in_worker  # (only the main process draws progress)

    if in_worker():
        return "off"
    return "lines" if os.environ.get("TERM", "").lower() in ("dumb", "unknown") else "bar"


class Steps:
    """One piece of long work: ``advance`` and ``update`` report, ``close`` erases what was shown."""

    drawing: Steps | None = None  # the one bar on the terminal; work started inside it shows none

    def __init__(
        self, label: str, total: int | None, stream=None, *, how: str | None = None, delay: float | None = None
    ):
        self.label, self.total, self.completed, self.detail = label, total, 0, ""
        self.stream = stream if stream is not None else sys.stderr
        self.how = how if how is not None else mode(self.stream)
        self.delay = default_delay() if delay is None else delay
        self.started = time.perf_counter()
        self.last = float("-inf")  # when the bar was last drawn (or the last plain line written)
        self.bar = None  # the rich Progress, once shown

    def advance(self, n: int = 1) -> None:
        """``n`` more steps are done."""
        self.completed += n
        self._report()

    def update(self, *, completed: int | None = None, total: int | None = None, detail: str | None = None) -> None:
        """Set how much is done, the total (``None``: not known) or the detail text."""
        if completed is not None:
            self.completed = completed
        if total is not None:
            self.total = total
        if detail is not None:
            self.detail = detail
        self._report()

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def text(self) -> str:
        """The plain line: ``label: done/total, detail, 12.5 s``."""
        parts = [f"{self.completed:,}/{self.total:,}" if self.total else ""]
        parts += [self.detail, f"{self.elapsed():.1f} s"]
        return f"{self.label}: " + ", ".join(part for part in parts if part)

    def _report(self) -> None:
        if self.how == "off" or self.elapsed() < self.delay:
            return
        now = time.perf_counter()
        if self.how == "lines":
            if now - self.last >= DUMB_EVERY:
                self.last = now
                with contextlib.suppress(OSError, ValueError):
                    self.stream.write(self.text() + "\n")
                    self.stream.flush()
            return
        if now - self.last >= REDRAW_EVERY:
            self.last = now
            self._draw()

    def _draw(self) -> None:
        if Steps.drawing not in (None, self):  # work inside work (a fold's training): the outer bar only
            self.how = "off"
            return
        if self.bar is None:
            Steps.drawing = self
            self.bar = _rich_bar(self.stream, counted=self.total is not None)
            self.task = self.bar.add_task(self.label, total=self.total, completed=self.completed, detail=self.detail)
            self.bar.start()
        self.bar.update(self.task, completed=self.completed, total=self.total, detail=self.detail)
        self.bar.refresh()

    def close(self) -> None:
        """Erase the bar (if one was shown). Plain lines stay."""
        bar, self.bar = self.bar, None
        if Steps.drawing is self:
            Steps.drawing = None
        if bar is not None:
            with contextlib.suppress(OSError, ValueError):
                bar.stop()


def _rich_bar(stream, counted: bool):
    """A transient rich Progress drawing on ``stream`` (a terminal); messages written to standard
    error meanwhile print above it."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from dtcli.render.console import colour_allowed, screen

    width, height = screen(stream)
    terminal = Console(
        file=stream,
        force_terminal=True,
        markup=False,
        highlight=False,
        emoji=False,
        no_color=not colour_allowed(),
        width=width,
        height=height,
    )
    columns = [
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        *([MofNCompleteColumn()] if counted else []),
    ]
    columns += [TimeElapsedColumn(), TextColumn("{task.fields[detail]}", markup=False)]
    return Progress(
        *columns, console=terminal, auto_refresh=False, transient=True, redirect_stdout=False, redirect_stderr=True
    )


@contextlib.contextmanager
def steps(
    label: str, total: int | None = None, *, quiet: bool = False, stream=None, delay: float | None = None
) -> Iterator[Steps]:
    """Progress of ``total`` steps (``None``: not known) on standard error, as ``mode`` decides;
    nothing with ``quiet``. The bar is erased when the block ends, however it ends."""
    work = Steps(label, total, stream, how="off" if quiet else None, delay=delay)
    try:
        yield work
    finally:
        work.close()


def compiling_text(seconds: float) -> str:
    """What is said while kernels compile: ``compiling kernels (once per machine, about 12 s)``."""
    return f"compiling kernels (once per machine, about {max(round(seconds), 1)} s)"


def announce_compiling(seconds: float, work: Steps | None = None, quiet: bool = False) -> None:
    """Say that kernels are about to compile for about ``seconds``: as the detail of ``work``'s bar,
    drawn at once (on a terminal), else as one line on standard error (a pipe, a file, and with
    ``quiet`` too: a wait of many seconds is never silent; held for the JSON document under
    ``-f json``); nothing in a worker process."""
    from dtcli.induction.workers import in_worker

    if in_worker():
        return
    text = compiling_text(seconds)
    if not quiet and work is not None and work.how != "off":
        work.delay = 0.0
        work.update(detail=text)
        return
    from dtcli.render.console import notice

    notice(text)


class TrainingProgress:
    """The training engines' callback, ``progress(level, nodes, rows, seconds)``, shown as steps
    of unknown total with the level, the nodes and the rows as its detail; ``compiling(seconds)``
    announces kernels about to compile (the detail says so until the growth is past level 0)."""

    def __init__(self, stream=None, enabled: bool | None = None, delay: float | None = None):
        how = "off" if enabled is False else None
        self.quiet = enabled is False
        self.work = Steps("training", None, stream, how=how, delay=delay)
        self.announced = ""

    def compiling(self, seconds: float) -> None:
        announce_compiling(seconds, self.work, self.quiet)
        self.announced = compiling_text(seconds)

    def __call__(self, level: int, nodes: int, rows: int, seconds: float) -> None:
        if self.announced and level == 0:  # (the kernels compile while level 0 is grown)
            self.work.update(completed=level, detail=self.announced)
            return
        self.work.update(completed=level, detail=f"level {level}, {nodes:,} node(s), {rows:,} rows")

    def close(self) -> None:
        """Erase the bar (if one was shown)."""
        self.work.close()
