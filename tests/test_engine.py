"""The compiled kernels against the plain-numpy reference: identical splits and trees."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dtcli.induction import kernels
from dtcli.induction.algorithms import train
from dtcli.induction.numeric import c45_cut, cut_table
from dtcli.render.tree import text_tree
from helpers import WEKA, load

numba = pytest.importorskip("numba")


def generated(n: int, seed: int):
    from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table

    rng = np.random.default_rng(seed)
    columns = [rng.integers(-1, 4, n).astype(np.int32), np.round(rng.normal(50, 15, n), 1),
               np.round(rng.normal(0, 1, n), 2), rng.integers(-1, 3, n).astype(np.int32)]
    columns[1][rng.random(n) < 0.03] = np.nan
    y = ((columns[0] == 1) + (np.nan_to_num(columns[1]) > 50) + (columns[2] > 0.5)).astype(np.int32) % 3
    flip = rng.random(n) < 0.1
    y[flip] = rng.integers(0, 3, flip.sum())
    attributes = (Attribute("c0", NOMINAL, ("a", "b", "c", "d")), Attribute("x1", NUMERIC),
                  Attribute("x2", NUMERIC), Attribute("c3", NOMINAL, ("p", "q", "r")))
    return Table(Schema(attributes, Attribute("y", NOMINAL, ("k0", "k1", "k2"))), columns, y)


@pytest.mark.parametrize("seed", range(5))
def test_numeric_kernel_matches_reference(seed):
    rng = np.random.default_rng(seed)
    n = 200
    values = np.round(rng.normal(0, 1, n), 1)
    values[rng.random(n) < 0.1] = np.nan
    y = rng.integers(0, 3, n)
    w = np.where(rng.random(n) < 0.2, 0.5, 1.0)
    reference = c45_cut(cut_table(values, y, w, 3), 3, 2.0)
    compiled = kernels.c45_numeric(values, y, w, 3, 2.0, True)
    if reference is None:
        assert compiled is None
        return
    lower, upper, gain, candidates, counts = compiled
    assert (lower, upper, candidates) == (reference.lower, reference.upper, reference.n_candidates)
    assert gain == pytest.approx(reference.gain, abs=1e-12)
    assert np.allclose(counts, reference.branch_counts)


def grow_both(monkeypatch, table, **options):
    monkeypatch.setenv("DTREE_ENGINE", "numpy")
    reference, _ = train(table, "c45", **options)
    monkeypatch.setenv("DTREE_ENGINE", "numba")
    compiled, _ = train(table, "c45", **options)
    return text_tree(reference), text_tree(compiled)


@pytest.mark.parametrize("seed", range(3))
def test_trees_identical_on_generated_data(monkeypatch, seed):
    table = generated(3000, seed)
    for options in ({}, {"prune": "none"}):
        reference, compiled = grow_both(monkeypatch, table, **options)
        assert reference == compiled


MANIFEST = json.loads((WEKA / "manifest.json").read_text())
NUMERIC = sorted({m["dataset"] for m in MANIFEST if m["ok"] and m["classifier"].endswith("J48")}
                 & {"iris", "labor", "diabetes", "glass", "ionosphere", "segment-challenge", "credit-g",
                    "weather.numeric", "unbalanced"})


@pytest.mark.parametrize("name", NUMERIC)
def test_trees_identical_on_weka_files(monkeypatch, name):
    reference, compiled = grow_both(monkeypatch, load(WEKA / "data" / f"{name}.arff"))
    assert reference == compiled
