"""Fixtures shared by all tests (helpers live in tests/helpers.py)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from helpers import SAMPLES, load


@pytest.fixture
def weather():
    """Mitchell's PlayTennis table (Day left out)."""
    return load(SAMPLES / "weather.csv", "PlayTennis", ignore=("Day",))


@pytest.fixture
def run(monkeypatch):
    """``run(*args, input=None)`` -> click Result (exit_code, stdout, stderr), in-process."""
    from dtcli.cli import cli

    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.delenv("NO_COLOR", raising=False)

    def invoke(*args, input=None):
        return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)

    return invoke
