"""Pruning: the error bounds, pessimistic pruning's invariants and trace."""

from __future__ import annotations

import json
import math

import pytest
from trees import fit

from dtcli.induction.criteria.bounds import added_errors, r8_coefficient, upper_rate
from helpers import WEKA, load


def test_bounds_at_the_published_values():
    assert round(upper_rate(6, 0), 3) == 0.206  # both bounds: 1 - 0.25^(1/6)
    assert round(upper_rate(6, 0, bound="c45r8"), 3) == 0.206
    assert round(upper_rate(16, 1), 3) == 0.155  # J48
    assert round(upper_rate(16, 1, bound="c45r8"), 3) == 0.157  # the C4.5 book
    assert math.sqrt(r8_coefficient(0.25)) == pytest.approx(0.6925)


def test_bound_cases():
    assert added_errors(0, 0) == 0
    assert added_errors(6, 0) == pytest.approx(6 * (1 - 0.25 ** (1 / 6)))
    half = added_errors(6, 0.5)  # interpolated between e = 0 and e = 1
    assert half == pytest.approx((added_errors(6, 0) + added_errors(6, 1)) / 2, rel=0, abs=1e-12)
    assert added_errors(4, 3.6) == pytest.approx(0.4)  # e + 0.5 >= N: N - e
    assert added_errors(4, 3.6, bound="c45r8") == pytest.approx(0.67 * 0.4)
    assert upper_rate(100, 10, cf=0.1) > upper_rate(100, 10, cf=0.25)  # lower CF, higher bound


def test_quinlan_congressional_voting_example():
    # C4.5 book ch. 4: a subtree with leaves of 6, 9 and 1 cases and no errors is
    # estimated at 6 x 0.206 + 9 x 0.143 + 1 x 0.750 = 3.273 errors; a leaf in its
    # place, 16 cases with 1 error, at 16 x 0.157 = 2.512 (2.507 unrounded), so the
    # subtree is pruned.
    subtree = sum(n * upper_rate(n, 0, bound="c45r8") for n in (6, 9, 1))
    leaf = 16 * upper_rate(16, 1, bound="c45r8")
    assert round(upper_rate(9, 0, bound="c45r8"), 3) == 0.143 and upper_rate(1, 0) == pytest.approx(0.75)
    assert round(subtree, 3) == 3.273 and round(leaf / 16, 3) == 0.157 and round(leaf, 3) == 2.507
    assert leaf < subtree


@pytest.mark.parametrize("name", ["labor", "vote", "breast-cancer", "soybean", "credit-g"])
def test_pessimistic_pruning_never_grows_the_tree(name):
    table = load(WEKA / "data" / f"{name}.arff")
    unpruned, _ = fit(table, "c45", prune="none")
    pruned, _ = fit(table, "c45")
    assert pruned.root.n_nodes() <= unpruned.root.n_nodes()
    assert pruned.parameters["pruning"]["original_leaves"] == unpruned.root.n_leaves()
    assert pruned.root.weight == pytest.approx(unpruned.root.weight)
    assert len(pruned.trace) >= 1 and {s.action.split()[0] for s in pruned.trace} <= {"leaf", "raise", "keep"}


@pytest.mark.parametrize("name", ["labor", "vote", "breast-cancer", "soybean", "credit-g"])
@pytest.mark.parametrize("cf, raising, max_bins", [(0.25, True, None), (0.4, True, 16), (0.1, False, None)])
def test_pessimistic_pruning_of_a_pruned_tree_on_its_cases_changes_nothing(name, cf, raising, max_bins):
    """J48's pruning is a fixed point: what the Dask engine relies on when it prunes the subtrees grown on
    its workers there, on their own cases, and the whole tree again on the client (distributed/finish.py)."""
    from dtcli.induction.prune.pessimistic.prune import pessimistic_prune
    from dtcli.model.format.model import dumps_model

    table = load(WEKA / "data" / f"{name}.arff")
    grown, _ = fit(table, "c45", prune="none", max_bins=max_bins)
    for engine in ("reference", "compiled"):
        pruned, steps = pessimistic_prune(grown, table, cf, raising, engine=engine)
        again, _ = pessimistic_prune(pruned, table, cf, raising, engine=engine)
        again.parameters = pruned.parameters  # (but for the count of leaves before: the pruned tree's)
        assert dumps_model(again) == dumps_model(pruned)
        assert any(step.action.split()[0] != "keep" for step in steps)  # (the first pruning changed the tree)


def test_smaller_confidence_prunes_more():
    table = load(WEKA / "data" / "credit-g.arff")
    sizes = [fit(table, "c45", cf=cf)[0].root.n_nodes() for cf in (0.5, 0.25, 0.1, 0.01)]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] > sizes[-1]


# ---------------------------------------------------------------------------
# Reduced-error pruning against an independent implementation of Mitchell's procedure

import copy  # noqa: E402

import numpy as np  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from trees import shape  # noqa: E402

from dtcli.induction.prune.reduced_error.curve import pruning_curve  # noqa: E402
from dtcli.induction.prune.reduced_error.prune import reduced_error_prune, stratified_holdout  # noqa: E402
from dtcli.model.table import NOMINAL, Attribute, Schema, Table  # noqa: E402
from dtcli.render.tree import text_tree  # noqa: E402


def classify(node, row):
    while not node.is_leaf:
        node = node.children[row[node.test.attribute.name]]
    return node.label


def mitchell(root, rows, labels):
    """Mitchell 3.7.1.1, written plainly: prune the node whose removal helps most."""
    root = copy.deepcopy(root)

    def acc():
        return sum(classify(root, r) == y for r, y in zip(rows, labels)) / len(rows)

    def internal(node):
        if node.is_leaf:
            return []
        out = [node]
        for child in node.children:
            out += internal(child)
        return out

    current = acc()
    while True:
        best, best_acc = None, -1.0
        for node in internal(root):
            saved = node.test, node.children
            node.test, node.children = None, []
            trial = acc()
            node.test, node.children = saved
            if trial > best_acc:
                best, best_acc = node, trial
        if best is None or best_acc < current:
            return root
        best.test, best.children = None, []
        current = best_acc


@st.composite
def labelled_tables(draw):
    n_attr = draw(st.integers(2, 4))
    n = draw(st.integers(12, 50))
    rows = [[draw(st.integers(0, 2)) for _ in range(n_attr)] for _ in range(n)]
    labels = [(r[0] + (r[1] if draw(st.booleans()) else 0)) % 2 for r in rows]
    return rows, labels


def to_table(rows, labels):
    attributes = tuple(Attribute(f"A{j}", NOMINAL, ("a", "b", "c")) for j in range(len(rows[0])))
    columns = [np.array([r[j] for r in rows], dtype=np.int32) for j in range(len(rows[0]))]
    schema = Schema(attributes, Attribute("y", NOMINAL, ("p", "q")))
    return Table(schema, columns, np.array(labels, dtype=np.int32))


@settings(max_examples=60, deadline=None)
@given(labelled_tables(), st.integers(0, 10))
def test_reduced_error_matches_mitchells_procedure(case, seed):
    rows, labels = case
    table = to_table(rows, labels)
    if len(set(labels)) < 2:
        return
    train_rows, held = stratified_holdout(table, 1 / 3, seed)
    if len(held) == 0 or len(set(table.y[train_rows])) < 2:
        return
    tree, _ = fit(table.take(train_rows), "id3")
    pruned, steps = reduced_error_prune(tree, table.take(held))
    held_rows = [{f"A{j}": rows[i][j] for j in range(len(rows[0]))} for i in held]
    expected = mitchell(tree.root, held_rows, [labels[i] for i in held])
    assert shape(pruned.root, tree.classes) == shape(expected, tree.classes)
    accuracies = [s.after for s in steps]
    assert all(s.after >= s.before for s in steps) and accuracies == sorted(accuracies)
    assert pruned.root.n_nodes() <= tree.root.n_nodes()


def test_curve_training_falls_validation_does_not():
    table = load(WEKA / "data" / "credit-g.arff")
    rows, held = stratified_holdout(table, 1 / 3, 0)
    tree, _ = fit(table.take(rows), "c45", prune="none")
    points = pruning_curve(tree, table.take(held), table.take(held))
    assert len(points) > 5 and points[0].nodes == tree.root.n_nodes()
    training = [p.training for p in points]
    validation = [p.validation for p in points]
    assert training == sorted(training, reverse=True) and training[-1] < training[0]
    assert validation == sorted(validation) and validation[-1] > validation[0]


def test_stratified_holdout_keeps_class_shares():
    table = load(WEKA / "data" / "credit-g.arff")
    rows, held = stratified_holdout(table, 1 / 3, 7)
    assert len(np.intersect1d(rows, held)) == 0 and len(rows) + len(held) == table.n_rows
    share = np.bincount(table.y[held]) / np.bincount(table.y)
    assert np.allclose(share, 1 / 3, atol=0.01)


def test_chi_square_pre_pruning(weather):
    from dtcli.induction.criteria.chisquare import chi2_sf, chi_square

    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05)
    assert chi2_sf(18.307038053275146, 10) == pytest.approx(0.05)
    statistic, df, p_value = chi_square([[3, 2], [0, 4], [2, 3]])  # Outlook at the root
    assert df == 2 and statistic == pytest.approx(3.5467, abs=1e-4) and p_value == pytest.approx(0.1698, abs=1e-4)
    assert fit(weather, chi2_alpha=0.05)[0].root.is_leaf  # Outlook is not significant at 5%
    tree, _ = fit(weather, chi2_alpha=0.2)
    assert tree.root.n_leaves() == 5
    assert [round(s.p_value, 4) for s in tree.trace] == [0.1698, 0.0253, 0.0253]


def test_prune_command_methods(run, tmp_path):
    vote = WEKA / "data" / "vote.arff"
    model = tmp_path / "vote.json"
    assert run("train", vote, "-a", "c45", "--no-prune", "-q", "-o", model).exit_code == 0
    pessimistic = run("prune", model, "--method", "pessimistic", "--data", vote, "-f", "text", "--trace")
    expected = (WEKA / "expected" / "vote.j48-pruned.txt").read_text().split("\n\nNumber of Leaves")[0].strip()
    assert pessimistic.stdout.strip() == expected
    assert "Pessimistic pruning" in pessimistic.stderr
    curve = run("prune", model, "--method", "reduced-error", "--validation", vote, "--curve", "-f", "json")
    doc = json.loads(curve.stdout)
    assert doc["format"] == "dtree-curve" and doc["points"][0]["nodes"] >= doc["points"][-1]["nodes"]
    missing = run("prune", model, "--method", "pessimistic")
    assert missing.exit_code == 1 and "--data" in missing.stderr
    plot = run(
        "prune", model, "--method", "reduced-error", "--validation", vote, "--curve", "--plot", tmp_path / "c.svg"
    )
    try:
        import matplotlib  # noqa: F401

        assert plot.exit_code == 0 and (tmp_path / "c.svg").read_text().startswith("<?xml")
    except ImportError:
        assert plot.exit_code == 1 and "pip install 'dtree[plot]'" in plot.stderr


def test_reduced_error_hand_worked(weather, tmp_path):
    # Validation: (Sunny, High) No, (Sunny, Normal) No, (Rain, Weak) Yes. Mitchell's tree gets
    # 2/3. Pruning Humidity (Sunny: 3 No, 2 Yes -> No) gives 3/3, the best; then pruning Wind
    # (Rain: 3 Yes, 2 No -> Yes) keeps 3/3 (no worse is enough); pruning the root would give 1/3.
    from dtcli.io.encode import encode_for_schema
    from dtcli.io.read import read_data

    tree, _ = fit(weather)
    held = tmp_path / "held.csv"
    held.write_text(
        "Outlook,Temperature,Humidity,Wind,PlayTennis\n"
        "Sunny,Hot,High,Weak,No\nSunny,Mild,Normal,Weak,No\nRain,Mild,High,Weak,Yes\n"
    )
    validation = encode_for_schema(read_data(str(held)), tree.schema).table
    pruned, steps = reduced_error_prune(tree, validation)
    assert [(s.path, round(s.before, 3), round(s.after, 3)) for s in steps] == [
        ("/Outlook = Sunny", 0.667, 1.0),
        ("/Outlook = Rain", 1.0, 1.0),
    ]
    assert shape(pruned.root, tree.classes) == ("Outlook", {"Sunny": "No", "Overcast": "Yes", "Rain": "Yes"})
    assert pruned.parameters["pruning"] == {"method": "reduced-error", "validation_rows": 3, "original_leaves": 5}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("missing", ["fractional", "majority"])
def test_reduced_error_rounds_from_counts_match_predicting_every_candidate(seed, missing):
    """The fast rounds (kept counts, rows that went down several branches predicted again) make
    the choices of the plain procedure, which predicts the validation set for every candidate:
    same steps, same accuracies, same tree; validation rows with missing values included."""
    from trees import generated

    from dtcli.induction.prune.reduced_error import prune as reduced_error
    from dtcli.model.format.model import dumps_model

    table = generated(900, seed)
    rows, held = stratified_holdout(table, 0.4, seed)
    tree, _ = fit(table.take(rows), "c45", prune="none", missing=missing, min_leaf=1.0)
    validation = table.take(held)
    fast, fast_steps = reduced_error_prune(tree, validation)
    work = copy.deepcopy(tree)
    plain_steps = reduced_error._plain_rounds(work, validation)
    assert fast_steps == plain_steps
    assert text_tree(fast) == text_tree(work)
    assert json.loads(dumps_model(fast))["root"] == json.loads(dumps_model(work))["root"]
