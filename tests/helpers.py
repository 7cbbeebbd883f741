"""Shared test helpers: paths to sample data and fixtures, loading tables, golden files."""

from __future__ import annotations

import os
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SAMPLES = ROOT / "sample_data"
FIXTURES = TESTS / "fixtures"
WEKA = FIXTURES / "weka"
GOLDEN = TESTS / "golden"


def load(path, target=None, ignore=(), nominal=(), task="classification"):
    """A training Table from a file, through the real readers."""
    from dtcli.io.encode import infer_table
    from dtcli.io.read import read_data

    return infer_table(read_data(str(path)), target, ignore, nominal, task)


def loaded_after(imports: str, prefixes: tuple[str, ...]) -> list[str]:
    """The modules whose names start with one of ``prefixes`` that a fresh interpreter has
    loaded after running ``imports`` (Python source)."""
    import subprocess
    import sys

    code = f"{imports}\nimport sys\nprint(','.join(m for m in sys.modules if m.startswith({prefixes!r})))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return [m for m in out.stdout.strip().split(",") if m]


def golden(name: str, text: str) -> None:
    """Compare with tests/golden/NAME; DTREE_UPDATE_GOLDEN=1 rewrites it (review the diff!)."""
    path = GOLDEN / name
    if os.environ.get("DTREE_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"no golden file {name}: run with DTREE_UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text()


def arff_halves(text: str) -> tuple[str, str]:
    """An ARFF file cut in two (a training and a test file with its header): data rows 1, 3, 5, ...
    and rows 2, 4, 6, ... (blank and comment lines dropped). Weka's example files are often sorted by
    class, so each half keeps about the class proportions. tests/fixtures/weka/evaluate/record.py cuts
    the files Weka judged the same way."""
    head, rows, in_data = [], [], False
    for line in text.splitlines():
        if in_data:
            if line.strip() and not line.strip().startswith("%"):
                rows.append(line)
        else:
            head.append(line)
            in_data = line.strip().lower().startswith("@data")
    return "\n".join(head + rows[0::2]) + "\n", "\n".join(head + rows[1::2]) + "\n"


def unknown_classes(text: str, every: int = 5) -> str:
    """An ARFF file with the class (the last value) of every ``every``-th data row made missing ('?')."""
    out, seen, in_data = [], 0, False
    for line in text.splitlines():
        if in_data and line.strip() and not line.strip().startswith("%"):
            seen += 1
            if seen % every == 0:
                line = line.rsplit(",", 1)[0] + ",?"
        out.append(line)
        in_data = in_data or line.strip().lower().startswith("@data")
    return "\n".join(out) + "\n"
