"""Dates in Parquet files (date and timestamp columns), `gain -a` on dates, and predicting from another ISO form."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest


@pytest.mark.parametrize("algorithm", ["c45", "cart"])
def test_gain_of_an_algorithm_prints_its_date_cut_as_the_tree_does(run, tmp_path, algorithm):
    lines = ["day,x,class"]
    for i in range(40):
        d = date(2024, 1, 1) + timedelta(days=3 * i)
        lines.append(f"{d},{(i * 7) % 10},{'late' if i >= 23 or i % 9 == 0 else 'early'}")
    path = tmp_path / "d.csv"
    path.write_text("\n".join(lines) + "\n")
    gain = run("gain", path, "-a", algorithm, "-q")
    starred = re.search(r"^\* day\s+│ (?:day )?<= (\S+)", gain.stdout, re.M)
    assert starred, gain.stdout
    tree = run("train", path, "-a", algorithm, "-f", "text").stdout
    assert tree.splitlines()[0].startswith(f"day <= {starred.group(1)}"), (gain.stdout, tree)
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", starred.group(1))
    assert not re.search(r"\b1[67]\d{8}\b", gain.stdout)  # no seconds since the epoch
