"""The JSON model format: round trip, stable bytes, validation, frozen models."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from trees import case_table, fit, nominal_tables, shape

from dtcli.errors import ModelFormatError
from dtcli.induction.predict.apply import predict_proba
from dtcli.model.format.model import FORMAT, SCHEMA_VERSION, dumps_model, loads_model, tree_to_dict
from helpers import FIXTURES, SAMPLES, load

FROZEN = FIXTURES / "models" / "weather-id3-v1.json"


def test_round_trip_is_identical(weather):
    tree, _ = fit(weather)
    text = dumps_model(tree)
    again = loads_model(text)
    assert dumps_model(again) == text
    assert shape(again.root, again.classes) == shape(tree.root, tree.classes)
    assert np.array_equal(predict_proba(again, weather), predict_proba(tree, weather))


def test_top_level_fields(weather):
    doc = tree_to_dict(fit(weather)[0])
    assert doc["format"] == FORMAT == "dtree-model"
    assert doc["schema_version"] == SCHEMA_VERSION == 1
    assert doc["generator"].startswith("dtree ")
    assert doc["algorithm"] == "id3"
    assert doc["parameters"]["criterion"] == "gain"
    assert doc["training_data"]["rows"] == 14
    assert len(doc["training_data"]["sha256"]) == 64
    assert doc["schema"]["target"] == {"name": "PlayTennis", "classes": ["No", "Yes"]}
    assert [a["name"] for a in doc["schema"]["attributes"]] == ["Outlook", "Temperature", "Humidity", "Wind"]
    root = doc["root"]
    assert root["kind"] == "split" and root["test"] == {"kind": "nominal", "attribute": "Outlook"}
    assert root["counts"] == [5.0, 9.0] and root["label"] == "Yes"
    assert [b["value"] for b in root["branches"]] == ["Sunny", "Overcast", "Rain"]
    assert root["branches"][1]["node"] == {"kind": "leaf", "counts": [0.0, 4.0], "label": "Yes"}


def test_text_is_sorted_and_ends_with_newline(weather):
    text = dumps_model(fit(weather)[0])
    assert text.endswith("}\n")
    assert json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n" == text


def test_frozen_model_still_loads():
    tree = loads_model(FROZEN.read_text(), str(FROZEN))
    table = load(SAMPLES / "weather.csv", "PlayTennis", ignore=("Day",))
    assert (predict_proba(tree, table).argmax(axis=1) == table.y).all()


@settings(max_examples=50, deadline=None)
@given(nominal_tables())
def test_round_trip_property(case):
    _, _, labels, _ = case
    if len(set(labels)) < 2:
        return
    table = case_table(case)
    tree, _ = fit(table)
    text = dumps_model(tree)
    assert dumps_model(loads_model(text)) == text


def damaged(mutate):
    doc = json.loads(FROZEN.read_text())
    mutate(doc)
    return json.dumps(doc)


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "invalid JSON at line 1"),
        ("[1, 2]", 'no "format": "dtree-model"'),
        ('{"format": "sklearn"}', 'no "format"'),
        (damaged(lambda d: d.update(schema_version=99)), "schema_version 99 is not supported"),
        (damaged(lambda d: d.pop("root")), "root: missing"),
        (damaged(lambda d: d["root"].update(counts=[1.0])), "root.counts: expected 2 non-negative numbers"),
        (damaged(lambda d: d["root"].update(counts=[-1.0, 2.0])), "root.counts"),
        (damaged(lambda d: d["root"].update(kind="magic")), "root.kind: unknown node kind 'magic'"),
        (damaged(lambda d: d["root"].update(label="Maybe")), "root.label: 'Maybe' is not one of the classes"),
        (
            damaged(lambda d: d["root"]["test"].update(attribute="Nope")),
            "root.test.attribute: 'Nope' is not in the schema",
        ),
        (damaged(lambda d: d["root"]["test"].update(kind="oblique")), "root.test.kind: unknown test kind"),
        (damaged(lambda d: d["root"]["branches"].pop()), "root.branches: expected one branch per value"),
        (damaged(lambda d: d["root"]["branches"][0]["node"].pop("label")), "root.branches[0].node.label: missing"),
        (
            damaged(lambda d: d["schema"]["attributes"][0].update(kind="date")),
            "schema.attributes[0].kind: unknown kind",
        ),
        (damaged(lambda d: d["schema"]["attributes"][1].update(name="Outlook")), "duplicate attribute 'Outlook'"),
        (damaged(lambda d: d["schema"]["target"].update(classes=["No", "No"])), "schema.target.classes: values repeat"),
        (
            damaged(lambda d: d["schema"]["target"].update(name="Wind")),
            "schema.target.name: 'Wind' is also an attribute",
        ),
        (
            FROZEN.read_text().replace('"score": 0.2467', '"score": NaN, "x": 0.2467'),
            "root.score: expected a finite number",
        ),
    ],
)
def test_validation_names_the_problem(text, message):
    with pytest.raises(ModelFormatError) as info:
        loads_model(text, "m.json")
    assert str(info.value).startswith("m.json: ")
    assert message in str(info.value)


def test_models_from_before_the_per_node_fill_keep_their_meaning():
    """A file without ``zero_gain`` was written when ``--missing majority`` filled the whole table
    once (ID3, C4.5): it loads as ``root-majority``, so regrowing it gives its own tree again, and
    it predicts as before (every fill-in policy sends a missing value down the heaviest branch).
    CART's ``majority`` (the heavier branch) and new files keep their names."""
    from dtcli.induction.algorithms import regrow
    from dtcli.model.table import NOMINAL, Attribute, Schema, Table

    codes = {  # tests/induction/grow/test_missing_fill.py's table worked by hand
        "A": [0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2],
        "B": [0, 0, 1, 1, 0, -1, 0, 1, 0, 0, 0, 0],
        "C": [0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1],
    }
    schema = Schema(tuple(Attribute(n, NOMINAL, ("u", "v", "w")) for n in codes), Attribute("y", NOMINAL, ("x", "z")))
    y = np.array([0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1], dtype=np.int32)
    table = Table(schema, [np.array(c, dtype=np.int32) for c in codes.values()], y)
    for policy in ("majority", "class-majority"):
        grown, _ = fit(table, missing=f"root-{policy}")
        doc = json.loads(dumps_model(grown))
        del doc["parameters"]["zero_gain"]
        doc["parameters"]["missing"] = policy
        old = loads_model(json.dumps(doc))
        assert old.parameters["missing"] == f"root-{policy}"
        assert shape(regrow(old, table), old.classes) == shape(grown.root, grown.classes)
        assert np.array_equal(predict_proba(old, table), predict_proba(grown, table))
        new, _ = fit(table, missing=policy)
        assert shape(new.root, new.classes) != shape(grown.root, grown.classes)
        assert loads_model(dumps_model(new)).parameters["missing"] == policy
    cart = json.loads(dumps_model(fit(table, "cart")[0]))
    del cart["parameters"]["zero_gain"]
    assert loads_model(json.dumps(cart)).parameters["missing"] == "majority"
