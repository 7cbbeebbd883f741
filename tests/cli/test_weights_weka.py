"""--weights against Weka's J48 with the same instance weights (recorded in tests/fixtures/weka/weights/)."""

from __future__ import annotations

import pytest

from helpers import WEKA

WEIGHTS = WEKA / "weights"


def weight(i: int) -> int:
    return 1 + (i * 7) % 3  # as tests/fixtures/weka/weights/record.py gives the rows their instance weights


def with_weight_column(text: str) -> str:
    """The ARFF file with a numeric attribute w (the case weights) before the class, the last attribute."""
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("%")]
    at = next(i for i, line in enumerate(lines) if line.strip().lower() == "@data")
    last = max(i for i in range(at) if lines[i].lower().startswith("@attribute"))
    header = lines[:last] + ["@attribute w numeric"] + lines[last : at + 1]
    rows = [row.rsplit(",", 1) for row in lines[at + 1 :]]
    return "\n".join(header + [f"{head},{weight(i)},{tail}" for i, (head, tail) in enumerate(rows)]) + "\n"


@pytest.mark.parametrize("name", ["weather.numeric", "iris", "labor", "contact-lenses"])
@pytest.mark.parametrize("kind", ["pruned", "unpruned"])
def test_weights_grow_j48s_tree(run, tmp_path, name, kind):
    path = tmp_path / f"{name}.arff"
    path.write_text(with_weight_column((WEKA / "data" / f"{name}.arff").read_text()))
    flags = [] if kind == "pruned" else ["--no-prune"]
    done = run("train", path, "--weights", "w", "-a", "c45", *flags, "-f", "text")
    assert done.exit_code == 0, done.stderr
    assert done.stdout == (WEIGHTS / f"{name}.j48-{kind}.txt").read_text()
