"""Shared helpers: paths to sample data and fixtures, and loading tables."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
WEKA = FIXTURES / "weka"


def load(path, target=None, ignore=(), nominal=()):
    """A training Table from a file, through the real readers."""
    from dtcli.io.encode import infer_table
    from dtcli.io.read import read_data

    return infer_table(read_data(str(path)), target, ignore, nominal)


@pytest.fixture
def weather():
    return load(SAMPLES / "weather.csv", "PlayTennis", ignore=("Day",))
