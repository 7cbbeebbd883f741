"""The Dask engine on a table of one class grows the single leaf the local engines grow (Mitchell's first case)."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'")

from click.testing import CliRunner

from dtcli.cli import cli


@pytest.mark.parametrize("algorithm", ["c45", "cart"])
def test_one_class_is_a_leaf(client, tmp_path, algorithm):
    rng = np.random.default_rng(3)
    path = tmp_path / "one.csv"
    rows = "".join(f"{rng.choice(['p', 'q', 'r'])},{rng.normal():.3f},yes\n" for _ in range(200))
    path.write_text("a,b,y\n" + rows)
    args = ["train", str(path), "-a", algorithm, "--engine", "dask", "--scheduler", client.scheduler.address]
    result = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "m.json")])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].endswith(
        "tree: 1 leaf, 1 node, depth 0; model written to " + str(tmp_path / "m.json")
    )
    root = json.loads((tmp_path / "m.json").read_text())["root"]
    assert root == {"counts": [200.0], "kind": "leaf", "label": "yes"}
