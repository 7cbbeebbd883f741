"""The fast JSON writer gives exactly the standard library's indented output."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.model import jsontext
from dtcli.model.serialize import tree_to_dict
from helpers import load, WEKA

scalars = (st.none() | st.booleans() | st.integers(-10**20, 10**20)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8))
documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=30)


def reference(obj) -> str:
    return json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False)


@settings(max_examples=300, deadline=None)
@given(documents)
def test_same_text_as_the_standard_library(doc):
    assert jsontext.dumps(doc) == reference(doc)


def test_same_text_for_models():
    from dtcli.induction.algorithms import train

    for name in ("weather.nominal", "labor", "soybean"):
        tree, _ = train(load(WEKA / "data" / f"{name}.arff"), "c45")
        doc = tree_to_dict(tree)
        assert jsontext.dumps(doc) == reference(doc)


def test_unusual_keys_and_tuples():
    doc = {"b": (1, 2.5, float("nan")), "a": {"é": "\u2028 \"quoted\" \\ \n"}, "": []}
    assert jsontext.dumps(doc) == reference(doc)
