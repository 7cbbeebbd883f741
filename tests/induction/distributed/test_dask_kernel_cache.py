"""The local cluster's workers file their compiled kernels in the keyed cache directory, as the run does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'")

from dtcli.induction.kernels.cache import source_key

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.compiled
def test_the_workers_compile_into_the_keyed_cache_directory(tmp_path):
    """numba reads NUMBA_CACHE_DIR as a worker imports a kernel; a worker started before dtree keyed it
    filed kernels directly under it, where a later version's sources could load them stale."""
    rng = np.random.default_rng(5)
    rows = "".join(f"{rng.choice(['p', 'q'])},{rng.normal():.3f},{rng.choice(['yes', 'no'])}\n" for _ in range(300))
    (tmp_path / "t.csv").write_text("a,b,y\n" + rows)
    cache = tmp_path / "cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "dtcli", "train", "t.csv", "-a", "c45", "--engine", "dask", "-o", "m.json"]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert [p.name for p in cache.iterdir()] == [source_key()]
    assert list((cache / source_key()).glob("kernels_*/*.nbi"))
