"""``dtcli.diff`` gives ``dtree diff``'s outputs, with ``data`` as --data."""

from __future__ import annotations

import pytest

import dtcli
from helpers import SAMPLES, WEKA

DATA = WEKA / "data"


def saved(tmp_path, name, path, **options):
    target = str(tmp_path / name)
    dtcli.fit(path, **options).save(target)
    return target


@pytest.mark.parametrize(
    "path, one, two",
    [
        (SAMPLES / "weather.csv", {"ignore": "Day"}, {"ignore": "Day", "max_depth": 1}),
        (SAMPLES / "iris.csv", {"algorithm": "c45"}, {"algorithm": "cart", "max_depth": 3}),
        (DATA / "cpu.arff", {"algorithm": "cart", "max_depth": 3}, {"algorithm": "cart", "min_leaf": 20.0}),
        (DATA / "labor.arff", {"algorithm": "c45"}, {"algorithm": "c45", "no_prune": True}),
    ],
)
def test_diff_with_data_is_dtree_diff_data(run, tmp_path, path, one, two):
    a, b = saved(tmp_path, "a.json", path, **one), saved(tmp_path, "b.json", path, **two)
    for found in (dtcli.diff(a, b, data=str(path)), dtcli.diff(dtcli.load_model(a), dtcli.load_model(b), data=path)):
        for fmt, made in (("json", found.to_json), ("text", found.__str__)):
            result = run("diff", a, b, "--data", path, "-f", fmt)
            assert result.exit_code == (0 if found.equivalent else 1)
            assert made() == result.stdout
        assert "Agreement on" in found._repr_html_()
        assert 0 <= found.share <= 1


def test_rules_with_data_and_a_frame(run, tmp_path):
    pandas = pytest.importorskip("pandas")
    a = saved(tmp_path, "a.json", SAMPLES / "weather.csv", ignore="Day")
    rules = tmp_path / "rules.json"
    rules.write_text(dtcli.load_model(a).rules().to("json"))
    assert run("rules", a, "-f", "json").stdout == rules.read_text()
    shallow = dtcli.fit(SAMPLES / "weather.csv", ignore="Day", max_depth=1).rules()
    found = dtcli.diff(str(rules), shallow, data=SAMPLES / "weather.csv")
    framed = dtcli.diff(str(rules), shallow, data=pandas.read_csv(SAMPLES / "weather.csv"))
    assert found.agreement == {**framed.agreement, "data": str(SAMPLES / "weather.csv")}
    assert framed.agreement["data"] == "<DataFrame>" and found.agreement["same"] == 10


def test_diff_refusals(run, tmp_path):
    a = saved(tmp_path, "a.json", SAMPLES / "weather.csv", ignore="Day")
    b = saved(tmp_path, "b.json", DATA / "cpu.arff", algorithm="cart")
    result = run("diff", a, b, "--data", SAMPLES / "weather.csv")
    assert result.exit_code == 2
    with pytest.raises(dtcli.ParameterError) as error:
        dtcli.diff(a, b, data=SAMPLES / "weather.csv")
    assert result.stderr == f"Error: {error.value}\n"
    rules = dtcli.load_model(a).rules()
    with pytest.raises(dtcli.ParameterError, match=f"second is a rule set and {a} a tree"):
        dtcli.diff(a, rules)
    with pytest.raises(dtcli.ParameterError, match="unknown option 'max_depth'"):
        dtcli.diff(a, a, max_depth=2)
