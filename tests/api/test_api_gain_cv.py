"""``dtcli.gain`` and ``dtcli.cross_validate`` give the documents ``dtree gain`` and ``dtree evaluate --cv`` write."""

from __future__ import annotations

import pytest

import dtcli
from helpers import SAMPLES, WEKA

GAINS = [
    (SAMPLES / "weather.csv", {"ignore": "Day"}, []),
    (SAMPLES / "weather.csv", {"ignore": "Day", "where": ["Outlook=Sunny"]}, []),
    (SAMPLES / "weather.csv", {"ignore": "Day", "where": "Humidity=High"}, []),  # off the tree's path: a note
    (SAMPLES / "iris.csv", {"algorithm": "c45"}, []),
    (WEKA / "data" / "labor.arff", {"algorithm": "c45", "where": ["duration=2"]}, []),
    (WEKA / "data" / "vote.arff", {"algorithm": "c45", "min_leaf": 5}, []),
]


def gain_args(options: dict) -> list[str]:
    args = []
    for name, value in options.items():
        flag = {"where": "-w", "algorithm": "-a"}.get(name, "--" + name.replace("_", "-"))
        for item in [value] if isinstance(value, (str, int)) else value:
            args += [flag, str(item)]
    return args


@pytest.mark.parametrize("path, options, extra", GAINS)
def test_gain_is_dtree_gains_document(run, path, options, extra):
    result = run("gain", path, "-f", "json", *gain_args(options))
    assert result.exit_code == 0
    table = dtcli.gain(path, **options)
    assert table.to_json() == result.stdout
    assert [r["name"] for r in table.records()] == [a.name for a in table.report.attributes]
    assert "<table>" in table._repr_html_()


def test_gain_refuses_what_it_cannot_do():
    with pytest.raises(dtcli.ParameterError, match="'Outlook' has no value 'Snow'"):
        dtcli.gain(SAMPLES / "weather.csv", ignore="Day", where="Outlook=Snow")


@pytest.mark.parametrize(
    "path, algorithm, folds, options",
    [
        (SAMPLES / "iris.csv", "c45", 5, {}),
        (SAMPLES / "weather.csv", "id3", 3, {"ignore": "Day", "seed": 2}),
        (WEKA / "data" / "cpu.arff", "cart", 4, {"min_leaf": 4.0}),
    ],
)
def test_cross_validate_is_dtree_evaluates_document(run, path, algorithm, folds, options):
    args = ["--ignore", "Day"] if "ignore" in options else []
    args += ["--seed", str(options["seed"])] if "seed" in options else []
    args += ["-m", "4"] if "min_leaf" in options else []
    result = run("evaluate", path, "-a", algorithm, "--cv", folds, "-f", "json", "--jobs", "1", *args)
    assert result.exit_code == 0
    report = dtcli.cross_validate(str(path), algorithm=algorithm, folds=folds, **options)
    assert report.to_json() == result.stdout
    assert "<table>" in report._repr_html_()


def test_diff_is_dtree_diffs_document(run, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    dtcli.fit(SAMPLES / "weather.csv", ignore="Day").save(a)
    dtcli.fit(SAMPLES / "weather.csv", ignore="Day", algorithm="c45", no_prune=True, min_leaf=3.0).save(b)
    for fmt in ("json", "text"):
        result = run("diff", a, b, "-f", fmt)
        assert result.exit_code == 1
        found = dtcli.diff(str(a), str(b))
        assert (found.to_json() if fmt == "json" else found.text) == result.stdout
    assert not dtcli.diff(dtcli.load_model(a), str(a))
    with pytest.raises(dtcli.ParameterError, match="--tolerance must be 0 or more"):
        dtcli.diff(str(a), str(b), tolerance=-1)
