"""The examples in the Python API's docstrings (dtcli.api, dtcli.sklearn) run and print what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

from helpers import ROOT

MODULES = ["dtcli.api", "dtcli.api.model", "dtcli.api.rules", "dtcli.api.data", "dtcli.api.options", "dtcli.api.gain",
           "dtcli.api.evaluation", "dtcli.api.diff", "dtcli.api.pruning"]  # fmt: skip
ESTIMATORS = ["dtcli.sklearn", "dtcli.sklearn.base", "dtcli.sklearn.estimators"]


@pytest.mark.parametrize("name", MODULES + ESTIMATORS)
def test_docstring_examples(name, monkeypatch):
    if name in ESTIMATORS:
        pytest.importorskip("sklearn")
    monkeypatch.chdir(ROOT)  # the examples read sample_data/
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_every_public_name_has_a_docstring_with_an_example():
    import dtcli.api
    import dtcli.sklearn

    lacking = []
    for module in (dtcli.api, dtcli.sklearn):
        for name in module.__all__:
            item = getattr(module, name)
            if isinstance(item, type) and issubclass(item, Exception | Warning):
                continue
            if ">>>" not in (item.__doc__ or ""):
                lacking.append(f"{module.__name__}.{name}")
    assert not lacking


def test_man_page_examples_run_as_shown(tmp_path, monkeypatch):
    pytest.importorskip("sklearn")
    import shutil

    page = (ROOT / "man" / "dtree-python.7").read_text()
    block = page.split(".SH EXAMPLES\n.nf\n", 1)[1].split("\n.fi", 1)[0].replace("\\-", "-")
    shutil.copytree(ROOT / "sample_data", tmp_path / "sample_data")
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(block, {}, "dtree-python.7", "dtree-python.7", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert (tmp_path / "weather.json").exists()
