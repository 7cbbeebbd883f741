"""pandas for the CSV readers is imported without pyarrow (it would hold about 90 MB for nothing),
and pyarrow stays importable afterwards; a pandas already loaded is taken as it is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return done.stdout.strip()


def big_csv(path: Path) -> None:
    """A CSV file above the plain reader's limit, so that pandas reads it."""
    from dtcli.io.csv.reader import PLAIN_MAX

    rows = PLAIN_MAX // 12 + 10
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("x,colour,label\n")
        for i in range(rows):
            handle.write(f"{i % 977 / 7:.3f},{('red', 'green', 'blue')[i % 3]},{'ab'[i % 2]}\n")


def test_reading_a_large_csv_leaves_pyarrow_unloaded(tmp_path):
    pytest.importorskip("pyarrow", reason="only matters where pyarrow is installed")
    path = tmp_path / "big.csv"
    big_csv(path)
    out = run(
        "import sys\n"
        "from dtcli.pipeline.load import read_training\n"
        f"table, _ = read_training({str(path)!r}, 'label', (), (), None)\n"
        "print('pandas' in sys.modules, 'pyarrow' in sys.modules, table.n_rows, table.attributes[1].values)\n"
        "import pyarrow\n"
        "print(pyarrow.array([1, 2]).to_pylist())\n"
    )
    rows = path.read_text(encoding="utf-8").count("\n") - 1
    assert out.splitlines() == [f"True False {rows} ('red', 'green', 'blue')", "[1, 2]"]


def test_a_loaded_pandas_is_used_as_it_is():
    out = run(
        "import sys, pandas\n"
        "from dtcli.io.pandas_import import pandas as get\n"
        "print(get() is pandas, sys.modules.get('pyarrow', 'absent') is not None)\n"
    )
    assert out == "True True"


def test_pandas_without_pyarrow_reads_the_same_columns(tmp_path):
    """The same file read with pandas as it is and with pyarrow hidden: the same table."""
    pytest.importorskip("pyarrow", reason="only matters where pyarrow is installed")
    path = tmp_path / "big.csv"
    big_csv(path)
    show = (
        "from dtcli.pipeline.load import read_training\n"
        f"t, _ = read_training({str(path)!r}, 'label', (), (), None)\n"
        "import hashlib\n"
        "print(t.n_rows, [a.values for a in t.attributes], hashlib.sha256(b''.join(c.tobytes() for c in t.columns)"
        ").hexdigest())\n"
    )
    assert run(show) == run("import pyarrow, pandas\n" + show)
