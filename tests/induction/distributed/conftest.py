"""The Dask tests' shared cluster: a real LocalCluster (2 worker processes, loopback), one a test module."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def client():
    import distributed

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as made,
    ):
        yield made
