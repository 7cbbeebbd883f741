"""Turn a RawData's columns into the columnar Table the induction code uses.

``infer_table`` decides each column's kind for training: ARFF declarations
win; otherwise a column whose every non-missing cell is a number is numeric,
and any other column nominal, with its values in order of first appearance
(surrounding spaces ignored). A nominal column whose cells are numbers or dates
with stray text, or numbers written for people, is reported, never silently
(``io/written.py``: a warning message the caller prints, or with ``strict`` a
DataError, naming the column, the first offending line and its cell). ``encode_for_schema`` encodes new data against
a trained model's schema. Missing cells: empty, ``?``, and ``NA``/``NaN``
in numeric columns (and in numeric codes read as nominal). A numeric
attribute's ``inf`` and ``-inf`` (numbers beyond the 64-bit range read as
those) are held as +-1.7976931348623157e308 in a training table
(``model/table.py: saturate``): they sort to their end and every threshold
between them is finite. New data keeps its infinities (they route as those
numbers do), and a regression target keeps them (training refuses it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from dtcli.errors import DataError
from dtcli.io.columns import NumberColumn, TextColumn
from dtcli.io.csv.cells import parse_number
from dtcli.io.names import check_columns, resolved
from dtcli.io.read import RawData
from dtcli.io.written import CODE, MISSING_ANY, MISSING_NUMERIC, check_written, numbers_of, parse_uniques, where
from dtcli.model.colnames import find, finder
from dtcli.model.dates import date_format, is_iso_form, iso_format, mixed_iso_format, parse_iso
from dtcli.model.table import BOOLEAN_WORDS, MISSING, NOMINAL, NUMERIC, Attribute, LineRun, Schema, Table, saturate


def _nominal_codes(column, na_too: bool = False) -> tuple[np.ndarray, tuple[str, ...]]:
    """Codes in order of first appearance (-1 missing) and the value labels, spaces stripped."""
    if isinstance(column, NumberColumn):
        column = TextColumn.of([f"{v:.15g}" if v == v else None for v in column.values.tolist()])
    codes, uniques = column.factorize()
    labels = [str(u).strip() for u in uniques]
    drop = set(MISSING_ANY) | (set(MISSING_NUMERIC) if na_too else set())
    keep = [label for label in labels if label not in drop]
    if keep == labels and len(set(labels)) == len(labels):
        return codes.astype(np.int32), tuple(labels)
    final = tuple(dict.fromkeys(keep))
    index = {label: i for i, label in enumerate(final)}
    remap = np.array([index.get(label, MISSING) for label in labels] + [MISSING], dtype=np.int32)
    return remap[codes].astype(np.int32), final


def _parse_dates(column, time: str) -> tuple[np.ndarray, np.ndarray]:
    """A column of dates (format ``time``) as seconds since the epoch (NaN missing) and a mask of cells
    that are not dates of that format; text cells parsed once per distinct value."""
    if isinstance(column, NumberColumn):  # (a reader that took every cell for a number)
        column = TextColumn.of([f"{v:.15g}" if v == v else None for v in column.values.tolist()])
    codes, uniques = column.factorize()
    texts = [str(cell).strip() for cell in uniques]
    known = [i for i, text in enumerate(texts) if text not in MISSING_ANY and text not in MISSING_NUMERIC]
    fast = _iso_seconds([texts[i] for i in known], time)
    if fast is not None:
        numbers = np.full(len(uniques) + 1, np.nan)
        numbers[known] = fast
        return numbers[codes], np.zeros(len(codes), dtype=bool)
    numbers, bad_unique = parse_uniques(uniques, date_format(time).parse)
    return numbers[codes], bad_unique[codes]


def date_values(column, time: str) -> tuple[np.ndarray, np.ndarray]:
    """A column of dates for a model's date attribute (format ``time``): seconds since the epoch (NaN
    missing) and a mask of the cells that are not dates of that format, nor, for an ISO form, of another
    ISO form (``_other_iso``)."""
    values, bad = _parse_dates(column, time)
    if bad.any() and is_iso_form(time):
        values, bad = _other_iso(column, values, bad)
    return values, bad


def _other_iso(column, values: np.ndarray, bad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A column of ISO 8601 dates for a model that read another ISO form (``2024-03-15`` where it read
    ``2024-03-15T10:30:00Z``; a Parquet timestamp where it read a CSV file's text): the cells ``bad``
    marks read in whatever ISO form each is written (``dates.parse_iso``); those still not dates stay marked."""
    codes, uniques = column.factorize()
    numbers, still = parse_uniques(uniques, parse_iso)
    values, bad = values.copy(), bad.copy()
    values[bad] = numbers[codes[bad]]
    bad[bad] = still[codes[bad]]
    return values, bad


def _iso_seconds(texts: list[str], time: str) -> np.ndarray | None:
    """``texts`` as ``DateFormat.parse`` reads them (the same numbers), by numpy's ISO 8601 reader, when
    ``time`` is an ISO form without an offset and every text is written in it, zero-padded; else None
    (then each is parsed in Python, and a text that is no date is found)."""
    strict = ISO_PATTERN.get(time)
    if strict is None:
        strict = ISO_PATTERN[time] = _strict_iso(time)
    if strict is False or not all(strict.fullmatch(text) and text[:4] != "0000" for text in texts):
        return None
    try:
        micro = np.array([text.rstrip("Z") for text in texts], dtype="datetime64[us]").astype(np.int64)
    except ValueError:  # (a day the month lacks, an hour past 23: the slow way names the cell)
        return None
    whole, part = np.divmod(micro, 1_000_000)
    return whole.astype(np.float64) + part / 1e6


def _strict_iso(time: str):
    """The regular expression of ``time`` written zero-padded, for the ISO forms ``dates.iso_format`` finds
    (with at most 6 fraction digits); False for any other format."""
    found = re.fullmatch(r"yyyy-MM-dd(?:('T'| )HH:mm(:ss(\.S{1,6})?)?('Z')?)?", time)
    if found is None:
        return False
    sep, seconds, fraction, zone = found.groups()
    text = r"\d{4}-\d{2}-\d{2}"
    if sep is not None:
        text += ("T" if sep == "'T'" else " ") + r"\d{2}:\d{2}" + (r":\d{2}" if seconds else "")
        text += rf"\.\d{{1,{len(fraction) - 1}}}" if fraction else ""
        text += "Z" if zone else ""
    return re.compile(text)


ISO_PATTERN: dict = {}  # a date format: its zero-padded regular expression (False: not an ISO form)


def iso_dates(column) -> tuple[str, np.ndarray] | None:
    """The ISO 8601 format of a text column all of whose non-missing cells are dates of one form
    (``dates.iso_format``) and its cells as seconds since the epoch, else None."""
    if isinstance(column, NumberColumn):
        return None
    _, uniques = column.factorize()
    cells = [text for text in (str(u).strip() for u in uniques) if text not in MISSING_ANY + MISSING_NUMERIC]
    if not cells or not cells[0][:1].isdigit():
        return None
    time = iso_format(cells) or mixed_iso_format(cells)
    if time is None:
        return None
    values, bad = date_values(column, time)
    return None if bad.any() else (time, values)


def _numeric_values(column) -> np.ndarray | None:
    """The cells as float64 (NaN for missing), or None if some cell is not a number."""
    values, bad = numbers_of(column)
    return None if bad.any() else values


def _encode_declared(column, attribute: Attribute) -> np.ndarray:
    """Codes into the attribute's values (unknown or missing: -1), or numbers."""
    if attribute.kind == NUMERIC and attribute.time:
        return _parse_dates(column, attribute.time)[0]  # the ARFF reader has checked the dates
    if attribute.kind == NUMERIC:
        values = _numeric_values(column)
        assert values is not None  # liac-arff has checked the numbers
        return values
    codes, labels = _nominal_codes(column)
    lookup = np.array([attribute.code_of(label) for label in labels] + [MISSING], dtype=np.int32)
    return lookup[codes]


def infer_table(
    raw: RawData, target: str | None, ignore=(), nominal=(), task: str = "classification", strict=False, notes=None
) -> Table:
    """The training Table: target (default: last column), kinds inferred or declared.

    ``task``: ``classification`` (the target's values are classes),
    ``regression`` (the target must be numeric) or ``auto`` (regression
    exactly when the target column is numeric and not named by --nominal).
    A column of numbers with stray text (``stray_text``) is a DataError with
    ``strict``, else read as nominal with a message appended to ``notes``.
    """
    columns = list(raw.frame.columns)
    target = columns[-1] if target is None else resolved(columns, [target], "--target", raw.source)[0]
    ignore = resolved(columns, list(ignore), "--ignore", raw.source)
    nominal = resolved(columns, list(nominal), "--nominal", raw.source)
    if target in ignore:
        raise DataError(f"{raw.source}: the target column {target!r} cannot be ignored")
    if len(columns) == 1 and not raw.declared and UNSPLIT.search(columns[0]):
        shown = columns[0] if len(columns[0]) <= 40 else columns[0][:37] + "..."
        raise DataError(
            f"{raw.source}: the file reads as one column, {shown!r}, and leaves nothing to split on; if its "
            "columns are separated by something other than , ; tab or |, give it with --sep (such as --sep ' ')"
        )
    attributes, data = [], []
    for name in columns:
        if name in ignore or name == target:
            continue
        attribute, values = _infer_column(raw, name, force_nominal=name in nominal)
        if name not in nominal:
            check_written(raw, name, attribute, strict, notes)
        attributes.append(attribute)
        data.append(values if attribute.is_nominal else saturate(values))
    target_attr, y = _infer_column(raw, target, force_nominal=task == "classification" or target in nominal)
    if task == "classification" and target not in nominal and target not in raw.declared:
        target_attr, y = _same_numbers(raw.frame[target], target_attr, y)
    if task != "classification" and target not in nominal:
        check_written(raw, target, target_attr, strict, notes)
    if task == "regression" and target_attr.kind != NUMERIC:
        raise DataError(f"{raw.source}: --task regression needs a numeric target, and {target!r} is not numeric")
    schema = Schema(tuple(attributes), target_attr)
    return Table(schema, data, y, source=raw.source, sha256=raw.sha256, lines=LineRun.of(raw.lines))


UNSPLIT = re.compile(r"\S[\s:/\\#~^]+\S")  # a lone column's name that looks like several run together


def _infer_column(raw: RawData, name: str, force_nominal: bool) -> tuple[Attribute, np.ndarray]:
    column = raw.frame[name]
    declared = raw.declared.get(name)
    if declared is not None and (declared.kind == NOMINAL or not force_nominal):
        return declared, _encode_declared(column, declared)
    values = _numeric_values(column) if declared is None else None
    if values is not None and not np.isnan(values).all():
        if not force_nominal:
            return Attribute(name, NUMERIC), values
        # numbers used as codes: NA/NaN still mean missing, as in any numeric column
        codes, labels = _nominal_codes(column, na_too=True)
        return Attribute(name, NOMINAL, labels), codes
    dates = None if force_nominal or declared is not None else iso_dates(column)
    if dates is not None:
        return Attribute(name, NUMERIC, time=dates[0]), dates[1]
    codes, labels = _nominal_codes(column)
    return Attribute(name, NOMINAL, labels), codes


@dataclass
class Encoded:
    """New data encoded for a model.

    ``unseen`` counts, per column, nominal values the model never saw (now
    missing). ``actual`` holds the target's codes into ``labels``: the
    model's classes, then labels it never saw; -1 where the class is missing
    or the data has no target column.
    """

    table: Table
    has_target: bool
    unseen: dict[str, int]
    actual: np.ndarray
    labels: tuple[str, ...]


def text_columns(schema: Schema) -> list[str]:
    """Columns to read as text for a model: its nominal attributes and class labels."""
    names = [a.name for a in schema.attributes if a.is_nominal or a.time]
    return names if schema.is_regression else names + [schema.target.name]


def encode_for_schema(raw: RawData, schema: Schema) -> Encoded:
    """Encode ``raw`` with a model's schema; unseen nominal values become missing."""
    columns = list(raw.frame.columns)
    check_columns(schema, columns, raw.source)
    column_of = finder(columns)
    unseen: dict[str, int] = {}
    data = []
    for attribute in schema.attributes:
        column = raw.frame[column_of(attribute.name)]
        if attribute.kind == NUMERIC:
            values, bad = date_values(column, attribute.time) if attribute.time else numbers_of(column)
            if bad.any():
                row = int(np.flatnonzero(bad)[0])
                what = f"dates written {attribute.time}" if attribute.time else "numeric"
                raise DataError(
                    f"{raw.source}: column {attribute.name!r} must be {what} for this model, "
                    f"but {where(raw, row)} holds {column.cell(row)!r}"
                )
            data.append(values)
            continue
        codes, labels = _nominal_codes(column)
        value_of = finder(attribute.values)  # (a value in another normal form is that value)
        lookup = np.array([attribute.code_of(value_of(label) or label) for label in labels] + [MISSING], np.int32)
        encoded = lookup[codes]
        count = int(((encoded == MISSING) & (codes != MISSING)).sum())
        if count:
            unseen[attribute.name] = count
        data.append(encoded)
    target = find(schema.target.name, columns)
    has_target = target is not None
    labels = schema.classes
    if schema.is_regression:
        actual = np.full(len(raw.frame), np.nan)
        if has_target:
            actual, bad = numbers_of(raw.frame[target])
            actual = np.where(bad, np.nan, actual)
        table = Table(schema, data, actual, source=raw.source, sha256=raw.sha256, lines=raw.lines)
        return Encoded(table, has_target, unseen, actual, labels)
    if has_target:
        codes, found = _nominal_codes(raw.frame[target])
        class_of = finder(schema.classes)
        found = [class_of(label) or label for label in found]  # (a class in another normal form)
        spelt = class_spellings(schema.classes, found)
        extra = tuple(dict.fromkeys(label for label in found if label not in schema.classes and label not in spelt))
        labels = schema.classes + extra
        lookup = np.array([labels.index(spelt.get(label, label)) for label in found] + [MISSING], dtype=np.int32)
        actual = lookup[codes]
    else:
        actual = np.full(len(raw.frame), MISSING, dtype=np.int32)
    y = np.where(actual < len(schema.classes), actual, MISSING).astype(np.int32)
    table = Table(schema, data, y, source=raw.source, sha256=raw.sha256, lines=raw.lines)
    return Encoded(table, has_target, unseen, actual, labels)


def class_spellings(classes: tuple[str, ...], found) -> dict[str, str]:
    """Labels of new data that are one of the model's classes written another way, each with that class:
    ``true`` and ``false`` in any case for a class ``TRUE`` or ``False`` (as attributes match them: Excel
    writes TRUE, pandas True); and ``1.0`` for the number class ``1``, the rule ``number_classes``
    applies in training, only when every class is a number (none a code such as ``007``) and so is the
    label."""
    booleans = {label.lower(): label for label in classes if label.lower() in BOOLEAN_WORDS}
    spelt = {
        label: booleans[label.lower()]
        for label in found
        if label not in classes and isinstance(label, str) and label.lower() in booleans
    }
    numbers = [parse_number(label) for label in classes]
    if not classes or any(n is None for n in numbers) or any(CODE.match(label) for label in classes):
        return spelt
    by_number = {float(n): label for n, label in zip(numbers, classes)}
    for label in found:
        if label in classes or CODE.match(label):
            continue
        number = parse_number(label)
        if number is not None and float(number) in by_number:
            spelt[label] = by_number[float(number)]
    return spelt


def _same_numbers(column, attribute: Attribute, codes: np.ndarray) -> tuple[Attribute, np.ndarray]:
    """Classes read from numbers (``--task classification``): ``number_classes`` merges the spellings."""
    merged = number_classes(attribute.values)
    if merged is None:
        return attribute, codes
    names, index = merged
    remap = np.array(index + [MISSING], dtype=np.int32)
    return Attribute(attribute.name, NOMINAL, names), remap[codes]


def number_classes(labels) -> tuple[tuple[str, ...], list[int]] | None:
    """Class labels that are the same number written two ways (``1`` and ``1.0``) as one class, named as
    first written: (the names, each label's index into them); None when nothing merges, or when a label
    is not a number or is a code with a leading zero (``007``), which stays as written."""
    numbers = [parse_number(label) for label in labels]
    if not labels or any(n is None for n in numbers) or any(CODE.match(label) for label in labels):
        return None
    first: dict[float, int] = {}
    index = [first.setdefault(float(n), len(first)) for n in numbers]
    if len(first) == len(labels):
        return None
    return tuple(labels[index.index(k)] for k in range(len(first))), index
