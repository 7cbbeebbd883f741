"""The Dask tests' cluster: a real LocalCluster (2 worker processes, loopback), one per test module."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")  # (not the session: later tests check no process is left)
def client():
    distributed = pytest.importorskip(
        "distributed", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'"
    )
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as made,
    ):
        yield made
