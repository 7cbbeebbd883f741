#!/usr/bin/env python3
"""The Dask engine against the local binned engine on the same Parquet partitions, in one run.

    python tests/benchmarks/run_dask_benchmark.py [--sizes 1000000 10000000] [--parts 20]
        [--max-bins 256] [--workers 2] [--missing 0.01] [--algorithm c45|cart] [--prune]
        [--dtree COMMAND] [--make-data PATH] [--keep DIR]

Needs the scale extra (pyarrow, dask, distributed) in the Python that runs it. For each size, a
table from ../shared/bench/make_data.py (10 nominal and 10 numeric attributes, 3 classes, and
make_data's 1% of missing values in every attribute unless --missing says otherwise) is written as
--parts Parquet files into a temporary directory (never into the repository; with --keep, tables
already written there are used again). Then, in this order:

- the local binned engine: ``dtree train PARTS -a c45 --no-prune --max-bins N -q -o local.json``
  (``-a cart`` with ``--algorithm cart``; with ``--prune``, C4.5's default pessimistic pruning instead
  of ``--no-prune``, as a plain ``dtree train PARTS --engine dask`` runs);
- the Dask engine: a scheduler and --workers workers started by hand on 127.0.0.1 (``dask
  scheduler``, ``dask worker``: one process and one thread each, no memory limit), fresh for each
  size, and ``dtree train PARTS ... --engine dask --scheduler ADDRESS -o dask.json``.

Each dtree run is its own process: wall time, CPU time (user + system) and peak memory (max RSS,
from wait4) of the client; each worker's peak memory is asked of the worker process itself after
the run (``getrusage`` through ``Client.run``). The two model files are compared (they must be
identical but for nothing). The targets of issue 19 are printed, met or MISSED: the Dask engine at
most 2x the local engine's wall time on the largest table, the client's peak memory the same
within 10% at the smallest and the largest table, and each worker's peak memory bounded by its
partitions (printed beside the encoded size of the partitions a worker holds).
Not part of the default test run.
"""

from __future__ import annotations

import argparse
import filecmp
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from peers import run
from situations import machine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MAKE_DATA = ROOT.parent / "shared" / "bench" / "make_data.py"

# Written by a child Python: the CSV streamed into PARTS Parquet files of about equal rows.
TO_PARQUET = r"""
import sys
from pathlib import Path
import pyarrow.csv as pv
import pyarrow.parquet as pq
source, out, rows, parts = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
out.mkdir(parents=True, exist_ok=True)
per = -(-rows // parts)
reader = pv.open_csv(source, read_options=pv.ReadOptions(block_size=1 << 24))
writer, part, held = None, 0, 0
for batch in reader:
    at = 0
    while at < batch.num_rows:
        if writer is None:
            writer = pq.ParquetWriter(out / f"part-{part:05d}.parquet", batch.schema)
        take = min(per - held, batch.num_rows - at)
        writer.write_batch(batch.slice(at, take))
        at, held = at + take, held + take
        if held == per:
            writer.close()
            writer, part, held = None, part + 1, 0
if writer is not None:
    writer.close()
"""

# Asked of every worker after a run: its process's peak resident memory, in MB.
WORKER_PEAKS = r"""
import sys
from distributed import Client
def peak():
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6
with Client(sys.argv[1], timeout=30) as client:
    print(" ".join(f"{v:.0f}" for _, v in sorted(client.run(peak).items())))
"""


class Cluster:
    """A scheduler and workers started by hand on 127.0.0.1, as man/dtree-performance.7 tells users to."""

    def __init__(self, folder: Path, workers: int):
        self.file = folder / "scheduler.json"
        self.file.unlink(missing_ok=True)
        python = sys.executable
        scheduler = [python, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0"]
        self.processes = [
            subprocess.Popen(
                [*scheduler, "--no-dashboard", "--scheduler-file", str(self.file)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        ]
        deadline = time.monotonic() + 60
        while not self.file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        import json

        time.sleep(0.5)  # (the file is written whole before the scheduler listens; a moment more)
        self.address = json.loads(self.file.read_text())["address"]
        worker = [python, "-m", "distributed.cli.dask_worker", self.address, "--host", "127.0.0.1"]
        options = ["--nworkers", "1", "--nthreads", "1", "--memory-limit", "0", "--no-dashboard"]
        for _ in range(workers):
            self.processes.append(
                subprocess.Popen([*worker, *options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            )
        wait = f"from distributed import Client\nClient({self.address!r}, timeout=60).wait_for_workers({workers})"
        subprocess.run([python, "-c", wait], check=True, timeout=120)

    def worker_peaks(self) -> list[float]:
        done = subprocess.run([sys.executable, "-c", WORKER_PEAKS, self.address], capture_output=True, text=True)
        return [float(v) for v in done.stdout.split()]

    def close(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def table(rows: int, folder: Path, parts: int, make_data: Path, missing: float) -> tuple[Path, float]:
    """The Parquet partitions of a ``rows``-row table, and the table's encoded size in MB
    (8 bytes a numeric cell, 4 a nominal one, as the workers hold it)."""
    csv = folder / f"bench-{rows}.csv"
    out = folder / f"parts-{rows}-{parts}-{missing}"
    done = folder / f"parts-{rows}-{parts}-{missing}.done"
    if not done.exists():
        subprocess.run([sys.executable, str(make_data), str(rows), str(csv), "--missing", str(missing)], check=True)
        subprocess.run([sys.executable, "-c", TO_PARQUET, str(csv), str(out), str(rows), str(parts)], check=True)
        csv.unlink()
        done.touch()
    return out, rows * (10 * 8 + 11 * 4) / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--parts", type=int, default=20)
    parser.add_argument("--max-bins", type=int, default=256)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--missing", type=float, default=0.01, help="make_data's share of missing values")
    parser.add_argument("--algorithm", choices=("c45", "cart"), default="c45")
    parser.add_argument("--prune", action="store_true", help="C4.5's default pruning (else --no-prune)")
    parser.add_argument("--dtree", default=f"{shlex.quote(sys.executable)} -m dtcli")
    parser.add_argument("--make-data", type=Path, default=MAKE_DATA)
    parser.add_argument("--keep", type=Path, help="keep tables and models in this directory")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="dtree-dask-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    dtree = shlex.split(args.dtree)
    print(machine(), flush=True)
    results = []
    for rows in sorted(args.sizes):
        parts, encoded = table(rows, folder, args.parts, args.make_data, args.missing)
        pruning = [] if args.prune else ["--no-prune"]
        train = [*dtree, "train", str(parts), "-t", "label", "-a", args.algorithm, *pruning, "--max-bins"]
        train += [str(args.max_bins), "-q"]
        local = run([*train, "-o", str(folder / f"local-{args.algorithm}-{rows}.json")])
        print(f"  {rows:,} rows, local binned engine: {local.wall:.1f} s, {local.peak_mb:.0f} MB", flush=True)
        cluster = Cluster(folder, args.workers)
        try:
            model = str(folder / f"dask-{args.algorithm}-{rows}.json")
            dask = run([*train, "--engine", "dask", "--scheduler", cluster.address, "-o", model])
            peaks = cluster.worker_peaks()
        finally:
            cluster.close()
        same = filecmp.cmp(
            folder / f"local-{args.algorithm}-{rows}.json", folder / f"dask-{args.algorithm}-{rows}.json", shallow=False
        )
        print(f"  {rows:,} rows, Dask engine: {dask.wall:.1f} s, client {dask.peak_mb:.0f} MB, workers {peaks}")
        results.append((rows, local, dask, peaks, encoded / max(args.workers, 1), same))
    print(f"\n{args.algorithm}, {'pruned' if args.prune else '--no-prune'}, --max-bins {args.max_bins}")
    report(results, args.workers)
    if not args.keep:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
    return 0


def report(results: list, workers: int) -> None:
    heads = f"{'rows':>11}  {'engine':<26} {'wall s':>8} {'cpu s':>8} {'client MB':>10}  {'worker MB':<14}"
    print(f"\n{heads} dask/local")
    for rows, local, dask, peaks, share, same in results:
        name = "local binned (--max-bins)"
        print(f"{rows:>11,}  {name:<26} {local.wall:>8.2f} {local.cpu:>8.2f} {local.peak_mb:>10.0f}")
        shown = " ".join(f"{p:.0f}" for p in peaks)
        ratio = f"{dask.wall / local.wall:.2f}x" + ("" if same else "  MODELS DIFFER")
        name = f"Dask, {workers} workers"
        figures = f"{dask.wall:>8.2f} {dask.cpu:>8.2f} {dask.peak_mb:>10.0f}"
        print(f"{rows:>11,}  {name:<26} {figures}  {shown:<14} {ratio}")
        print(f"{'':>11}  (each worker's share of the encoded table: about {share:.0f} MB)")
    largest, smallest = results[-1], results[0]
    print("\nIssue 19's targets:")
    verdict(largest[2].wall <= 2 * largest[1].wall, f"Dask at most 2x the local engine at {largest[0]:,} rows")
    if len(results) > 1:
        a, b = smallest[2].peak_mb, largest[2].peak_mb
        said = f"client memory {a:.0f} MB at {smallest[0]:,} rows, {b:.0f} MB at {largest[0]:,} (within 10%)"
        verdict(abs(b - a) <= 0.1 * a, said)
    verdict(all(r[5] for r in results), "model files identical to the local engine's")


def verdict(met: bool, what: str) -> None:
    print(f"  {'met   ' if met else 'MISSED'} {what}")


if __name__ == "__main__":
    sys.exit(main())
