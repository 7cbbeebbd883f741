"""The Dask engine reads a class of numbers (--task classification) as the local reader: 1 and 1.0 are one class."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'")

from click.testing import CliRunner

from dtcli.cli import cli


def test_spellings_of_one_number_are_one_class(client, tmp_path):
    rng = np.random.default_rng(5)
    a, b = rng.choice(["p", "q", "r"], 300), rng.normal(size=300).round(3)
    y = np.where((a == "p") | (b > 0.5), 1, 2)
    spelled = [f"{v}.0" if i % 3 == 0 else str(v) for i, v in enumerate(y)]
    path = tmp_path / "y.csv"
    path.write_text("a,b,y\n" + "".join(f"{x},{z},{s}\n" for x, z, s in zip(a, b, spelled)))
    common = ["train", str(path), "-a", "c45", "--task", "classification", "-q"]
    dask = [*common, "--engine", "dask", "--scheduler", client.scheduler.address, "-o", str(tmp_path / "d.json")]
    local = [*common, "--max-bins", "256", "-o", str(tmp_path / "l.json")]
    for args in (dask, local):
        done = CliRunner().invoke(cli, args)
        assert done.exit_code == 0, done.output
    model = (tmp_path / "d.json").read_text()
    assert model == (tmp_path / "l.json").read_text()
    first = list(dict.fromkeys(float(s) for s in spelled))
    named = [next(s for s in spelled if float(s) == number) for number in first]  # as first written
    assert json.loads(model)["schema"]["target"]["classes"] == named and len(named) == 2
