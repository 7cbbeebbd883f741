"""``dtree gain``'s plain path (plain/gain.py) writes what the full path writes, byte for byte.

The full path (numpy: io.read, encode, explain/report.py) is the reference: every run here is made twice,
with ``DTREE_PLAIN=0`` (the full path) and without (the plain path where the file and options allow it),
and exit code, standard output and standard error must be equal. The sample data and the seeds' options
first, each checked to take the plain path; then generated tables (hypothesis) with every kind of cell the
readers know: missing markers, spaces, infinities, -0, values 1e-5 apart, numbers as class labels, CRLF
and blank lines, other separators; then files and options that must take the full path, with its errors
and warnings. The plain path is taken only where numpy's logarithm is ``math.log``; elsewhere the checks
that it is taken are skipped (the equality still holds: both runs take the full path).
"""

from __future__ import annotations

import math
import os
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from dtcli.plain import gain as gain_plain
from helpers import SAMPLES

PLAIN_HERE = gain_plain.same_logarithm()


@pytest.fixture
def both(run, monkeypatch):
    """``both(*args)`` -> (the plain path's result, whether it was taken), after checking that the full
    path's result is the same."""
    import dtcli.cli.gain as gain_command

    taken = []

    def recording(*args, **kwargs):
        taken.append(gain_plain.plain_gain(*args, **kwargs))
        return taken[-1]

    monkeypatch.setattr(gain_command, "plain_gain", recording)

    def invoke(*args):
        monkeypatch.setenv("DTREE_PLAIN", "0")
        full = run(*args)
        monkeypatch.delenv("DTREE_PLAIN")
        taken.clear()
        plain = run(*args)
        assert (plain.exit_code, plain.stdout, plain.stderr) == (full.exit_code, full.stdout, full.stderr), args
        return plain, bool(taken and taken[-1] is not None)

    return invoke


SAMPLE_RUNS = [
    ("weather.csv", "--ignore", "Day"),
    ("weather.csv",),  # Day looks like an identifier: the warning
    ("weather.csv", "--ignore", "Day", "-f", "json", "-w", "Outlook=Sunny"),
    ("weather.csv", "--ignore", "Day", "-f", "csv", "-c", "gain-ratio", "-w", "Outlook!=Rain", "-w", "Wind=Weak"),
    ("weather.csv", "--ignore", "Day", "-c", "gini", "-q"),
    ("weather-numeric.csv", "--thresholds-all"),
    ("weather-numeric.csv", "--thresholds", "data", "-f", "json", "--thresholds-all"),
    ("weather-numeric.csv", "-w", "Temperature>70", "-w", "Humidity<=90", "-f", "csv"),
    ("temperature.csv", "--thresholds-all", "-f", "json"),
    ("iris.csv", "--thresholds", "data", "-c", "gain-ratio"),
    ("iris.csv", "-f", "json", "--thresholds-all", "-c", "entropy"),
    ("restaurant.csv", "--thresholds-all"),
    ("restaurant.csv", "-f", "json", "-c", "gain-ratio"),
    ("risk.csv", "-f", "csv"),
    ("contact-lenses.csv", "-c", "gain-ratio"),
    ("contact-lenses.csv", "-f", "json", "-w", "tear-prod-rate=normal"),
]


@pytest.mark.parametrize("args", SAMPLE_RUNS, ids=" ".join)
def test_sample_data_the_same_either_way(both, args):
    result, plain = both("gain", SAMPLES / args[0], *args[1:])
    assert result.exit_code == 0
    if PLAIN_HERE:
        assert plain, "the plain path was not taken"


def test_the_identifier_warning_the_same(both):
    result, plain = both("gain", SAMPLES / "weather.csv")
    assert "column Day has 14 different values in 14 rows" in result.stderr
    assert plain or not PLAIN_HERE


def test_the_average_gain_rule_with_its_slack(both, tmp_path):
    """Gain ratio among the attributes whose gain is at least the average less 1e-3 (J48): here a0's
    gain (0.18255) is 0.0009 below the average and its ratio the best, so a0 is chosen (found by
    search: without the slack a1 would be)."""
    path = tmp_path / "slack.csv"
    path.write_text(
        "a0,a1,class\nv0,w2,yes\nv0,w2,no\nv1,w1,no\nv1,w0,yes\nv1,w2,yes\nv1,w0,yes\nv1,w2,yes\nv1,w1,yes\nv1,w0,yes\nv0,w1,no\nv1,w0,yes\nv0,w0,no\nv1,w1,no\n"
    )
    result, plain = both("gain", path, "-c", "gain-ratio", "-f", "json")
    assert '"chosen": "a0"' in result.stdout
    assert plain or not PLAIN_HERE


def test_where_not_equal_leaves_missing_values_out(both, tmp_path):
    """``n!=1`` holds for the rows with a value other than 1: a row whose value is missing never matches."""
    path = tmp_path / "missing.csv"
    path.write_text("n,a,class\n1,x,yes\n ?,x,no\n2,y,no\n,y,yes\n 3,x,yes\n NA,y,no\n")  # (spaces before cells)
    result, plain = both("gain", path, "-w", "n!=1", "-f", "json")
    assert '"rows": 2' in result.stdout
    assert plain or not PLAIN_HERE


# -- generated tables ----------------------------------------------------------------------------------

NOMINAL_CELLS = ["a", "b", "c", " a", "a ", "x y", "?", "", "NA", "b\t", "é", "日本", "1a", "n/a", "-"]
NUMBER_CELLS = [
    "0", "1", "2", "-1", "0.5", "2.5", "-0", "-0.0", "1e308", "-1e308", "1e400", "inf", "-inf", "?", "", "NA",
    "1.000001", "1.000002", "1.00002", " 3", "7.25", "1e-7", "+4", " ?", " NA", " inf",
]  # fmt: skip
CLASS_CELLS = [["yes", "no"], ["yes", "no", "maybe"], ["0", "1"], ["0", "1", "NA"], ["k0", "k1", "k2", "k3"]]


@st.composite
def tables(draw):
    """(the file's text, its column names, the kinds) for a small table of mixed columns."""
    n_rows = draw(st.integers(1, 30))
    kinds = draw(st.lists(st.sampled_from(["nominal", "numeric"]), min_size=1, max_size=4))
    rng = random.Random(draw(st.integers(0, 2**32)))
    columns = []
    for kind in kinds:
        pool = draw(st.lists(st.sampled_from(NOMINAL_CELLS if kind == "nominal" else NUMBER_CELLS), min_size=1))
        columns.append([rng.choice(pool) for _ in range(n_rows)])
    labels = draw(st.sampled_from(CLASS_CELLS)) + draw(st.sampled_from([[], ["?"], [""]]))
    columns.append([rng.choice(labels) for _ in range(n_rows)])
    names = [f"c{i}" for i in range(len(kinds))] + [draw(st.sampled_from(["class", "Play Tennis", " y "]))]
    sep = draw(st.sampled_from([",", ";", "\t"]))
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    lines = [sep.join(names)] + [sep.join(row) for row in zip(*columns)]
    if draw(st.booleans()):
        lines.insert(rng.randrange(1, len(lines) + 1), "")  # a blank line
    return end.join(lines) + (end if draw(st.booleans()) else ""), names, kinds


@st.composite
def options(draw, names, kinds):
    args = []
    for flag, values in (("-c", ["gain", "gain-ratio", "gini", "entropy"]), ("--thresholds", ["midpoint", "data"])):
        if draw(st.booleans()):
            args += [flag, draw(st.sampled_from(values))]
    args += ["--thresholds-all"] if draw(st.booleans()) else []
    args += ["-f", draw(st.sampled_from(["table", "json", "csv"]))]
    if draw(st.booleans()):
        i = draw(st.integers(0, len(kinds) - 1))
        if kinds[i] == "nominal":
            condition = (
                f"{names[i]}{draw(st.sampled_from(['=', '!=']))}{draw(st.sampled_from(['a', 'b', 'x y', 'zz']))}"
            )
        else:
            condition = f"{names[i]}{draw(st.sampled_from(['<=', '>', '=', '!=', '<', '>=']))}"
            condition += draw(st.sampled_from(["0", "1.5", "-1", "inf", "abc"]))
        args += ["-w", condition]
    if len(kinds) > 1 and draw(st.booleans()):
        args += ["--ignore", names[draw(st.integers(0, len(kinds) - 1))]]
    if draw(st.integers(0, 4)) == 0:  # another column as the class
        args += ["--target", names[draw(st.integers(0, len(kinds) - 1))]]
    args += ["-q"] if draw(st.integers(0, 4)) == 0 else []
    return args


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("plain")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_tables_the_same_either_way(both, workdir, data):
    text, names, kinds = data.draw(tables())
    path = workdir / data.draw(st.sampled_from(["t.csv", "t.tsv", "t.txt"]))
    path.write_bytes(text.encode("utf-8"))
    result, plain = both("gain", path, *data.draw(options(names, kinds)))
    event(f"{'plain' if plain else 'full'} path, exit code {result.exit_code}")


def test_generated_tables_mostly_take_the_plain_path(both, workdir):
    """(So that the comparison above compares two paths: most generated tables are plain files.)"""
    if not PLAIN_HERE:
        pytest.skip("numpy's logarithm is not math.log here: the plain path is never taken")
    taken = []
    for seed in range(40):
        rng = random.Random(seed)
        rows = [[rng.choice("abc"), str(rng.randint(0, 5)), rng.choice(["yes", "no"])] for _ in range(20)]
        path = workdir / f"m{seed}.csv"
        path.write_text("x,n,class\n" + "\n".join(",".join(r) for r in rows) + "\n")
        taken.append(both("gain", path, "--thresholds-all")[1])
    assert all(taken)


# -- the full path's business --------------------------------------------------------------------------

FULL_PATH = [
    ("quoted.csv", 'a,"b",class\nx,1,yes\ny,2,no\n', ()),
    ("stray.csv", "a,n,class\n" + "".join(f"x,{i},yes\n" for i in range(20)) + "x,n/a,no\n", ()),
    ("dup.csv", "a,a,class\nx,1,yes\n", ()),
    ("unnamed.csv", "a,,class\nx,,yes\n", ()),
    ("header-only.csv", "a,b,class\n", ()),
    ("empty.csv", "", ()),
    ("ragged.csv", "a,b,class\nx,1\ny,2,no\n", ()),
    ("spaces.csv", "a,b,class\nx,1,yes\n  ,  , \ny,2,no\n", ()),
    ("weights.csv", "a,b,class\nx,1,yes\ny,2,no\n", ("-a", "cart")),
    ("nominal.csv", "a,b,class\nx,1,yes\ny,2,no\n", ("--nominal", "b")),
    ("regress.csv", "a,b,y\nx,1,1.5\ny,2,2.5\n", ("--task", "regression")),
    ("spellings.csv", "a,b,y\nx,1,1\ny,2,1.0\nx,3,2\n", ()),  # 1 and 1.0: one class
    ("no-target.csv", "a,b,class\nx,1,yes\n", ("--target", "nope")),
    ("no-where.csv", "a,b,class\nx,1,yes\n", ("-w", "nope=1")),
    ("no-value.csv", "a,b,class\nx,1,yes\n", ("-w", "a=zz")),
    ("no-row.csv", "a,b,class\nx,1,yes\n", ("-w", "b>5")),
    ("not-number.csv", "a,b,class\nx,1,yes\n", ("-w", "b>five")),
    ("ignore-target.csv", "a,b,class\nx,1,yes\n", ("--ignore", "class")),
    ("no-class.csv", "a,b,class\nx,1,?\ny,2,\n", ()),
    ("all-missing.csv", "a,b,class\n?,1,yes\n,2,no\n", ()),
    ("bad-utf8.csv", b"a,b,class\nx\xff,1,yes\n", ()),
    ("data.arff", "@relation r\n@attribute a {x,y}\n@attribute class {yes,no}\n@data\nx,yes\ny,no\n", ()),
    ("explain.csv", "a,b,class\nx,1,yes\ny,2,no\n", ("--explain",)),
    ("rows.csv", "a,b,class\nx,1,yes\ny,2,no\nx,3,no\n", ("--max-rows", "2")),
]


@pytest.mark.parametrize("name, content, args", FULL_PATH, ids=[c[0] for c in FULL_PATH])
def test_everything_else_takes_the_full_path(both, tmp_path, name, content, args):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    _, plain = both("gain", path, *args)
    assert not plain


def test_a_missing_file_and_a_larger_file(both, tmp_path, monkeypatch):
    assert not both("gain", tmp_path / "none.csv")[1]
    path = tmp_path / "large.csv"
    path.write_text("a,b,class\n" + "x,1,yes\ny,2,no\n" * 10)
    monkeypatch.setattr("dtcli.plain.read.PLAIN_BYTES", 40)
    assert not both("gain", path)[1]


def test_dtree_plain_0_turns_it_off(run, monkeypatch):
    import dtcli.cli.gain as gain_command

    taken = []
    monkeypatch.setattr(gain_command, "plain_gain", lambda *a, **k: taken.append(gain_plain.plain_gain(*a, **k)))
    monkeypatch.setenv("DTREE_PLAIN", "0")
    assert run("gain", SAMPLES / "weather.csv", "--ignore", "Day").exit_code == 0
    assert taken == [None]


def test_the_gate_is_right_on_this_machine():
    """Where ``same_logarithm`` says so, numpy's float64 logarithm gives ``math.log``'s bits."""
    np = pytest.importorskip("numpy")
    if not PLAIN_HERE:
        pytest.skip("the plain path is off on this machine")
    rng = np.random.default_rng(7)
    values = np.concatenate([rng.integers(1, 10**6, 20000).astype(float), rng.random(20000) * 1e3, [2.0, 1e308]])
    assert np.log(values).tolist() == [math.log(v) for v in values.tolist()]
    assert [float(np.log(v)) for v in values[:2000].tolist()] == [math.log(v) for v in values[:2000].tolist()]


def test_startup_imports_no_numpy(tmp_path):
    """The point of the plain path: ``dtree gain`` on the sample data starts without numpy."""
    if not PLAIN_HERE:
        pytest.skip("the plain path is off on this machine")
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=str(SAMPLES.parent))
    env.pop("DTREE_PLAIN", None)
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "dtcli", "gain", str(SAMPLES / "weather.csv"), "--ignore", "Day"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert run.returncode == 0 and "Outlook" in run.stdout
    modules = {line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")}
    assert "dtcli.render.gain" in modules, "the importtime report was not read"
    assert not sorted(m for m in modules if m.split(".")[0] == "numpy")
