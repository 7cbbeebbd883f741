"""The iterative JSON reader gives json.loads' values and errors, at any depth, up to its limit."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from trees import json_documents

from dtcli.model.format import parse as jsonparse

documents = json_documents(10**30)


def same(a, b) -> bool:
    """Equal values, NaN equal to NaN, and dict key order and int/float kinds alike."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def outcome(read, text: str):
    try:
        return "value", read(text)
    except json.JSONDecodeError as exc:
        return "error", (exc.msg, exc.pos, exc.lineno, exc.colno)


def check(text: str) -> None:
    expected = outcome(json.loads, text)
    found = outcome(lambda t: jsonparse.loads(t, 1000), text)
    assert expected[0] == found[0], (text, expected, found)
    if expected[0] == "value":
        assert same(expected[1], found[1]), text
    else:
        assert expected[1] == found[1], text


@settings(max_examples=150, deadline=None)
@given(documents, st.sampled_from([None, 0, 1, 2]))
def test_documents_read_as_json_loads_reads_them(doc, indent):
    check(json.dumps(doc, indent=indent, allow_nan=True))
    check(json.dumps(doc, ensure_ascii=False, separators=(",", ":")))


@settings(max_examples=250, deadline=None)
@given(documents, st.data())
def test_broken_documents_fail_as_json_loads_fails(doc, data):
    text = json.dumps(doc, indent=data.draw(st.sampled_from([None, 1])))
    cut = data.draw(st.integers(0, len(text)))
    inserted = data.draw(st.sampled_from(list(',:{}[]"\\ \n\tx01-.eE') + ["nul", "Infinit", "-I", "\x01", "\ufeff"]))
    check(text[:cut])  # truncated
    check(text[:cut] + inserted + text[cut:])  # a character too many
    check(text[:cut] + text[cut + 1 :])  # one too few


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "[1,]",
        '{"a":1,}',
        "[1 2]",
        '{"a" 1}',
        '{"a":}',
        "{a:1}",
        '"abc',
        "[1",
        '{"a":1',
        "1 2",
        "-",
        "-Inf",
        "01",
        "1.",
        "\ufeff[]",
        '"\x01"',
        '["\\x"]',
        '"\\ud800"',
        "[-Infinity, NaN, 1e400, -0.0, 1E+2]",
        "\u0661",
        "[true,fals]",
    ],
)
def test_hand_picked_texts(text):
    check(text)


def test_nesting_far_deeper_than_json_loads_reads():
    depth = 200_000
    text = "[" * depth + '{"k": [NaN]}' + "]" * depth
    with pytest.raises(RecursionError):
        json.loads(text)
    value = jsonparse.loads(text, depth + 2)
    for _ in range(depth):
        (value,) = value
    assert list(value) == ["k"] and math.isnan(value["k"][0])


def test_deeper_than_the_limit_is_refused_where_it_goes_past():
    with pytest.raises(jsonparse.TooDeep) as caught:
        jsonparse.loads("[" * 12 + "]" * 12, 10)
    assert caught.value.pos == 10 and caught.value.limit == 10  # the eleventh holding something
    assert jsonparse.loads("[" * 11 + "]" * 11, 10) == [[[[[[[[[[[]]]]]]]]]]]  # the eleventh empty
    with pytest.raises(jsonparse.TooDeep):
        jsonparse.loads('{"a":' * 11 + "1" + "}" * 11, 10)


def test_an_integer_longer_than_int_converts_is_a_decode_error():
    text = '{"n": ' + "7" * 5000 + "}"
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(json.JSONDecodeError) as caught:
        jsonparse.loads(text, 10)
    assert (caught.value.msg, caught.value.pos) == ("Number too long", 6)


def test_lone_surrogates_are_found_with_their_path():
    doc = json.loads('{"a": [1, {"b": "ok", "c": ["x", "\\udc80"]}], "d": "\\ud83d\\ude00"}')
    assert jsonparse.lone_surrogate(doc) == ["a", 1, "c", 1]
    assert jsonparse.lone_surrogate(json.loads('{"\\ud800": 1}')) == ["\ud800"]
    assert jsonparse.lone_surrogate(json.loads('{"d": "\\ud83d\\ude00 é"}')) is None
    assert not jsonparse.may_hold_surrogates('{"d": "é"}')
    assert not jsonparse.may_hold_surrogates('{"d": "\\u00e9"}')  # an escape of a whole character
    assert jsonparse.may_hold_surrogates('{"d": "\\u00e9\\uDC80"}')
    assert jsonparse.may_hold_surrogates('{"d": "\\ud800"}')
    assert jsonparse.may_hold_surrogates('{"d": "\udc80"}')  # read with surrogateescape
