"""Tables and tree comparisons that several test modules share."""

from __future__ import annotations

import json
import math

import numpy as np
from hypothesis import strategies as st

from dtcli.induction import PruneParams, grow_params, train
from dtcli.model.format.model import dumps_model
from dtcli.render.tree import text_tree
from helpers import WEKA


def shape(node, classes):
    """A tree as nested tuples: (attribute, {value: subtree}) or the leaf's class."""
    if node.is_leaf:
        return classes[node.label]
    return (node.test.attribute.name, {v: shape(c, classes) for v, c in zip(node.test.attribute.values, node.children)})


@st.composite
def nominal_tables(draw):
    n_attr = draw(st.integers(1, 4))
    arity = [draw(st.integers(1, 4)) for _ in range(n_attr)]
    n_rows = draw(st.integers(1, 30))
    n_classes = draw(st.integers(2, 3))
    rows = [[draw(st.integers(0, k - 1)) for k in arity] for _ in range(n_rows)]
    labels = [draw(st.integers(0, n_classes - 1)) for _ in range(n_rows)]
    return arity, rows, labels, n_classes


PRUNE_OPTIONS = {
    "prune": "method",
    "cf": "cf",
    "raising": "raising",
    "error_bound": "error_bound",
    "holdout": "holdout",
}


def fit(table, algorithm="id3", engine="auto", progress=None, record=True, **options):
    """``train`` with its options given as keywords, as the CLI gives them: growth options
    (None: the algorithm's), ``prune`` (the method), ``cf``, ``raising``, ``error_bound``,
    ``holdout``; ``seed`` seeds both CART's tie order and the reduced-error hold-out."""
    pruning = {PRUNE_OPTIONS[k]: options.pop(k) for k in list(options) if k in PRUNE_OPTIONS}
    seed = options.get("seed") or 0
    prune = PruneParams(seed=seed, **pruning)
    return train(table, grow_params(algorithm, **options), prune, engine=engine, progress=progress, record=record)


def case_table(case):
    """The Table of a ``nominal_tables()`` case: attributes A0.. with values v0.., classes c0..."""
    from dtcli.model.table import NOMINAL, Attribute, Schema, Table

    arity, rows, labels, n_classes = case
    attributes = tuple(Attribute(f"A{j}", NOMINAL, tuple(f"v{i}" for i in range(k))) for j, k in enumerate(arity))
    classes = tuple(f"c{i}" for i in range(n_classes))
    columns = [np.array([r[j] for r in rows], dtype=np.int32) for j in range(len(arity))]
    return Table(Schema(attributes, Attribute("y", NOMINAL, classes)), columns, np.array(labels, dtype=np.int32))


def named_table(columns: dict[str, list[str | None]], target: list[str]):
    """A Table of nominal columns given by their cells (None: missing), values and classes in order of
    first appearance, the target named ``class``."""
    from dtcli.model.table import NOMINAL, Attribute, Schema, Table

    attributes, data = [], []
    for name, cells in columns.items():
        values = tuple(dict.fromkeys(c for c in cells if c is not None))
        attributes.append(Attribute(name, NOMINAL, values))
        data.append(np.array([values.index(c) if c is not None else -1 for c in cells], dtype=np.int32))
    classes = tuple(dict.fromkeys(target))
    schema = Schema(tuple(attributes), Attribute("class", NOMINAL, classes))
    return Table(schema, data, np.array([classes.index(c) for c in target], dtype=np.int32))


def grown_both(table, algorithm: str, **options):
    """The trees ``algorithm`` grows on ``table`` with the reference and with the compiled engine,
    which must print the same and trace the same decisions (pruning steps, chi-square tests, in order)."""
    reference, _ = fit(table, algorithm, engine="reference", **options)
    compiled, _ = fit(table, algorithm, engine="compiled", **options)
    assert text_tree(reference) == text_tree(compiled)
    assert same(reference.trace, compiled.trace)
    return reference, compiled


def both(table, **options):
    reference, _ = fit(table, "cart", engine="reference", **options)
    compiled, _ = fit(table, "cart", engine="compiled", **options)
    assert text_tree(reference) == text_tree(compiled)
    return json.loads(dumps_model(reference)), json.loads(dumps_model(compiled))


def generated(n: int, seed: int):
    from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table

    rng = np.random.default_rng(seed)
    columns = [
        rng.integers(-1, 4, n).astype(np.int32),
        np.round(rng.normal(50, 15, n), 1),
        np.round(rng.normal(0, 1, n), 2),
        rng.integers(-1, 3, n).astype(np.int32),
    ]
    columns[1][rng.random(n) < 0.03] = np.nan
    y = ((columns[0] == 1) + (np.nan_to_num(columns[1]) > 50) + (columns[2] > 0.5)).astype(np.int32) % 3
    flip = rng.random(n) < 0.1
    y[flip] = rng.integers(0, 3, flip.sum())
    attributes = (
        Attribute("c0", NOMINAL, ("a", "b", "c", "d")),
        Attribute("x1", NUMERIC),
        Attribute("x2", NUMERIC),
        Attribute("c3", NOMINAL, ("p", "q", "r")),
    )
    return Table(Schema(attributes, Attribute("y", NOMINAL, ("k0", "k1", "k2"))), columns, y)


def without_missing(table) -> None:
    """Fill ``table``'s missing values in place (nominal: the first value; numeric: 1.0), for
    ``--missing reject``."""
    for i, column in enumerate(table.columns):
        if table.attributes[i].is_nominal:
            column[column < 0] = 0
        else:
            column[np.isnan(column)] = 1.0


def same(a, b) -> bool:
    """Equal, floats to 1e-12: the per-node path takes logarithms with numpy, the kernels with the
    C library, and the two may differ in the last bit (numpy's vectorised log is not always
    correctly rounded); every count, test and threshold must still be the same."""
    if isinstance(a, float) or isinstance(b, float):
        return (
            isinstance(a, (int, float))
            and isinstance(b, (int, float))
            and math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
        )
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if hasattr(a, "__dataclass_fields__"):
        return type(a) is type(b) and same(vars(a), vars(b))
    return a == b


MANIFEST = json.loads((WEKA / "manifest.json").read_text())


def chain(depth: int):
    """A Tree of ``depth`` numeric splits in a chain: x <= 0.5: a; else x <= 1.5: b; else ... (a leaf of
    one case each side)."""
    from dtcli.model.table import NUMERIC, Attribute, Schema
    from dtcli.model.tree import Node, NumericTest, Tree

    x = Attribute("x", NUMERIC)
    root = node = Node(np.array([1.0, 1.0]), 0)
    for d in range(depth):
        node.test = NumericTest(x, d + 0.5)
        node.children = [Node(np.array([1.0, 0.0]), 0), Node(np.array([0.0, 1.0]), 1)]
        node = node.children[1]
    return Tree(Schema((x,), Attribute("y", "nominal", ("a", "b"))), root, "cart", {"criterion": "gini"})


def json_documents(integers: int):
    """A hypothesis strategy of JSON-ready documents: nested lists and dicts of None, booleans, integers
    up to ``integers`` in size, floats (nan and infinities too) and short texts."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-integers, integers)
        | st.floats(allow_nan=True, allow_infinity=True)
        | st.text(max_size=8)
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
        max_leaves=30,
    )


def tied(n: int, seed: int, weights: np.ndarray | None = None):
    """Mirror-image data: cuts and subsets whose scores tie exactly, where the first in order must
    win (the compiled scans compare approximations first and must not lose an exact tie)."""
    from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table

    rng = np.random.default_rng(seed)
    x = rng.integers(0, 10, n).astype(np.float64)
    y = np.where((x <= 2) | (x >= 7), 0, 1)  # cuts at 2.5 and 6.5 score the same
    y[(x == 4) | (x == 5)] = 2
    mirror = 9 - x
    code = rng.integers(0, 6, n).astype(np.int32)
    y = np.where(code == 5, (y + 1) % 3, y)
    attributes = (
        Attribute("x", NUMERIC),
        Attribute("mirror", NUMERIC),
        Attribute("c", NOMINAL, tuple(f"v{i}" for i in range(6))),
    )
    target = Attribute("y", NOMINAL, ("a", "b", "c"))
    return Table(Schema(attributes, target), [x, mirror, code], y.astype(np.int32), weights=weights)


FLAT_FIELDS = ("attr", "thr", "nb", "cstart", "counts", "label", "score")  # a FlatTree's arrays


def assert_same_arrays(one, other) -> None:
    """Two FlatTrees (the compiled builders') hold the same arrays and tests."""
    for field in FLAT_FIELDS:
        np.testing.assert_array_equal(getattr(one, field), getattr(other, field), err_msg=field)
    assert [repr(t) for t in one.tests] == [repr(t) for t in other.tests]
