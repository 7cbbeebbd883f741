"""Every error a user can cause: one line ``Error: ...`` on stderr, exit status 1.

These run the real command in a subprocess (``python -m dtcli``), so a
traceback or a stray line cannot hide behind Click's test runner. Each case
checks: exit status 1, stderr exactly one line starting with ``Error: ``
that names the file and the key fact, no ``Traceback``, nothing on stdout.
Usage errors (Click's own) exit with status 2. A failing command must not
create or alter its ``-o`` file.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from helpers import SAMPLES

WEATHER_COLUMNS = "columns are: Day, Outlook, Temperature, Humidity, Wind, PlayTennis"

ARFF = """\
% lines: 1 comment, 2 relation, 3-5 attributes, 6 @data, 7-8 rows
@relation t
@attribute outlook {sunny, rainy}
@attribute temp numeric
@attribute play {yes, no}
@data
sunny, 85, no
rainy, 70, yes
"""

FILES = {
    "empty.csv": b"",
    "header.csv": b"a,b,c\n",
    "many.csv": b"a,b,c\nx,y,yes\nx,y,z,no\nz,y,no\n",
    "few.csv": b"a,b,c\nx,y,yes\nx,y\nz,y,no\n",
    "dup.csv": b"a,b,a\nx,y,yes\nz,y,no\n",
    "latin1.csv": "a,b,c\nx,y,yes\nK\u00f6ln,y,no\n".encode("latin-1"),
    "badattr.arff": ARFF.replace("temp numeric", "temp numbr").encode(),
    "undeclared.arff": ARFF.replace("rainy, 70, yes", "cloudy, 70, yes").encode(),
    "count.arff": ARFF.replace("sunny, 85, no", "sunny, 85").encode(),
    "numclass.csv": b"a,b,c\nx,y,1.5\nz,y,2.25\n",
    "nolabel.csv": b"a,b,c\nx,y,?\nz,y,\n",
    "holes.csv": b"a,b,c\nx,y,yes\n?,y,no\nz,w,no\n",
    "notjson.json": b"this is not JSON\n",
    "foreign.json": b'{"a": 1}\n',
}


def dtree(cwd, *args):
    return subprocess.run([sys.executable, "-m", "dtcli", *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A directory with the sample data, a model and every broken file."""
    d = tmp_path_factory.mktemp("errors")
    shutil.copy(SAMPLES / "weather.csv", d)
    shutil.copy(SAMPLES / "weather-numeric.csv", d)
    (d / "adir.csv").mkdir()
    (d / "costs.csv").write_text("Outlook,2\n")
    for name, content in FILES.items():
        (d / name).write_bytes(content)
    lines = (SAMPLES / "weather.csv").read_text().splitlines()
    (d / "nohumidity.csv").write_text(
        "".join(",".join(c for i, c in enumerate(line.split(",")) if i != 3) + "\n" for line in lines)
    )
    done = dtree(d, "train", "weather.csv", "--ignore", "Day", "-o", "model.json", "-q")
    assert done.returncode == 0, done.stderr
    model = json.loads((d / "model.json").read_text())

    def variant(name, change):
        m = json.loads(json.dumps(model))
        change(m)
        (d / name).write_text(json.dumps(m, indent=2))

    variant("future.json", lambda m: m.update(schema_version=2))
    variant("damaged.json", lambda m: m["root"]["branches"][0]["node"].update(counts=[1.0, 2.0, 3.0]))
    # Temperature is in the schema but tested by no node: declare it numeric
    variant(
        "numeric.json", lambda m: m["schema"]["attributes"].__setitem__(1, {"name": "Temperature", "kind": "numeric"})
    )
    done = dtree(
        d, "train", "weather-numeric.csv", "--target", "Temperature", "-a", "cart", "-o", "regression.json", "-q"
    )
    assert done.returncode == 0, done.stderr
    return d


TRAIN_W = ("train", "weather.csv", "--ignore", "Day")
GAIN_W = ("gain", "weather.csv", "--ignore", "Day")


def case(name, args, expected, marks=()):
    """One error case: the command line and the facts the message must contain."""
    return pytest.param(args, expected, id=name, marks=marks)


CASES = [
    # reading data
    case("no-such-file", ("train", "nope.csv"), ["nope.csv", "no such file"]),
    case("directory", ("train", "adir.csv"), ["adir.csv", "is a directory"]),
    case("empty-csv", ("train", "empty.csv"), ["empty.csv", "empty", "header"]),
    case("header-only", ("train", "header.csv"), ["header.csv", "no data rows"]),
    case("too-many-fields", ("train", "many.csv"), ["many.csv", "line 3", "4 fields", "header has 3"]),
    case("too-few-fields", ("train", "few.csv"), ["few.csv", "line 3", "2 fields"]),
    case("duplicate-columns", ("train", "dup.csv"), ["dup.csv", "'a' appears twice", "columns 1 and 3"]),
    case("not-utf8", ("train", "latin1.csv"), ["latin1.csv", "line 3", "UTF-8", "0xf6"]),
    case("arff-bad-attribute", ("train", "badattr.arff"), ["badattr.arff", "line 4", "unsupported attribute type"]),
    case("arff-undeclared-value", ("train", "undeclared.arff"), ["undeclared.arff", "line 8", "cloudy"]),
    case("arff-wrong-count", ("train", "count.arff"), ["count.arff", "line 7"]),
    # options against the data
    case("unknown-target", (*TRAIN_W, "--target", "Play"), ["weather.csv", "'Play'", "--target", WEATHER_COLUMNS]),
    case("unknown-ignore", ("gain", "weather.csv", "--ignore", "Day,Dya"), ["weather.csv", "'Dya'", WEATHER_COLUMNS]),
    case(
        "numeric-class",
        ("train", "numclass.csv"),
        ["numclass.csv", "'c'", "numeric", "--algorithm cart", "--task classification"],
    ),
    case("target-all-missing", ("train", "nolabel.csv"), ["nolabel.csv", "every row lacks", "'c'"]),
    case(
        "id3-numeric",
        ("train", "weather-numeric.csv"),
        ["weather-numeric.csv", "'Temperature'", "--nominal Temperature", "--ignore Temperature"],
    ),
    case("id3-missing", ("train", "holes.csv"), ["holes.csv", "'a'", "line 3", "--ignore a"]),
    case("bad-purity", (*TRAIN_W, "--purity", "1.5"), ["--purity"]),
    case("bad-max-depth", (*TRAIN_W, "--max-depth", "-1"), ["--max-depth", "0 or more"]),
    case(
        "cart-class-majority",
        (*TRAIN_W, "-a", "cart", "--missing", "class-majority"),
        ["class-majority", "--missing majority", "--missing fractional"],
    ),
    case("cart-costs", (*TRAIN_W, "-a", "cart", "--costs", "costs.csv"), ["--costs", "cart", "--algorithm c45"]),
    case("output-dir-missing", (*TRAIN_W, "-o", "nodir/m.json"), ["nodir/m.json", "'nodir' does not exist"]),
    # models
    case("model-missing", ("predict", "nomodel.json", "weather.csv"), ["nomodel.json", "no such model file"]),
    case(
        "model-not-json",
        ("predict", "notjson.json", "weather.csv"),
        ["notjson.json", "invalid JSON", "line 1", "dtree train -o"],
    ),
    case("model-foreign", ("predict", "foreign.json", "weather.csv"), ["foreign.json", "not a dtree model"]),
    case("model-future", ("predict", "future.json", "weather.csv"), ["future.json", "schema_version 2"]),
    case(
        "model-damaged",
        ("predict", "damaged.json", "weather.csv"),
        ["damaged.json", "root.branches[0].node.counts", "expected 2"],
    ),
    case(
        "data-lacks-column",
        ("predict", "model.json", "nohumidity.csv"),
        ["nohumidity.csv", "'Humidity'", "columns are: Day, Outlook, Temperature, Wind, PlayTennis"],
    ),
    case(
        "data-not-numeric",
        ("predict", "numeric.json", "weather.csv"),
        ["weather.csv", "'Temperature'", "numeric", "line 2", "'Hot'"],
    ),
    case(
        "reduced-error-regression",
        ("prune", "regression.json", "--method", "reduced-error", "--validation", "weather-numeric.csv"),
        ["reduced-error", "needs classes", "--method cost-complexity"],
    ),
    # gain --where
    case(
        "where-unknown-column",
        (*GAIN_W, "--where", "Foo=1"),
        ["'Foo'", "attributes are: Outlook, Temperature, Humidity, Wind"],
    ),
    case("where-unknown-value", (*GAIN_W, "--where", "Outlook=Snowy"), ["'Snowy'", "Sunny, Overcast, Rain"]),
    case("where-malformed", (*GAIN_W, "--where", "Outlook"), ["'Outlook'", "COLUMN=VALUE"]),
    case(
        "where-no-row",
        (*GAIN_W, "--where", "Outlook=Sunny", "--where", "Outlook=Rain"),
        ["weather.csv", "no row satisfies", "Outlook=Sunny and Outlook=Rain"],
    ),
    case("gain-header-only", ("gain", "header.csv"), ["header.csv", "no data rows"]),
]


@pytest.mark.parametrize(("args", "expected"), CASES)
def test_error_is_one_line(work, args, expected):
    done = dtree(work, *args)
    lines = done.stderr.splitlines()
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    for fact in expected:
        assert fact in lines[0]


@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing"])
@pytest.mark.parametrize(
    ("args", "output"),
    [
        (("train", "numclass.csv", "-o", "out.json"), "out.json"),
        (("predict", "damaged.json", "weather.csv", "-o", "out.csv"), "out.csv"),
    ],
    ids=["train", "predict"],
)
def test_failed_command_leaves_output_alone(work, tmp_path, args, output, existing):
    for name in ("numclass.csv", "damaged.json", "weather.csv"):
        shutil.copy(work / name, tmp_path)
    before = b"precious \x00 bytes\n"
    if existing:
        (tmp_path / output).write_bytes(before)
    names = sorted(p.name for p in tmp_path.iterdir())
    done = dtree(tmp_path, *args)
    assert done.returncode == 1 and done.stderr.startswith("Error: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == names  # no output, no temp file
    if existing:
        assert (tmp_path / output).read_bytes() == before


@pytest.mark.parametrize(
    "args",
    [
        (*TRAIN_W, "--bogus"),
        ("predict", "model.json"),
        (*TRAIN_W, "--algorithm", "c9"),
    ],
    ids=["unknown-option", "missing-argument", "bad-algorithm"],
)
def test_usage_errors_exit_2(work, args):
    done = dtree(work, *args)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "Usage:" in done.stderr and "Error:" in done.stderr
    assert done.stdout == ""
