"""The fast JSON writer gives exactly the standard library's indented output."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.model import jsontext
from dtcli.model.serialize import tree_to_dict
from helpers import WEKA, load

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
)
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
)


def reference(obj) -> str:
    return json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False)


@settings(max_examples=300, deadline=None)
@given(documents)
def test_same_text_as_the_standard_library(doc):
    assert jsontext.dumps(doc) == reference(doc)


def test_same_text_for_models():
    from trees import fit

    for name in ("weather.nominal", "labor", "soybean"):
        tree, _ = fit(load(WEKA / "data" / f"{name}.arff"), "c45")
        doc = tree_to_dict(tree)
        assert jsontext.dumps(doc) == reference(doc)


def test_unusual_keys_and_tuples():
    doc = {"b": (1, 2.5, float("nan")), "a": {"é": '\u2028 "quoted" \\ \n'}, "": []}
    assert jsontext.dumps(doc) == reference(doc)


@settings(max_examples=200, deadline=None)
@given(documents, st.integers(1, 5))
def test_streamed_in_parts_gives_the_same_text(doc, chunk):
    parts: list[str] = []
    jsontext.dump(doc, parts.append, chunk=chunk)
    assert "".join(parts) == reference(doc)
    assert all(parts)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=6))
def test_lists_of_floats(values):
    assert jsontext.dumps({"counts": values}) == reference({"counts": values})


def test_lazy_values_are_written_as_what_they_make():
    doc = {"root": jsontext.Lazy(lambda: {"b": [1.0, 2.0], "a": jsontext.Lazy(lambda: ["x"])})}
    assert jsontext.dumps(doc) == reference({"root": {"b": [1.0, 2.0], "a": ["x"]}})


def test_model_written_in_parts_is_the_model_text(tmp_path):
    from trees import fit

    from dtcli.model.serialize import dump_model, dumps_model

    tree, _ = fit(load(WEKA / "data" / "soybean.arff"), "c45")
    parts: list[str] = []
    dump_model(tree, parts.append)
    assert "".join(parts) == dumps_model(tree) == reference(tree_to_dict(tree)) + "\n"
    small: list[str] = []
    jsontext.dump(tree_to_dict(tree, lazy=True), small.append, chunk=3)
    assert len(small) > 10 and "".join(small) + "\n" == "".join(parts)


def test_subclasses_of_the_json_types():
    import collections

    import numpy as np

    doc = collections.OrderedDict(b=np.float64(0.5), a=[3, True, None])
    assert jsontext.dumps(doc) == reference({"b": 0.5, "a": [3, True, None]})
