"""The flat node reader (dtcli/model/format/flat.py) accepts what the fast node reader accepts, and the same tree.

On the models tests/model/test_nodes_json.py reads (every kind of node and test) and on those
mutated as it mutates them: ``read_flat`` gives None exactly when ``nodes_json.read_nodes``
does, and otherwise the tree it builds (``FlatNodes.nodes``) writes out to the same bytes with
the same count arrays; the arrays are breadth first (each split's children consecutive).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_model_fuzz import mutate
from test_nodes_json import TEXTS, parse

from dtcli.errors import ModelFormatError
from dtcli.model.format import flat as flat_json
from dtcli.model.format import nodes as nodes_json
from dtcli.model.format.model import MAX_DEPTH, dumps_model, tree_from_dict
from dtcli.model.tree import Tree


def same(doc) -> None:
    """``read_flat`` and ``read_nodes`` agree on ``doc``: both None, or the same tree."""
    try:
        schema = tree_from_dict(doc, fast=False).schema
    except ModelFormatError:
        return
    if not isinstance(doc.get("root"), dict):
        return
    fast = nodes_json.read_nodes(doc["root"], schema, MAX_DEPTH)
    flat = flat_json.read_flat(doc["root"], schema, MAX_DEPTH)
    assert (fast is None) == (flat is None)
    if flat is None:
        return
    made = Tree(schema, flat.nodes(), "x", {}, {})
    model = Tree(schema, fast, "x", {}, {})
    assert dumps_model(made) == dumps_model(model)
    assert [n.counts.tolist() for n in made.root.walk()] == [n.counts.tolist() for n in model.root.walk()]


@pytest.mark.parametrize("text", TEXTS, ids=["id3", "c45", "cart-lenses", "cart-iris", "regression", "chain"])
def test_models_as_written_are_read_flat_and_the_same(text):
    doc = parse(text)
    same(doc)
    flat = flat_json.read_flat(doc["root"], tree_from_dict(doc).schema, MAX_DEPTH)
    assert flat is not None
    n = len(flat.kind)
    children = np.diff(np.append(flat.cstart, n))
    assert children[0] == len(doc["root"].get("branches", []))
    assert (flat.parent[1:] >= 0).all() and np.array_equal(np.sort(flat.parent[1:]), flat.parent[1:])  # breadth first
    assert all(flat.cstart[flat.parent[i]] <= i for i in range(1, n))


def test_a_model_file_loads_flat_for_prediction_and_makes_its_tree():
    doc = parse(TEXTS[2])
    loaded = tree_from_dict(doc, flat=True)
    assert isinstance(loaded, flat_json.FlatTree) and loaded.classes == tree_from_dict(doc).classes
    assert dumps_model(loaded.tree()) == dumps_model(tree_from_dict(doc))


def test_a_tree_one_level_too_deep_is_left_to_the_usual_reader():
    doc = parse(TEXTS[5])
    schema = tree_from_dict(doc).schema
    assert flat_json.read_flat(doc["root"], schema, 400) is not None
    assert flat_json.read_flat(doc["root"], schema, 399) is None


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(TEXTS), st.data())
def test_mutated_models_are_read_flat_exactly_when_read_fast(text, data):
    doc = parse(text)
    for _ in range(data.draw(st.integers(1, 3))):
        mutate(doc, data)
    same(doc)
