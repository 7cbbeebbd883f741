"""Fuzzing ``train`` and ``predict`` on generated CSV tables: the model file round trip keeps every prediction.

Tables have random column names (quotes, commas, spaces, non-ASCII), random column types
(numbers with extremes, whole numbers, text, booleans), random missing cells and random
class labels. Each is written as CSV; ``train -o`` and ``predict`` run in-process. Either
``train`` refuses the table with one ``Error:`` line (exit 1), or the predictions ``predict``
writes from the model file equal those of the tree in memory before it was written, and
reading the model and writing it again gives the same text.
"""

from __future__ import annotations

import csv
import io
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from dtcli.induction import PruneParams, grow_params, train
from dtcli.induction.predict.apply import predict_proba
from dtcli.model.format.model import dumps_model, loads_model
from dtcli.pipeline.load import load_training_table

ALPHABET = st.sampled_from(list("abcxyzAZ09 ,;'\"éßü中文😀-_.?"))
NAME = st.text(ALPHABET, min_size=1, max_size=8).map(str.strip).filter(lambda s: s and s != "prediction")
LABEL = st.text(ALPHABET, min_size=1, max_size=5)
CLASS = LABEL.map(str.strip).filter(lambda s: s not in ("", "?"))  # the reader strips labels; "?" is missing
NUMBER = st.one_of(
    st.floats(-1e6, 1e6).map(repr),
    st.integers(-5, 5).map(str),
    st.sampled_from(["inf", "-inf", "1e308", "-1.7e308", "5e-324", "1e400", "1" * 40, "NaN", "NA"]),
)
MISSING = st.sampled_from(["", "?"])
KINDS = {
    "number": NUMBER,
    "whole": st.integers(0, 3).map(str),
    "text": LABEL,
    "boolean": st.sampled_from(["true", "false", "TRUE"]),
}
ALGORITHMS = {
    "c45": ["-a", "c45"],
    "cart": ["-a", "cart", "--task", "classification"],
    "id3": ["-a", "id3", "--thresholds", "midpoint", "--missing", "majority"],
}


@st.composite
def tables(draw):
    names = draw(st.lists(NAME, min_size=2, max_size=5, unique=True))
    kinds = [draw(st.sampled_from(sorted(KINDS))) for _ in names[:-1]]
    classes = draw(st.lists(CLASS, min_size=2, max_size=3, unique=True))
    n_rows = draw(st.integers(len(classes), 12))
    rows = []
    for i in range(n_rows):
        cells = [draw(st.one_of(MISSING, KINDS[k])) if draw(st.booleans()) else draw(KINDS[k]) for k in kinds]
        rows.append(cells + [classes[i] if i < len(classes) else draw(st.sampled_from(classes))])  # every class
    return names, rows


def csv_text(names, rows) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    writer.writerows(rows)
    return out.getvalue()


def in_memory(path: Path, target: str, algorithm: str):
    """The tree the API trains on the file, and its predicted labels for the file's rows."""
    options = dict(zip(ALGORITHMS[algorithm][2::2], ALGORITHMS[algorithm][3::2]))
    task = options.pop("--task", "classification")
    table = load_training_table(str(path), target, (), (), None, task)
    growth = {key.lstrip("-"): value for key, value in options.items()}
    tree, _ = train(table, grow_params(algorithm, **growth), PruneParams())
    codes = predict_proba(tree, table).argmax(axis=1)
    return tree, list(np.asarray(tree.classes, dtype=object)[codes])


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=tables())
def test_train_predict_round_trip_on_generated_tables(run, tmp_path, algorithm, case):
    names, rows = case
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    data, model, predicted = folder / "d.csv", folder / "m.json", folder / "p.csv"
    data.write_text(csv_text(names, rows), encoding="utf-8")
    result = run("train", data, "--target", names[-1], *ALGORITHMS[algorithm], "-o", model, "-q")
    if result.exit_code == 1:
        event("refused: " + result.stderr.split(":")[-1][:50])
        assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
        assert not model.exists()
        return
    assert result.exit_code == 0, result.stderr
    event("trained")
    text = model.read_text(encoding="utf-8")
    assert dumps_model(loads_model(text, "m.json")) == text
    result = run("predict", model, data, "-o", predicted, "-q")
    assert result.exit_code == 0, result.stderr
    written = list(csv.reader(io.StringIO(predicted.read_text(encoding="utf-8"))))
    assert written[0][-1] == "prediction" and len(written) == len(rows) + 1
    tree, expected = in_memory(data, names[-1], algorithm)
    assert dumps_model(tree) == text
    assert [row[-1] for row in written[1:]] == expected
