"""A set of nominal values prints each value so that the set reads back as those values."""

from __future__ import annotations

import csv
import io

from hypothesis import given
from hypothesis import strategies as st

from dtcli.model.value_text import value_set


def members(text: str) -> list[str]:
    """The values of a printed set, read back as CSV with a blank after each comma."""
    inner = text[1:-1]
    return next(csv.reader(io.StringIO(inner), skipinitialspace=True)) if inner else []


def test_plain_values_print_as_they_are_and_others_are_quoted():
    assert value_set(["Sunny", "Rain"]) == "{Sunny, Rain}"
    assert value_set(["Smith, John", "Doe"]) == '{"Smith, John", Doe}'
    assert value_set(['say "hi"', " padded", "{x}", ""]) == '{"say ""hi""", " padded", "{x}", ""}'


@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1), min_size=1))
def test_a_printed_set_reads_back_as_its_values(values):
    assert members(value_set(values)) == values
