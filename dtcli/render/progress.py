"""Progress of a long training run, on standard error.

One line, rewritten in place after every level of the level-wise engine:
the level, how many nodes it holds and how many rows (with C4.5's
fractional copies) are being processed. Shown only when standard error is
a terminal and only once training has run for more than a second, so that
scripts, pipes and quick runs never see it; cleared when training ends.
"""

from __future__ import annotations

import shutil
import sys
import time

DELAY = 1.0  # seconds of training before the line appears


class TrainingProgress:
    def __init__(self, stream=None, enabled: bool | None = None, delay: float = DELAY):
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.delay = delay
        self.started = time.perf_counter()
        self.shown = False

    def __call__(self, level: int, nodes: int, rows: int, seconds: float) -> None:
        elapsed = time.perf_counter() - self.started
        if not self.enabled or elapsed < self.delay:
            return
        line = f"training: level {level}, {nodes:,} node(s), {rows:,} rows, {elapsed:.1f} s"
        width = shutil.get_terminal_size((80, 24)).columns - 1
        self.stream.write("\r" + line[:width] + "\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Erase the line (if one was shown)."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False
