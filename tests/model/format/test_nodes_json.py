"""The fast node reader (dtcli/model/format/nodes.py) gives what the validating reader gives.

Models of every kind of node and test (nominal, numeric and subset tests,
scores, regression nodes, a 400-level chain), as written and mutated the way
tests/model/format/test_model_fuzz.py mutates them: read with the fast reader (the
default) and with the validating one alone (``fast=False``), the outcome must be
the same, the same tree (written out, the same bytes; counts the same arrays) or
the same one-line error. The fast reader must also take the models as written
(else the speed would be lost without a test failing), and leave to the
validating reader what it does not expect (integer counts) rather than refuse it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_model_fuzz import mutate
from trees import chain, fit

from dtcli.errors import ModelFormatError
from dtcli.model.format import nodes as nodes_json
from dtcli.model.format import parse as jsonparse
from dtcli.model.format.model import (
    INDENTED_DEPTH,
    MAX_DEPTH,
    dumps_model,
    loads_document,
    tree_from_dict,
    tree_to_dict,
)
from dtcli.model.tree import Tree
from helpers import SAMPLES, load


def _documents() -> list[dict]:
    weather = load(SAMPLES / "weather.csv", "PlayTennis", ignore=("Day",))
    lenses = load(SAMPLES / "contact-lenses.csv")
    iris = load(SAMPLES / "iris.csv")
    width = load(SAMPLES / "iris.csv", "petalwidth", task="regression")
    trees = [
        fit(weather)[0],
        fit(weather, "c45", prune="none")[0],
        fit(lenses, "cart")[0],
        fit(iris, "cart")[0],
        fit(width, "cart")[0],
        chain(400),
    ]
    return [dumps_model(tree) for tree in trees]


TEXTS = _documents()


def parse(text: str):
    """A fresh parsed copy (``json.loads`` and ``copy.deepcopy`` recurse: the chain is too deep)."""
    return jsonparse.loads(text, 10_000)


def outcome(doc, fast: bool):
    """What reading ``doc`` gives: the tree written out with its count arrays, or the error."""
    try:
        tree = tree_from_dict(doc, "m.json", fast=fast)
    except ModelFormatError as exc:
        return "error", str(exc)
    if not isinstance(tree, Tree):
        return "rules", None
    counts = [(node.counts.dtype, node.counts.shape, node.counts.tolist()) for node in tree.root.walk()]
    return dumps_model(tree), counts


@pytest.mark.parametrize("text", TEXTS, ids=["id3", "c45", "cart-lenses", "cart-iris", "regression", "chain"])
def test_models_as_written_are_read_fast_and_the_same(text):
    doc = parse(text)
    reader_schema = tree_from_dict(doc).schema
    assert nodes_json.read_nodes(doc["root"], reader_schema, MAX_DEPTH) is not None
    assert outcome(doc, True) == outcome(doc, False)


def test_what_it_does_not_expect_is_left_to_the_validating_reader():
    doc = parse(TEXTS[0])
    doc["root"]["counts"] = [5, 9]  # integers: valid, but not what dtree writes
    schema = tree_from_dict(doc).schema
    assert nodes_json.read_nodes(doc["root"], schema, MAX_DEPTH) is None
    assert outcome(doc, True) == outcome(doc, False)
    assert tree_from_dict(doc).root.counts.tolist() == [5.0, 9.0]


def test_a_tree_one_level_too_deep_is_refused_as_before():
    doc = parse(dumps_model(chain(3)))
    schema = tree_from_dict(doc).schema
    assert nodes_json.read_nodes(doc["root"], schema, 3) is not None
    assert nodes_json.read_nodes(doc["root"], schema, 2) is None


def test_counts_are_float_arrays_with_the_values_written():
    doc = parse(TEXTS[3])
    nodes = list(tree_from_dict(doc).root.walk())
    assert all(node.counts.dtype == np.float64 and node.counts.shape == (3,) for node in nodes)
    assert nodes[0].counts.tolist() == doc["root"]["counts"]
    before = nodes[1].counts.tolist()
    nodes[0].counts += 1.0  # a node's counts are its own (pruning may change them)
    assert nodes[1].counts.tolist() == before


@settings(max_examples=250, deadline=None)
@given(st.sampled_from(TEXTS), st.data())
def test_mutated_models_give_the_same_tree_or_the_same_error(text, data):
    doc = parse(text)
    for _ in range(data.draw(st.integers(1, 3))):
        mutate(doc, data)
    assert outcome(doc, True) == outcome(doc, False)


def test_a_surrogate_in_a_label_is_still_found_before_the_tree_is_read():
    text = TEXTS[0].replace('"label": "No"', '"label": "N\\udc80"', 1)
    with pytest.raises(ModelFormatError, match="lone surrogate"):
        loads_document(text, "m.json")


INF, NAN = float("inf"), float("nan")
EDITS = [  # (model, field of its split_below, the field's new value)
    (0, "score", INF),
    (0, "score", NAN),
    (0, "score", 1),
    (0, "score", True),
    (0, "score", None),
    (0, "kind", "Leaf"),
    (0, "label", "Maybe"),
    (0, "label", 1),
    (0, "counts", [1.0, True]),
    (0, "counts", [1.0, -1.0]),
    (0, "counts", [1.0, -0.0]),
    (0, "counts", [1.0, NAN]),
    (0, "counts", [1.0, 10**400]),
    (0, "counts", [1.0]),
    (0, "counts", "ab"),
    (0, "branches", []),
    (0, "test", {"kind": "nominal", "attribute": "Temperature"}),
    (0, "test", {"kind": "nominal", "attribute": "Nope"}),
    (0, "test", {"kind": "numeric", "attribute": "Outlook", "threshold": 1.0}),
    (2, "test", {"kind": "subset", "attribute": "astigmatism", "values": ["yes"]}),
    (2, "test", {"kind": "subset", "attribute": "astigmatism", "values": ["no", "no"]}),
    (2, "test", {"kind": "subset", "attribute": "astigmatism", "values": []}),
    (2, "test", {"kind": "subset", "attribute": "astigmatism", "values": ["maybe"]}),
    (2, "test", {"kind": "subset", "attribute": "astigmatism", "values": "no"}),
    (2, "test", {"kind": "subset", "attribute": "astigmatism", "values": [1]}),
    (2, "test", {"kind": "subset", "attribute": "astigmatism"}),
    (2, "test", {"kind": "Subset", "attribute": "astigmatism", "values": ["no"]}),
    (3, "test", {"kind": "numeric", "attribute": "petalwidth", "threshold": INF}),
    (3, "test", {"kind": "numeric", "attribute": "petalwidth", "threshold": 2}),
    (3, "test", {"kind": "numeric", "attribute": "petalwidth", "threshold": "2"}),
    (3, "test", {"kind": "numeric", "attribute": "class", "threshold": 2.0}),
    (4, "weight", -1.0),
    (4, "weight", -0.0),
    (4, "weight", 3),
    (4, "weight", NAN),
    (4, "value", INF),
    (4, "value", True),
    (4, "impurity", -1e-300),
    (4, "impurity", None),
]


def split_below(doc: dict) -> dict:
    """The split at the root's second branch, else the root."""
    node = doc["root"]["branches"][1]["node"]
    return doc["root"] if node["kind"] == "leaf" else node


@pytest.mark.parametrize(("model", "key", "value"), EDITS)
def test_a_damaged_field_gives_the_same_outcome(model, key, value):
    doc = parse(TEXTS[model])
    split_below(doc)[key] = value
    assert outcome(doc, True) == outcome(doc, False)
    doc = parse(TEXTS[model])
    del split_below(doc)[key]
    assert outcome(doc, True) == outcome(doc, False)


def odd_names_tree() -> Tree:
    """A tree whose names need escapes: quotes, backslashes, control and non-ASCII characters;
    a split without a score; a threshold of -0.0; counts NaN and -inf."""
    from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema
    from dtcli.model.tree import Node, NominalTest, NumericTest, SubsetTest

    a = Attribute('a"\\\n é', NOMINAL, ("x\u2028", "y\x1b😀", 'z"'))
    b = Attribute("b\t", NUMERIC)
    target = Attribute("t", NOMINAL, ('k"0', "k\\1"))
    leaf = [Node(np.array([float(i), 0.5]), i % 2) for i in range(6)]
    leaf[4].counts = np.array([np.nan, -np.inf])  # no model holds them, but they are written as json.dumps does
    inner = Node(np.array([1.0, 2.0]), 1, SubsetTest(a, ("x\u2028", 'z"')), leaf[3:5], score=None)
    numeric = Node(np.array([1.0, 2.0]), 0, NumericTest(b, -0.0), [leaf[2], inner], score=1e-300)
    root = Node(np.array([3.0, 4.0]), 1, NominalTest(a), [leaf[0], numeric, leaf[1]], score=0.25)
    return Tree(Schema((a, b), target), root, "c45", {})


@pytest.mark.parametrize("which", [*range(len(TEXTS)), "odd"])
def test_a_nodes_compact_text_is_what_json_dumps_writes(which):
    tree = odd_names_tree() if which == "odd" else tree_from_dict(parse(TEXTS[which]))
    expected = json.dumps(
        tree_to_dict(tree)["root"] if which != 5 else tree_to_dict(chain(50))["root"],
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    root = chain(50).root if which == 5 else tree.root  # json.dumps recurses: a shorter chain
    assert nodes_json.node_text(root, tree.schema.classes) == expected


def test_nodes_ten_levels_down_are_written_on_one_line_with_their_subtree():
    shallow, deep = dumps_model(chain(INDENTED_DEPTH + 1)), dumps_model(chain(INDENTED_DEPTH + 40))
    assert len(shallow.splitlines()) == len(deep.splitlines())  # the 40 more levels: no more lines
    assert jsonparse.loads(deep, 10_000) == json.loads(json.dumps(tree_to_dict(chain(INDENTED_DEPTH + 40))))
    nine = dumps_model(chain(INDENTED_DEPTH - 1))  # shallower: json.dumps' layout
    assert nine == json.dumps(json.loads(nine), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    indent = " " * 2 * (3 * INDENTED_DEPTH + 1)  # of the keys of a branch of depth 9
    deepest = [line.strip() for line in deep.splitlines() if line.startswith(indent)]
    assert deepest == [
        '"node": {"counts":[1.0,0.0],"kind":"leaf","label":"a"},',  # a leaf at depth 10, compact
        '"value": "<="',
        deepest[2],  # the split at depth 10: compact, on one line with the 40 levels below it
        '"value": ">"',
    ]
    assert deepest[2].startswith('"node": {"branches":[{"node":{"counts":[1.0,0.0],"kind":"leaf"')
