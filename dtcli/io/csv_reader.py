"""CSV parsing with pandas: every cell as text, widths checked against the header."""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd

from dtcli.errors import DataError


def _sniff_separator(header: str, path: str) -> str:
    if path.lower().removesuffix(".gz").endswith(".tsv"):
        return "\t"
    if "," in header:
        return ","
    for sep in ("\t", ";", "|"):
        if sep in header:
            return sep
    return ","


def parse_csv(text: str, source: str, path: str) -> tuple[pd.DataFrame, np.ndarray]:
    """The cells as a str DataFrame and the file line of each row."""
    first = text.lstrip("\r\n").split("\n", 1)[0].rstrip("\r")
    if not first.strip():
        raise DataError(f"{source}: file is empty; a CSV file needs a header line naming the columns")
    sep = _sniff_separator(first, path)
    header = [name.strip() for name in next(csv.reader([first], delimiter=sep))]
    lines = _check_widths(text, sep, len(header), source)
    try:
        frame = pd.read_csv(
            io.StringIO(text), sep=sep, dtype=str, na_filter=False, index_col=False,
            skipinitialspace=True, engine="c",
        )
    except pd.errors.ParserError as exc:
        raise DataError(f"{source}: cannot parse CSV ({_parser_message(str(exc))}); check the quoting") from None
    except pd.errors.EmptyDataError:
        raise DataError(f"{source}: file is empty; a CSV file needs a header line naming the columns") from None
    return _check_header(frame, header, source), lines


def _check_widths(text: str, sep: str, width: int, source: str) -> np.ndarray:
    """Every record must have as many fields as the header: name the first line that has not.

    Returns the line on which each record starts.
    """
    reader = csv.reader(io.StringIO(text), delimiter=sep)
    next(reader, None)
    starts = []
    previous = reader.line_num
    for record in reader:
        if record:
            starts.append(previous + 1)
        previous = reader.line_num
        if record and len(record) != width and any(field.strip() for field in record):
            if len(record) < width:
                advice = "add the missing values (an empty field or ? for a missing value)"
            else:
                advice = "quote values that contain the separator, or remove the extra fields"
            raise DataError(
                f"{source}, line {starts[-1]}: {len(record)} fields where the header has {width}; {advice}"
            )
    return np.asarray(starts, dtype=np.int64)


def _parser_message(message: str) -> str:
    if "EOF inside string" in message:
        return "a quoted value is never closed"
    return message.strip().splitlines()[-1].replace("Error tokenizing data. C error: ", "")


def _check_header(frame: pd.DataFrame, header: list[str], source: str) -> pd.DataFrame:
    seen: dict[str, int] = {}
    for position, name in enumerate(header, start=1):
        if name in seen:
            raise DataError(
                f"{source}: column name {name!r} appears twice (columns {seen[name]} and {position}); "
                "rename one of them"
            )
        seen[name] = position
    frame.columns = header[: len(frame.columns)]
    unnamed = [i for i, name in enumerate(header) if name == ""]
    for i in reversed(unnamed):
        column = frame.iloc[:, i]
        if (column.fillna("").str.strip() != "").any():
            raise DataError(f"{source}: column {i + 1} has no name in the header line; name it")
        frame = frame.drop(columns=frame.columns[i])
    return frame
