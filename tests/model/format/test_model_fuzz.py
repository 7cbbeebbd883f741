"""Fuzzing the model reader: a mutated model or rule set gives a Tree (or RuleSet) or one ModelFormatError.

Mutations of the parsed document (keys deleted or renamed, values replaced by
other types, nested deeper, strings with quotes, newlines, non-ASCII and
escapes) and of its text (cut, a character added or lost), of shallow models
and of a 400-level one (past what ``json.loads`` reads, so the iterative
reader's path is fuzzed too). Whatever the reader accepts must round-trip:
written, read and written again, the same bytes; its rules can be extracted.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from trees import chain

from dtcli.errors import ModelFormatError
from dtcli.induction.rules import extract, prune_rules
from dtcli.model.format import parse as jsonparse
from dtcli.model.format import text as jsontext
from dtcli.model.format.model import dumps_model, loads_model
from dtcli.model.rules import RuleSet, dumps_rules
from helpers import SAMPLES, load

weird_text = st.text(alphabet=st.sampled_from(list('ab"\\\n\r\t,{}[]: é\u2028') + ["\x00", "\x1b", "😀"]), max_size=6)
values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**400), 10**400)
    | st.floats(allow_nan=True, allow_infinity=True)
    | weird_text
    | st.sampled_from(["leaf", "split", "numeric", "nominal", "subset", "<=", ">", "in", "not in", "Yes", "No"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(weird_text, inner, max_size=3),
    max_leaves=8,
)


def _models() -> list[str]:
    from trees import fit

    weather = load(SAMPLES / "weather.csv", "PlayTennis", ignore=("Day",))
    risk = load(SAMPLES / "risk.csv", "Risk", ignore=("Point",))
    trees = [fit(weather)[0], fit(risk, "cart")[0], fit(weather, "c45", prune="none")[0]]
    texts = [dumps_model(tree) for tree in trees + [chain(400)]]
    texts.append(dumps_rules(extract(trees[0])))
    texts.append(dumps_rules(prune_rules(extract(trees[0]), weather)[0]))
    return texts


MODELS = _models()


def positions(doc) -> list[tuple]:
    """Every (container, key) in the document, with a stack."""
    out, stack = [], [doc]
    while stack:
        node = stack.pop()
        keys = list(node) if isinstance(node, dict) else range(len(node)) if isinstance(node, list) else []
        for key in keys:
            out.append((node, key))
            stack.append(node[key])
    return out


def mutate(doc, data) -> None:
    where = positions(doc)
    if not where:
        return
    container, key = where[data.draw(st.integers(0, len(where) - 1))]
    action = data.draw(st.sampled_from(["delete", "replace", "nest", "rename", "duplicate", "string"]))
    if action == "delete":
        del container[key]
    elif action == "replace":
        container[key] = data.draw(values)
    elif action == "nest":
        for _ in range(data.draw(st.integers(1, 3))):
            container[key] = [container[key]] if data.draw(st.booleans()) else {"node": container[key]}
    elif action == "rename" and isinstance(container, dict):
        container[data.draw(weird_text)] = container.pop(key)
    elif action == "duplicate" and isinstance(container, list):
        container.insert(key, container[key])
    elif action == "string":
        container[key] = data.draw(weird_text) + str(container[key])[:3]


def accepts_or_refuses(text: str) -> None:
    try:
        model = loads_model(text, "m.json")
    except ModelFormatError:
        return
    if isinstance(model, RuleSet):
        written = dumps_rules(model)
        assert dumps_rules(loads_model(written)) == written
        return
    written = dumps_model(model)
    assert dumps_model(loads_model(written)) == written
    if not model.schema.is_regression:
        extract(model)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(MODELS), st.data())
def test_mutated_documents_are_read_or_refused(text, data):
    doc = jsonparse.loads(text, 10_000)
    for _ in range(data.draw(st.integers(1, 3))):
        mutate(doc, data)
    accepts_or_refuses(jsontext.dumps(doc, compact_from=data.draw(st.sampled_from([None, 3, 301]))))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(MODELS), st.data())
def test_mutated_text_is_read_or_refused(text, data):
    cut = data.draw(st.integers(0, len(text)))
    extra = data.draw(st.sampled_from(list(',:{}[]"\\ \nx0-') + ["NaN", "1e999", "\\ud800", "\\u0000"]))
    action = data.draw(st.sampled_from(["cut", "insert", "drop"]))
    changed = {"cut": text[:cut], "insert": text[:cut] + extra + text[cut:], "drop": text[:cut] + text[cut + 1 :]}
    accepts_or_refuses(changed[action])


def test_the_valid_models_round_trip():
    for text in MODELS:
        accepts_or_refuses(text)
        written = dumps_rules(loads_model(text)) if '"dtree-rules"' in text else dumps_model(loads_model(text))
        assert written == text
