"""The estimators against their references: scikit-learn's trees, ``dtree train``, repeated rows, sklearn tools."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pytest.importorskip("sklearn")

from sklearn import datasets
from sklearn.base import clone
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from dtcli.sklearn import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier
from helpers import SAMPLES, WEKA


def preorder(model) -> list:
    """(attribute index or -2 at a leaf, threshold or -2) of every node in preorder, as sklearn's tree_ arrays."""
    names = model.attributes
    return [
        (-2, -2.0) if n.split is None else (names.index(n.split), float(node.test.threshold))
        for n, node in zip(model.nodes, model.tree.root.walk())
    ]


def sklearn_preorder(tree) -> list:
    t = tree.tree_
    return [(int(t.feature[i]), float(t.threshold[i])) for i in range(t.node_count)]


@pytest.mark.parametrize("name", ["iris", "wine", "breast_cancer"])
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_cart_classifier_is_sklearns_tree(name, criterion):
    X, y = getattr(datasets, f"load_{name}")(return_X_y=True)
    ours = CARTClassifier(criterion=criterion, random_state=0).fit(X, y)
    theirs = DecisionTreeClassifier(criterion=criterion, random_state=0).fit(X, y)
    assert preorder(ours.model_) == sklearn_preorder(theirs)
    assert np.array_equal(ours.predict_proba(X), theirs.predict_proba(X))
    assert np.array_equal(ours.predict(X), theirs.predict(X))
    assert np.allclose(ours.feature_importances_, theirs.feature_importances_)


def test_cart_classifier_options_are_sklearns():
    X, y = datasets.load_breast_cancer(return_X_y=True)
    ours = CARTClassifier(max_depth=4, min_leaf=5, min_split=12, random_state=3).fit(X[::2], y[::2])
    theirs = DecisionTreeClassifier(max_depth=4, min_samples_leaf=5, min_samples_split=12, random_state=3)
    theirs.fit(X[::2], y[::2])
    assert preorder(ours.model_) == sklearn_preorder(theirs)
    assert np.array_equal(ours.predict_proba(X[1::2]), theirs.predict_proba(X[1::2]))


def test_cart_regressor_is_sklearns_tree():
    X, y = datasets.load_diabetes(return_X_y=True)
    ours = CARTRegressor(max_depth=6, random_state=0).fit(X, y)
    theirs = DecisionTreeRegressor(max_depth=6, random_state=0).fit(X, y)
    assert preorder(ours.model_) == sklearn_preorder(theirs)
    assert np.allclose(ours.predict(X), theirs.predict(X))
    assert np.allclose(ours.feature_importances_, theirs.feature_importances_)


def test_c45_is_the_tree_dtree_train_grows(run, tmp_path):
    X, y = datasets.load_iris(return_X_y=True)
    names = ["x0", "x1", "x2", "x3"]  # the estimator's names for an array's columns
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    rows = np.random.default_rng(1).permutation(len(y))  # classes no longer in sorted order of appearance
    path = tmp_path / "iris.csv"
    lines = [",".join([*names, "class"])] + [",".join([*map(repr, X[i].tolist()), labels[i]]) for i in rows]
    path.write_text("\n".join(lines) + "\n")
    result = run("train", path, "-a", "c45", "-f", "text")
    fitted = C45Classifier().fit(X[rows], labels[rows])
    assert fitted.model_.to_text() == result.stdout
    saved = tmp_path / "model.json"
    fitted.model_.save(saved)
    predicted = run("predict", saved, path, "-f", "csv")
    column = predicted.stdout.splitlines()[0].split(",").index("prediction")
    assert [line.split(",")[column] for line in predicted.stdout.splitlines()[1:]] == list(fitted.predict(X[rows]))


def test_nominal_dataframe_is_the_commands_tree(run):
    pandas = pytest.importorskip("pandas")
    frame = pandas.read_csv(SAMPLES / "weather.csv")
    X, y = frame.drop(columns=["Day", "PlayTennis"]), frame["PlayTennis"]
    for estimator, algorithm in ((ID3Classifier(), "id3"), (C45Classifier(), "c45")):
        result = run("train", SAMPLES / "weather.csv", "--ignore", "Day", "-a", algorithm, "-f", "text")
        fitted = estimator.fit(X, y)
        assert fitted.model_.to_text() == result.stdout
        assert list(fitted.feature_names_in_) == ["Outlook", "Temperature", "Humidity", "Wind"]
        assert fitted.score(X, y) == 1.0


def repeated(X, y, w):
    rows = np.repeat(np.arange(len(y)), w)
    return X[rows], y[rows]


@pytest.mark.parametrize(
    "make, data",
    [
        (lambda: CARTClassifier(), "iris"),
        (lambda: CARTClassifier(criterion="entropy", max_depth=3), "wine"),
        (lambda: ID3Classifier(), "iris"),
        (lambda: C45Classifier(missing="fractional"), "vote"),
        (lambda: C45Classifier(prune="none"), "breast-cancer"),
        (lambda: CARTRegressor(max_depth=4), "diabetes"),
    ],
)
def test_integer_weights_are_repeated_rows(make, data):
    if data in ("iris", "wine", "diabetes"):
        X, y = getattr(datasets, f"load_{data}")(return_X_y=True)
    else:
        pandas = pytest.importorskip("pandas")
        import arff

        loaded = arff.loads((WEKA / "data" / f"{data}.arff").read_text())
        frame = pandas.DataFrame(loaded["data"], columns=[name for name, _ in loaded["attributes"]])
        X, y = frame.iloc[:, :-1].to_numpy(dtype=object), frame.iloc[:, -1].to_numpy(dtype=object)
    w = np.random.default_rng(0).integers(0, 4, len(y))  # 0: the row is left out
    weighted = make().fit(X, y, sample_weight=w)
    copies = make().fit(*repeated(X, y, w))
    assert weighted.model_.to_text() == copies.model_.to_text()
    predict = getattr(weighted, "predict_proba", weighted.predict)
    assert np.allclose(predict(X), getattr(copies, "predict_proba", copies.predict)(X))


def test_class_weight_balanced_is_sklearns():
    X, y = datasets.load_breast_cancer(return_X_y=True)
    ours = CARTClassifier(class_weight="balanced", max_depth=3).fit(X, y)
    theirs = DecisionTreeClassifier(class_weight="balanced", max_depth=3, random_state=0).fit(X, y)
    assert preorder(ours.model_) == sklearn_preorder(theirs)
    assert np.allclose(ours.predict_proba(X), theirs.predict_proba(X))


def test_pickle_clone_and_notebook_picture():
    X, y = datasets.load_iris(return_X_y=True)
    fitted = C45Classifier(cf=0.1).fit(X, y)
    again = pickle.loads(pickle.dumps(fitted))
    assert np.array_equal(again.predict_proba(X), fitted.predict_proba(X))
    assert clone(fitted).get_params() == fitted.get_params()
    bundle = fitted._repr_mimebundle_()
    assert bundle["image/svg+xml"] == fitted.model_.to_svg()
    picture = fitted.model_.to_svg()  # the HTML: scikit-learn's box, then the picture
    assert "C45Classifier" in bundle["text/html"] and bundle["text/html"].endswith(
        picture[picture.index("<svg") :] + "</div>"
    )
    assert "<svg" not in C45Classifier()._repr_mimebundle_()["text/html"]


def test_sklearn_tools_run_with_them():
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.model_selection import GridSearchCV, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = datasets.load_iris(return_X_y=True)
    assert cross_val_score(make_pipeline(StandardScaler(), C45Classifier()), X, y, cv=3).mean() > 0.9
    search = GridSearchCV(CARTClassifier(), {"max_depth": [1, 3]}, cv=3).fit(X, y)
    assert search.best_params_ == {"max_depth": 3}
    boosted = AdaBoostClassifier(CARTClassifier(max_depth=1), n_estimators=5, random_state=0).fit(X, y)
    reference = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=5, random_state=0).fit(X, y)
    assert np.array_equal(boosted.predict(X), reference.predict(X))


def test_default_id3_refusals_and_errors():
    X, y = datasets.load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="ID3 splits only nominal attributes"):
        ID3Classifier(thresholds=None).fit(X, y)
    with pytest.raises(ValueError, match="--min-leaf must be 0 or more"):
        C45Classifier(min_leaf=-1).fit(X, y)
    with pytest.raises(ValueError, match="unknown criterion"):
        CARTClassifier(criterion="nope").fit(X, y)


def arff_frame(name: str):
    """A Weka ARFF file as a DataFrame: nominal attributes as categories in their declared order."""
    pandas = pytest.importorskip("pandas")
    import arff

    loaded = arff.loads((WEKA / "data" / f"{name}.arff").read_text())
    columns = {}
    for (column, kind), cells in zip(loaded["attributes"], zip(*loaded["data"])):
        if isinstance(kind, list):
            columns[column] = pandas.Categorical(cells, categories=kind)
        else:
            columns[column] = pandas.to_numeric(pandas.Series(cells, dtype=object), errors="coerce")
    return pandas.DataFrame(columns)


@pytest.mark.parametrize("name", ["labor", "vote", "breast-cancer", "credit-g"])
def test_c45_on_categories_is_the_arff_files_tree(run, name):
    frame = arff_frame(name)
    result = run("train", WEKA / "data" / f"{name}.arff", "-a", "c45", "-f", "text")
    fitted = C45Classifier().fit(frame.iloc[:, :-1], frame.iloc[:, -1])
    assert fitted.model_.to_text() == result.stdout
    import dtcli

    assert dtcli.fit(frame, algorithm="c45").to_text() == result.stdout
