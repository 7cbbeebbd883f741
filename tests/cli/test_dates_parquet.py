"""Dates in Parquet files (date and timestamp columns), `gain -a` on dates, and predicting from another ISO form."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta, timezone

import pytest

from dtcli.io.read import read_data

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def write(path, **columns):
    pq.write_table(pa.table(columns), path)
    return path


def texts(column) -> list:
    return [column.cell(row) for row in range(len(column))]


def test_date_and_timestamp_columns_read_as_the_iso_text_of_a_csv_file(tmp_path):
    days = [date(2024, 3, 15), None, date(1969, 12, 31)]
    midnights = [datetime(2024, 3, 15), datetime(2024, 3, 16), None]
    times = [datetime(2024, 3, 15, 10, 30), datetime(2024, 3, 15, 10, 30), datetime(2024, 3, 16, 0, 0, 5)]
    millis = [datetime(2024, 3, 15, 10, 30, 0, 250_000), datetime(2024, 3, 15), datetime(2024, 3, 15)]
    berlin = pa.array(
        [datetime(2024, 3, 15, 0, 0), datetime(2024, 7, 1, 12, 0), None], pa.timestamp("s", tz="Europe/Berlin")
    )
    path = write(
        tmp_path / "d.parquet",
        day=pa.array(days, pa.date32()),
        day64=pa.array(days, pa.date64()),
        midnight=pa.array(midnights, pa.timestamp("ns")),
        time=pa.array(times, pa.timestamp("us")),
        milli=pa.array(millis, pa.timestamp("ms")),
        zoned=berlin,
    )
    frame = read_data(str(path)).frame
    assert texts(frame["day"]) == ["2024-03-15", None, "1969-12-31"]
    assert texts(frame["day64"]) == ["2024-03-15", None, "1969-12-31"]
    assert texts(frame["midnight"]) == ["2024-03-15", "2024-03-16", None]
    assert texts(frame["time"]) == ["2024-03-15 10:30:00", "2024-03-15 10:30:00", "2024-03-16 00:00:05"]
    assert texts(frame["milli"]) == ["2024-03-15 10:30:00.250", "2024-03-15 00:00:00.000", "2024-03-15 00:00:00.000"]
    # the instants in UTC (the pyarrow array above was given Berlin's local times as UTC instants)
    assert texts(frame["zoned"]) == ["2024-03-15 00:00:00Z", "2024-07-01 12:00:00Z", None]
    assert frame["time"].uniques == ["2024-03-15 10:30:00", "2024-03-16 00:00:05"]  # each once, in order of appearance


def test_a_parquet_table_of_dates_trains_the_tree_its_csv_file_trains(run, tmp_path):
    import pandas as pd

    start = datetime(2023, 1, 1, tzinfo=timezone.utc)
    stamps = [start + timedelta(days=7 * i, hours=(5 * i) % 24) for i in range(60)]
    frame = pd.DataFrame(
        {
            "day": [s.date() for s in stamps],
            "stamp": pd.to_datetime([s.replace(tzinfo=None) for s in stamps]),
            "zoned": pd.to_datetime(stamps).tz_convert("America/New_York"),
            "g": ["xyz"[i % 3] for i in range(60)],
            "class": ["late" if s.month >= 6 and i % 11 else "early" for i, s in enumerate(stamps)],
        }
    )
    frame.loc[4, "stamp"] = pd.NaT
    parquet, csv = tmp_path / "t.parquet", tmp_path / "t.csv"
    frame.astype({"day": "datetime64[s]"}).to_parquet(parquet)
    frame.to_csv(csv, index=False)
    for algorithm in ("c45", "cart"):
        for ignore in (("stamp", "zoned"), ("day", "zoned"), ("day", "stamp")):
            trees = []
            for path in (parquet, csv):
                model = tmp_path / f"{path.suffix}.json"
                args = ["train", path, "-a", algorithm, "-q", "-o", model, "--ties", "column"]
                assert run(*args, *[x for name in ignore for x in ("--ignore", name)]).exit_code == 0
                doc = json.loads(model.read_text())
                trees.append(doc["root"])
                # and each file predicts with the other's model (another ISO form of the same instants)
                other = csv if path == parquet else parquet
                assert run("evaluate", model, other, "-f", "json").exit_code == 0
            assert trees[0] == trees[1], (algorithm, ignore)
    model = tmp_path / "nominal.json"
    assert run("train", parquet, "--nominal", "day", "-a", "c45", "-q", "-o", model).exit_code == 0
    (day,) = [a for a in json.loads(model.read_text())["schema"]["attributes"] if a["name"] == "day"]
    assert day["kind"] == "nominal" and day["values"][:2] == ["2023-01-01", "2023-01-08"]


@pytest.mark.parametrize("algorithm", ["c45", "cart"])
def test_gain_of_an_algorithm_prints_its_date_cut_as_the_tree_does(run, tmp_path, algorithm):
    lines = ["day,x,class"]
    for i in range(40):
        d = date(2024, 1, 1) + timedelta(days=3 * i)
        lines.append(f"{d},{(i * 7) % 10},{'late' if i >= 23 or i % 9 == 0 else 'early'}")
    path = tmp_path / "d.csv"
    path.write_text("\n".join(lines) + "\n")
    gain = run("gain", path, "-a", algorithm, "-q")
    starred = re.search(r"^\* day\s+│ (?:day )?<= (\S+)", gain.stdout, re.M)
    assert starred, gain.stdout
    tree = run("train", path, "-a", algorithm, "-f", "text").stdout
    assert tree.splitlines()[0].startswith(f"day <= {starred.group(1)}"), (gain.stdout, tree)
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", starred.group(1))
    assert not re.search(r"\b1[67]\d{8}\b", gain.stdout)  # no seconds since the epoch


def test_predict_reads_another_iso_form_of_a_date_column(run, tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("day,class\n" + "".join(f"2024-03-{d:02d},{'a' if d <= 10 else 'b'}\n" for d in range(1, 21)))
    model = tmp_path / "m.json"
    assert run("train", path, "-a", "c45", "-m", "1", "-q", "-o", model).exit_code == 0
    assert run("show", model, "-f", "text").stdout.splitlines()[0].startswith("day <= 2024-03-10: a")
    new = tmp_path / "new.csv"
    new.write_text("day\n2024-03-10T23:59:59Z\n2024-03-11 00:00\n2024-03-10T22:00:00-03:00\n2024-03-09\n")
    predicted = [line.split(",")[-1] for line in run("predict", model, new).stdout.splitlines()[1:]]
    # the threshold lies between the 10th's and the 11th's midnights (UTC): J48 places it at the 10th's
    assert predicted == ["b", "b", "b", "a"]
    new.write_text("day\n2024-03-09\n10/03/2024\n")
    refused = run("predict", model, new)
    assert refused.exit_code == 1
    assert (
        "column 'day' must be dates written yyyy-MM-dd for this model, but line 3 holds '10/03/2024'" in refused.output
    )
