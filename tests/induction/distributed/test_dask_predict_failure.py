"""``dtree predict --engine dask`` that fails on one partition: OUTDIR is left as it was, no part of it written."""

from __future__ import annotations

import pytest

pytest.importorskip("distributed", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'")

from click.testing import CliRunner

from dtcli.cli import cli

GOOD = "a,class\n" + "".join(f"{i},{'x' if i < 50 else 'y'}\n" for i in range(100))


@pytest.fixture
def failing(tmp_path):
    """A model, and a glob of three CSV files (a partition each) of which the last has a text cell in a
    numeric column: its partition fails after the others' parts may have been written."""
    (tmp_path / "train.csv").write_text(GOOD)
    result = CliRunner().invoke(
        cli, ["train", str(tmp_path / "train.csv"), "-a", "c45", "-q", "-o", str(tmp_path / "m.json")]
    )
    assert result.exit_code == 0, result.output
    (tmp_path / "d1.csv").write_text(GOOD)
    (tmp_path / "d2.csv").write_text(GOOD)
    (tmp_path / "d3.csv").write_text("a,class\n1,x\nabc,x\n")
    return tmp_path


@pytest.mark.parametrize("existing", [False, True], ids=["new-outdir", "empty-outdir"])
def test_a_failed_run_leaves_outdir_as_it_was(client, failing, existing):
    out = failing / "out"
    if existing:
        out.mkdir()
    args = ["predict", str(failing / "m.json"), str(failing / "d*.csv"), "--engine", "dask"]
    result = CliRunner().invoke(cli, [*args, "--scheduler", client.scheduler.address, "-o", str(out)])
    assert result.exit_code == 1
    assert result.output == "Error: d*.csv: column 'a' must be numeric for this model, but line 3 holds 'abc'\n"
    assert (sorted(p.name for p in out.iterdir()) == []) if existing else not out.exists()
