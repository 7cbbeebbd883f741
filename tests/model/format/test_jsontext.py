"""The fast JSON writer gives exactly the standard library's indented output."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from trees import json_documents

from dtcli.model.format import parse as jsonparse
from dtcli.model.format import text as jsontext
from dtcli.model.format.model import tree_to_dict
from helpers import WEKA, load

documents = json_documents(10**20)


def reference(obj) -> str:
    return json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False)


@settings(max_examples=150, deadline=None)
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


@settings(max_examples=100, deadline=None)
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

    from dtcli.model.format.model import INDENTED_DEPTH, dump_model, dumps_model

    tree, _ = fit(load(WEKA / "data" / "soybean.arff"), "c45")  # 12 levels: the last ones compact
    parts: list[str] = []
    dump_model(tree, parts.append)
    compact_from = 1 + 3 * INDENTED_DEPTH  # the JSON level of the nodes INDENTED_DEPTH down
    expected = jsontext.dumps(tree_to_dict(tree), compact_from=compact_from) + "\n"
    assert "".join(parts) == dumps_model(tree) == expected
    assert json.loads(expected) == json.loads(reference(tree_to_dict(tree)))
    small: list[str] = []
    jsontext.dump(tree_to_dict(tree, lazy=True), small.append, chunk=3, compact_from=compact_from)
    assert len(small) > 10 and "".join(small) + "\n" == "".join(parts)


def test_subclasses_of_the_json_types():
    import collections

    import numpy as np

    doc = collections.OrderedDict(b=np.float64(0.5), a=[3, True, None])
    assert jsontext.dumps(doc) == reference({"b": 0.5, "a": [3, True, None]})


def test_any_depth_is_written_and_nesting_json_dumps_reaches_is_the_same():
    deep = inner = []
    for _ in range(900):  # json.dumps (indent) reaches about 990 levels
        inner.extend([[], 1.0, {"k": "v"}])
        inner = inner[0]
    assert jsontext.dumps(deep) == reference(deep)
    for _ in range(200_000 - 900):
        inner.append([])
        inner = inner[0]
    text = jsontext.dumps(deep, compact_from=10)
    assert len(text) < 1_000_000  # indented, the 200,000 levels would take 40 GB
    # lists at levels 0-9 indented: a line break after "[", between their 3 items and before "]";
    # the dicts in them at levels 1-9 two more each; everything from level 10 on one line
    assert text.count("\n") == 10 * 4 + 9 * 2
    value = jsonparse.loads(text, 300_000)
    for _ in range(200_000):  # the outer list, 900 levels with items, 199,100 with one list each
        value = value[0]
    assert value == []


@settings(max_examples=100, deadline=None)
@given(documents, st.integers(0, 4))
def test_compact_below_a_level_is_the_same_document(doc, level):
    text = jsontext.dumps(doc, compact_from=level)
    assert json.dumps(json.loads(text), sort_keys=True) == json.dumps(doc, sort_keys=True)
    compact = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert jsontext.dumps(doc, compact_from=0) == compact
    assert jsontext.dumps(doc, compact_from=100) == reference(doc)
