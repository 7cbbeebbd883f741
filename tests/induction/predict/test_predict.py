"""Applying trees: exact predictions, probabilities, and missing or unseen values."""

from __future__ import annotations

import numpy as np
import pytest
from trees import fit

from dtcli.evaluate.metrics import evaluate
from dtcli.induction.predict.apply import predict, predict_proba
from dtcli.io.encode import encode_for_schema
from dtcli.io.read import read_data
from helpers import TESTS, load


@pytest.fixture
def tree(weather):
    return fit(weather)[0]


def encode(tmp_path, tree, text):
    path = tmp_path / "new.csv"
    path.write_text(text)
    return encode_for_schema(read_data(str(path)), tree.schema)


def test_probabilities_sum_to_one(tree, weather):
    proba = predict_proba(tree, weather)
    assert proba.shape == (14, 2)
    assert np.allclose(proba.sum(axis=1), 1)
    assert (predict(tree, weather) == weather.y).all()


def test_missing_value_goes_down_every_branch_weighted(tmp_path, tree):
    # Outlook missing: Sunny (5 cases), Overcast (4), Rain (5); Humidity=High
    # sends the Sunny share to No; Wind=Weak sends the Rain share to Yes.
    encoded = encode(tmp_path, tree, "Outlook,Temperature,Humidity,Wind\n?,Hot,High,Weak\n")
    proba = predict_proba(tree, encoded.table)[0]
    assert proba == pytest.approx([5 / 14, 9 / 14])
    assert encoded.unseen == {}


def test_nested_missing_values(tmp_path, tree):
    # Outlook=Sunny, Humidity missing: High (3 No) and Normal (2 Yes) weighted 3:2
    encoded = encode(tmp_path, tree, "Outlook,Temperature,Humidity,Wind\nSunny,Hot,,Weak\n")
    assert predict_proba(tree, encoded.table)[0] == pytest.approx([3 / 5, 2 / 5])


def test_unseen_value_is_missing_and_counted(tmp_path, tree):
    encoded = encode(tmp_path, tree, "Outlook,Temperature,Humidity,Wind\nFoggy,Hot,High,Weak\nSunny,Hot,Normal,Weak\n")
    assert encoded.unseen == {"Outlook": 1}
    proba = predict_proba(tree, encoded.table)
    assert proba[0] == pytest.approx([5 / 14, 9 / 14])
    assert proba[1] == pytest.approx([0, 1])


def test_empty_leaf_predicts_its_parents_distribution(tmp_path):
    # J48 -U on this file prints 'A = c: p (0.0)' and, for a test row A = c, the
    # distribution *0.6,0.4 (-p 0 -distribution): an empty son answers with its parent's.
    arff = tmp_path / "t.arff"
    arff.write_text("@relation t\n@attribute A {a, b, c}\n@attribute y {p, q}\n@data\na,p\na,p\nb,q\nb,q\nb,p\n")
    tree = fit(load(arff))[0]
    assert tree.root.children[2].weight == 0  # A = c: no cases, labelled p (root majority)
    encoded = encode(tmp_path, tree, "A\nc\n")
    assert predict_proba(tree, encoded.table)[0] == pytest.approx([3 / 5, 2 / 5])


def test_evaluation_counts_unseen_labels(tmp_path, tree):
    encoded = encode(
        tmp_path,
        tree,
        "Outlook,Temperature,Humidity,Wind,PlayTennis\nSunny,Hot,High,Weak,No\n"
        "Overcast,Hot,High,Weak,Maybe\nRain,Mild,High,Strong,\n",
    )
    assert encoded.labels == ("No", "Yes", "Maybe")
    result = evaluate(encoded.actual, predict(tree, encoded.table), encoded.labels, tree.classes)
    assert result.total == 2 and result.correct == 1 and result.unlabelled == 1
    assert result.matrix.tolist() == [[1, 0], [0, 0], [0, 1]]


def _weka_sum(tree, table, row: int) -> list[float]:
    """Brute force: J48's ClassifierTree.getProbs for one row, a recursion (small trees only),
    summing each split's non-empty branches left to right, each weighted by its share."""
    from dtcli.induction.predict.apply import leaf_distribution

    index = {a.name: j for j, a in enumerate(table.attributes)}

    def probs(node, parent, weight):
        if node.is_leaf:
            return [weight * p for p in leaf_distribution(node, parent).tolist()]
        branch = int(node.test.route(table.columns[index[node.test.attribute.name]][row : row + 1])[0])
        if branch >= 0:
            return probs(node.children[branch], node, weight)
        total, out = float(node.counts.sum()), [0.0] * len(tree.classes)
        for child in node.children:
            if child.weight > 1e-6:
                out = [a + b for a, b in zip(out, probs(child, node, child.weight / total * weight))]
        return out

    return probs(tree.root, None, 1.0)


def test_rows_with_missing_values_sum_as_j48_to_the_last_bit(tmp_path):
    # labor has missing values in most columns; J48 -U's ROC area of 'good' on these halves (0.829,
    # tests/cli/test_evaluate_weka.py) depends on which rows tie at exactly 1.0 after such sums.
    from helpers import WEKA, arff_halves

    train, test = arff_halves((WEKA / "data" / "labor.arff").read_text())
    (tmp_path / "train.arff").write_text(train)
    (tmp_path / "test.arff").write_text(test)
    tree = fit(load(tmp_path / "train.arff"), "c45", prune="none")[0]
    encoded = encode_for_schema(read_data(str(tmp_path / "test.arff")), tree.schema)
    proba = predict_proba(tree, encoded.table)
    expected = [_weka_sum(tree, encoded.table, row) for row in range(encoded.table.n_rows)]
    assert proba.tolist() == expected


def test_a_small_table_descends_without_numba():
    from helpers import loaded_after  # a fresh interpreter

    code = (
        "from helpers import SAMPLES, load\n"
        "from trees import fit\n"
        "from dtcli.induction.predict.apply import predict_proba\n"
        "table = load(SAMPLES / 'weather.csv', 'PlayTennis', ignore=('Day',))\n"
        "tree, _ = fit(table, 'id3', engine='reference')\n"
        "assert predict_proba(tree, table).shape == (14, 2)\n"
    )
    assert loaded_after(f"import sys; sys.path[:0] = {[str(TESTS)]!r}\n{code}", ("numba",)) == []
