"""Where the Dask engine runs: a local cluster of processes on loopback, or a scheduler's address.

``dask`` and ``distributed`` are the optional extra ``scale``: they are imported here, only when
``--engine dask`` is asked for, and their absence is a one-line ParameterError naming the extra.
"""

from __future__ import annotations

import logging
import os
from contextlib import contextmanager

from dtcli.errors import ParameterError
from dtcli.induction.kernels.cache import use_cache_dir

EXTRA = "pip install 'dtree[scale]'"
CONNECT_SECONDS = 5  # an address that does not answer within this is an error, not a hang


def modules():
    """``distributed``, or a ParameterError naming the extra that provides it."""
    try:
        import dask.dataframe  # noqa: F401
        import distributed
    except ImportError:
        raise ParameterError(f"--engine dask needs dask and distributed: {EXTRA}") from None
    return distributed


@contextmanager
def client(scheduler: str | None):
    """A ``distributed.Client``: to ``scheduler`` when given, else to a local cluster of one worker
    process a core (loopback only), closed (and the cluster stopped) on leaving."""
    distributed = modules()
    if scheduler is None:
        # the workers inherit the keyed kernel cache (and the kernels compiled at install): a worker
        # imports kernels without ``cache.load``, and numba would otherwise file them in an unkeyed one
        use_cache_dir()
        cluster = distributed.LocalCluster(
            processes=True,
            host="127.0.0.1",
            n_workers=os.cpu_count() or 1,
            threads_per_worker=1,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,  # a task's DataError is the run's one-line error, not a logged traceback
        )
        try:
            with distributed.Client(cluster) as made:
                yield made
        finally:
            cluster.close()
        return
    try:
        made = distributed.Client(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ParameterError(
            f"--scheduler {scheduler}: no Dask scheduler answered within {CONNECT_SECONDS} s ({reason}); "
            "start one with 'dask scheduler' or leave --scheduler out for a local cluster"
        ) from None
    with made:
        yield made


def shipped(client, value):
    """One future holding ``value``, sent to every worker ahead: how a large argument reaches
    ``client.map`` (distributed keys a keyword's value over 100 kB by the keyword's name alone, so two
    calls' values would clash), under a key of its own (equal values scattered twice stay apart)."""
    return client.scatter([value], broadcast=True, hash=False)[0]


def _add(a, b):
    """Two partial results summed: arrays, or tuples / dicts of arrays, nested (runs on a worker;
    walked with a stack, children before their container, as every walker in dtree)."""
    stack = [(a, b, False)]
    results: list = []
    while stack:
        x, y, children_done = stack.pop()
        if not isinstance(x, (dict, tuple)):
            results.append(x + y)
            continue
        keys = list(x) if isinstance(x, dict) else list(range(len(x)))
        if children_done:
            values = results[len(results) - len(keys) :]
            del results[len(results) - len(keys) :]
            results.append(dict(zip(keys, values)) if isinstance(x, dict) else tuple(values))
        else:
            stack.append((x, y, True))
            stack.extend((x[key], y[key], False) for key in reversed(keys))  # (taken in key order)
    return results[0]


def summed(client, futures: list):
    """The sum of the partitions' results, added pairwise on the cluster (a tree of additions:
    every addition exact: counts, and weights on ``constants.on_grid``'s grid), gathered to the client."""
    while len(futures) > 1:
        pairs = [client.submit(_add, futures[i], futures[i + 1]) for i in range(0, len(futures) - 1, 2)]
        futures = pairs + ([futures[-1]] if len(futures) % 2 else [])
    return futures[0].result()
