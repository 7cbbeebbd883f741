"""Date formats (model/dates.py): reading against the standard library, and printed thresholds that keep
``<=`` exact for every value of the format (brute force over the neighbouring values)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from dtcli.model.dates import DateFormatError, date_format, iso_format, threshold_text

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def seconds(moment: datetime) -> float:
    return (moment.replace(tzinfo=moment.tzinfo or timezone.utc) - EPOCH).total_seconds()


@pytest.mark.parametrize(
    ("pattern", "text", "moment"),
    [
        ("yyyy-MM-dd", "2024-03-15", datetime(2024, 3, 15)),
        ("yyyy-MM-dd'T'HH:mm:ss", "2024-03-15T10:30:05", datetime(2024, 3, 15, 10, 30, 5)),
        ("dd-MMM-yyyy hh:mm a", "05-Mar-2024 01:15 PM", datetime(2024, 3, 5, 13, 15)),
        ("yyyyMMdd", "19991231", datetime(1999, 12, 31)),
        ("yyyy-MM-dd HH:mm:ss.SSSXXX", "2024-03-15 10:30:00.25+01:00", datetime(2024, 3, 15, 9, 30, 0, 250000)),
        ("yyyy-MM-dd'T'HH:mm'Z'", "1960-02-29T23:59Z", datetime(1960, 2, 29, 23, 59)),
    ],
)
def test_reading_agrees_with_the_standard_library(pattern, text, moment):
    assert date_format(pattern).parse(text) == seconds(moment)


def test_not_dates_and_unknown_letters():
    fmt = date_format("yyyy-MM-dd")
    assert fmt.parse("2024-02-30") is None and fmt.parse("2024-03-15x") is None and fmt.parse("soon") is None
    with pytest.raises(DateFormatError, match="letter 'Q'"):
        date_format("yyyy-QQ")


def test_iso_forms():
    assert iso_format(["2024-03-15", "2023-12-01"]) == "yyyy-MM-dd"
    assert iso_format(["2024-03-15T10:30", "2024-03-15T11:00"]) == "yyyy-MM-dd'T'HH:mm"
    assert iso_format(["2024-03-15 10:30:00.5Z", "2024-03-15 10:30:01.25Z"]) == "yyyy-MM-dd HH:mm:ss.SS'Z'"
    assert iso_format(["2024-03-15T10:30:00Z", "2024-03-15T10:30:00+02:00"]) == "yyyy-MM-dd'T'HH:mm:ssXXX"
    assert iso_format(["2024-13-01"]) == "yyyy-MM-dd"  # the form (the reader then finds it no date)
    for mixed in (["2024-03-15", "2024-03-15T10:30"], ["2024-03-15", "15/03/2024"], ["1"]):
        assert iso_format(mixed) is None


def written(pattern: str, moment: datetime) -> str:
    """``moment`` written in ``pattern`` by the standard library."""
    head = pattern.split(".")[0].replace("yyyy", "%Y").replace("MM", "%m").replace("dd", "%d").replace("'T'", "T")
    head = moment.strftime(head.replace("HH", "%H").replace("mm", "%M").replace("ss", "%S"))
    digits = pattern.count("S")
    return head + ("." + f"{moment.microsecond:06d}"[:digits] if digits else "")


@pytest.mark.parametrize(
    ("pattern", "step"),
    [
        ("yyyy-MM-dd", timedelta(days=1)),
        ("yyyy-MM-dd HH:mm", timedelta(minutes=1)),
        ("yyyy-MM-dd'T'HH:mm:ss", timedelta(seconds=1)),
        ("yyyy-MM-dd HH:mm:ss.SSS", timedelta(milliseconds=1)),
        ("yyyy-MM-dd HH:mm:ss.SSSSSS", timedelta(microseconds=1)),
    ],
)
def test_a_printed_threshold_keeps_every_value_on_its_side(pattern, step):
    fmt = date_format(pattern)
    rng = random.Random(1)
    for _ in range(300):
        start = datetime(1900, 1, 1) + timedelta(days=rng.randrange(200 * 365), seconds=rng.randrange(86400))
        start -= timedelta(microseconds=start.microsecond)
        values = [fmt.parse(written(pattern, start + k * step)) for k in range(6)]
        lower, upper = values[2], values[3]
        assert None not in values and values == sorted(set(values))
        for t in (lower, upper, (lower + upper) / 2, lower / 2 + upper / 2):
            printed = fmt.parse(threshold_text(t, pattern))
            assert printed is not None
            for v in values:  # the value read from a cell is on the printed side exactly when on the stored one
                assert (v <= t) == (v <= printed), (pattern, t, threshold_text(t, pattern))


def test_plain_numbers_and_out_of_range():
    assert threshold_text(2.5) == "2.5"
    assert threshold_text(1e300, "yyyy-MM-dd") == "1.0E300"


def test_csv_iso_cells_read_as_the_python_parser_reads_another_format(tmp_path):
    """numpy reads zero-padded ISO columns (the fast way); an ARFF format that is not ISO goes cell by cell:
    the same moments give the same numbers, fractions included."""
    from helpers import load

    rng = random.Random(8)
    moments = [
        datetime(1, 1, 1) + timedelta(seconds=rng.randrange(9998 * 365 * 86400), microseconds=rng.randrange(10**6))
        for _ in range(3000)
    ]
    moments = [m.replace(year=1000 + m.year % 9000) for m in moments if (m.month, m.day) != (2, 29)]
    csv = tmp_path / "t.csv"
    csv.write_text("t,c\n" + "".join(f"{m:%Y-%m-%d %H:%M:%S.%f},{'ab'[k % 2]}\n" for k, m in enumerate(moments)))
    arff = tmp_path / "t.arff"
    arff.write_text(
        "@relation r\n@attribute t date 'dd.MM.yyyy HH:mm:ss.SSSSSS'\n@attribute c {a,b}\n@data\n"
        + "".join(f"'{m:%d.%m.%Y %H:%M:%S.%f}',{'ab'[k % 2]}\n" for k, m in enumerate(moments))
    )
    fast, slow = load(csv), load(arff)
    assert fast.attributes[0].time == "yyyy-MM-dd HH:mm:ss.SSSSSS"
    assert fast.columns[0].tolist() == slow.columns[0].tolist()
    assert all(abs(a - seconds(m)) < 1e-3 for a, m in zip(fast.columns[0].tolist(), moments))
