"""The growth trace as data: every stopping reason on small hand-made tables, C4.5's numbers from counts."""

from __future__ import annotations

import math

import pytest

from dtcli.induction.algorithms import grow_params, train
from dtcli.induction.grow.narrate import REASONS, GrowStep
from dtcli.induction.params import PruneParams
from helpers import SAMPLES, load

NO_PRUNING = PruneParams(method="none")


def H(*counts):
    """Entropy of class counts, from the definition."""
    total = sum(counts)
    return -sum(c / total * math.log2(c / total) for c in counts if c)


def steps_of(table, algorithm="id3", **options):
    tree, _ = train(table, grow_params(algorithm, **options), NO_PRUNING, narrate=True)
    steps = [s for s in tree.trace if isinstance(s, GrowStep)]
    assert len(steps) == tree.root.n_nodes()  # one record per node of the grown tree
    return tree, steps


def table_of(tmp_path, text, target=None):
    path = tmp_path / "t.csv"
    path.write_text(text)
    return load(path, target)


def reasons(steps):
    return [s.reason for s in steps if s.reason is not None]


def test_mitchell_root_and_sunny_from_counts(weather):
    _, steps = steps_of(weather)
    root = steps[0]
    assert root.parent is None and list(root.counts) == [5, 9] and root.n_rows == 14
    assert root.impurity == pytest.approx(H(9, 5))
    gains = {c.attribute: c.gain for c in root.candidates}
    assert gains["Outlook"] == pytest.approx(H(9, 5) - 5 / 14 * H(2, 3) - 4 / 14 * H(4, 0) - 5 / 14 * H(3, 2))
    assert gains["Humidity"] == pytest.approx(H(9, 5) - 7 / 14 * H(3, 4) - 7 / 14 * H(6, 1))
    assert gains["Wind"] == pytest.approx(H(9, 5) - 8 / 14 * H(6, 2) - 6 / 14 * H(3, 3))
    assert gains["Temperature"] == pytest.approx(H(9, 5) - 4 / 14 * H(2, 2) - 6 / 14 * H(4, 2) - 4 / 14 * H(3, 1))
    assert root.chosen.attribute == "Outlook" and root.reason is None
    sunny = steps[1]
    assert sunny.parent == 1 and sunny.condition == "Outlook = Sunny"
    assert [int(r) + 1 for r in sunny.rows] == [1, 2, 8, 9, 11]
    assert sunny.chosen.attribute == "Humidity"
    assert {c.attribute for c in sunny.candidates} == {"Temperature", "Humidity", "Wind"}  # Outlook is used
    assert reasons(steps) == ["pure"] * 5


def test_every_reason_has_a_name():
    from dtcli.render.growth import REASON_TEXT

    assert set(REASONS) == set(REASON_TEXT)


def test_no_attributes_left(tmp_path):
    _, steps = steps_of(table_of(tmp_path, "A,C\nx,yes\nx,no\ny,yes\n"))
    assert reasons(steps) == ["no-attributes", "pure"]


def test_no_split_when_every_attribute_has_one_value(tmp_path):
    _, steps = steps_of(table_of(tmp_path, "A,B,C\nx,p,yes\nx,p,no\n"))
    assert reasons(steps) == ["no-split"]


def test_zero_gain_on_xor(tmp_path):
    _, steps = steps_of(table_of(tmp_path, "A,B,C\nf,f,no\nf,t,yes\nt,f,yes\nt,t,no\n"))
    assert reasons(steps) == ["zero-gain"]
    assert steps[0].chosen is not None and steps[0].chosen.gain == pytest.approx(0.0)


def test_min_gain(weather):
    _, steps = steps_of(weather, min_gain=0.3)
    assert reasons(steps) == ["min-gain"] and steps[0].chosen.attribute == "Outlook"


def test_min_split(weather):
    _, steps = steps_of(weather, min_split=6)
    # the Sunny and Rain nodes have 5 cases
    assert [s.condition for s in steps if s.reason == "min-split"] == ["Outlook = Sunny", "Outlook = Rain"]


def test_max_depth(weather):
    _, steps = steps_of(weather, max_depth=1)
    assert [s.condition for s in steps if s.reason == "max-depth"] == ["Outlook = Sunny", "Outlook = Rain"]


def test_purity(weather):
    _, steps = steps_of(weather, purity=0.6)  # 9 of 14 = 0.64 >= 0.6
    assert reasons(steps) == ["purity"]


def test_not_significant(weather):
    _, steps = steps_of(weather, chi2_alpha=0.01)
    assert reasons(steps) == ["not-significant"]
    assert steps[0].chi is not None and steps[0].chi.p_value >= 0.01


def test_max_leaves(weather):
    _, steps = steps_of(weather, max_leaves=2)  # Outlook's three branches exceed the budget
    assert reasons(steps) == ["max-leaves"] and steps[0].chosen.attribute == "Outlook"
    # the root (3 leaves), then Rain (queued first among equals: 5 cases x gain 0.971), then no more
    _, steps = steps_of(weather, max_leaves=4)
    assert sorted(reasons(steps)) == ["max-leaves", "pure", "pure", "pure"]
    assert [s.condition for s in steps if s.reason == "max-leaves"] == ["Outlook = Sunny"]
    assert [s.expanded for s in steps if s.reason is None] == [1, 2]


def test_min_leaf_cannot_be_met(weather):
    _, steps = steps_of(weather, min_leaf=8)  # no attribute leaves 8 cases in two branches (Humidity: 7 and 7)
    assert reasons(steps) == ["min-leaf"]
    _, steps = steps_of(weather, algorithm="cart", min_leaf=8)  # 14 < 2 x 8
    assert reasons(steps) == ["min-leaf"]


def test_empty_branch_gets_the_parents_majority(tmp_path):
    text = "A,B,C\nx,p,yes\nx,q,no\nx,p,yes\ny,p,no\ny,r,no\n"
    tree, steps = steps_of(table_of(tmp_path, text))
    empty = [s for s in steps if s.reason == "empty"]
    assert [s.condition for s in empty] == ["B = r"]
    parent = next(s for s in steps if s.id == empty[0].parent)
    assert empty[0].label == parent.label and empty[0].n_rows == 0


def test_c45_gain_ratio_filter_and_mdl():
    table = load(SAMPLES / "weather-numeric.csv", "Play")
    _, steps = steps_of(table, algorithm="c45")
    root = {c.attribute: c for c in steps[0].candidates}
    outlook = H(9, 5) - 5 / 14 * H(2, 3) - 4 / 14 * H(4, 0) - 5 / 14 * H(3, 2)
    windy = H(9, 5) - 8 / 14 * H(6, 2) - 6 / 14 * H(3, 3)
    assert root["Outlook"].ratio == pytest.approx(outlook / H(5, 4, 5))
    assert root["Windy"].ratio == pytest.approx(windy / H(8, 6))
    # 9 cuts of Temperature leave 2 or more cases each side: the MDL correction is log2(9)/14
    assert root["Temperature"].mdl == pytest.approx(math.log2(9) / 14)
    assert root["Temperature"].eligible is False and root["Temperature"].gain <= 0
    # the average gain is over the attributes that have a split: Outlook and Windy
    assert steps[0].average == pytest.approx((outlook + windy) / 2)
    assert root["Outlook"].eligible and not root["Windy"].eligible
    sunny = steps[1]
    assert str(sunny.chosen.test.attribute.name) == "Humidity" and sunny.chosen.mdl is not None


def test_regression_records_mse(tmp_path):
    table = load_regression(tmp_path, "x,y\n1,1\n2,1\n3,5\n4,5\n")
    _, steps = steps_of(table, algorithm="cart")
    assert steps[0].impurity == pytest.approx(4.0) and steps[0].value == pytest.approx(3.0)
    assert steps[0].candidates[0].score == pytest.approx(4.0)  # x <= 2.5 leaves two pure halves
    assert reasons(steps) == ["pure", "pure"]


def load_regression(tmp_path, text):
    path = tmp_path / "r.csv"
    path.write_text(text)
    return load(path, "y", task="regression")


def test_no_trace_no_records(weather):
    tree, _ = train(weather, grow_params("id3"), NO_PRUNING)
    assert not any(isinstance(s, GrowStep) for s in tree.trace)


@pytest.mark.parametrize(
    ("name", "target", "algorithm", "options"),
    [
        ("weather.csv", "PlayTennis", "id3", {"criterion": "gain-ratio"}),
        ("weather-numeric.csv", "Play", "c45", {}),
        ("weather-numeric.csv", "Play", "cart", {}),
        ("contact-lenses.csv", None, "id3", {"max_leaves": 3}),
        ("contact-lenses.csv", None, "c45", {"criterion": "gini"}),
        ("restaurant.csv", None, "cart", {"criterion": "cart"}),
        ("missing", "Play", "c45", {}),
        ("missing", "Play", "id3", {"missing": "majority", "thresholds": "midpoint"}),
    ],
)
def test_tracing_grows_the_same_tree(tmp_path, name, target, algorithm, options):
    if name == "missing":  # Quinlan's golf data with holes: fractional cases and filled-in values
        lines = (SAMPLES / "weather-numeric.csv").read_text().splitlines()
        holes = [line if i % 4 != 2 else ",".join(["?"] + line.split(",")[1:]) for i, line in enumerate(lines)]
        holes = [
            line if i % 5 != 3 else ",".join(line.split(",")[:2] + ["?"] + line.split(",")[3:])
            for i, line in enumerate(holes)
        ]
        (tmp_path / "m.csv").write_text("\n".join(holes) + "\n")
        table = load(tmp_path / "m.csv", target)
    else:
        table = load(SAMPLES / name, target)
    params = grow_params(algorithm, **options)
    plain, _ = train(table, params, NO_PRUNING)
    traced, _ = train(table, params, NO_PRUNING, narrate=True)
    assert model_text(traced) == model_text(plain)
    steps = [s for s in traced.trace if isinstance(s, GrowStep)]
    if params.collapse:  # C4.5 collapses, after growth, subtrees that do not lower the training errors
        assert len(steps) >= traced.root.n_nodes()
    else:
        assert len(steps) == traced.root.n_nodes()
    assert all(s.reason in REASONS for s in steps if s.reason is not None)
    assert all(s.chosen is not None for s in steps if s.reason is None)


def model_text(tree) -> str:
    from dtcli.model.format.model import dump_model

    parts = []
    dump_model(tree, parts.append)
    return "".join(parts)
