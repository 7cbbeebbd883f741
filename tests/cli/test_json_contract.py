"""The contract for scripts: every JSON document parses, names itself (format, schema_version) and has
exactly the keys dtree-formats(5) lists (parsed from the page, so the page cannot drift); -o - is
standard output; under -f json standard error carries one JSON document and nothing else."""

from __future__ import annotations

import json
import re

import pytest

from helpers import ROOT, SAMPLES

PAGE = ROOT / "man" / "dtree-formats.5"
WEATHER, NUMERIC, IRIS = SAMPLES / "weather.csv", SAMPLES / "weather-numeric.csv", SAMPLES / "iris.csv"


def documented() -> dict[str, set[str]]:
    """Each document's key paths as the page lists them: the ``.B`` tag after each ``.TP`` of its section."""
    text = PAGE.read_text().split(".SH DOCUMENTS", 1)[1].split("\n.SH ", 1)[0]
    keys: dict[str, set[str]] = {}
    for section in re.split(r'^\.SS "', text, flags=re.M)[1:]:
        name = section.split('"', 1)[0].replace("\\-", "-")
        lines = section.splitlines()
        keys[name] = {lines[i + 1][3:] for i, line in enumerate(lines[:-1]) if line == ".TP"}
    return keys


DOCUMENTED = documented()


def key_paths(doc: dict, known: set[str]) -> set[str]:
    """The key paths of ``doc`` (``a.b``, ``a[].b`` for a list of objects), going down only into values
    whose keys the page lists (a node tree or counts per class are values as a whole)."""
    found: set[str] = set()
    stack = [("", doc)]
    while stack:
        path, value = stack.pop()
        below = [k for k in known if k.startswith((f"{path}.", f"{path}[]."))] if path else known
        if isinstance(value, dict) and below:
            for key, item in value.items():
                child = f"{path}.{key}" if path else key
                found.add(child)
                stack.append((child, item))
        elif isinstance(value, list) and below:
            stack.extend((f"{path}[]", item) for item in value if isinstance(item, dict))
    return found


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    from click.testing import CliRunner

    from dtcli.cli import cli

    where = tmp_path_factory.mktemp("models")
    made = {}
    for name, args in {
        "id3": [WEATHER, "--ignore", "Day"],
        "c45": [NUMERIC, "-a", "c45", "--no-prune"],
        "cart": [IRIS, "-a", "cart"],
        "regression": [IRIS, "-a", "cart", "--task", "regression", "-t", "petallength", "--max-depth", "2"],
    }.items():
        made[name] = where / f"{name}.json"
        result = CliRunner().invoke(cli, ["train", *map(str, args), "-q", "-o", str(made[name])])
        assert result.exit_code == 0, result.output
    rules = CliRunner().invoke(cli, ["rules", str(made["c45"]), "--prune", "--data", str(NUMERIC), "-f", "json"])
    made["rules"] = where / "rules.json"
    made["rules"].write_text(rules.stdout)
    return made


def runs(models):
    """(command line, stream holding the document): every JSON document dtree writes, in its forms."""
    m = models
    return [
        (["train", WEATHER, "--ignore", "Day", "-f", "json", "-q", "-o", "-"], "stdout"),
        (["train", NUMERIC, "-a", "c45", "-f", "json"], "stdout"),
        (["show", m["cart"], "-f", "json"], "stdout"),
        (["show", m["cart"], "--importance", "-f", "json"], "stdout"),
        (["prune", m["cart"], "--ccp-alpha", "0.01", "-f", "json", "-q", "-o", "-"], "stdout"),
        (["rules", m["c45"], "-f", "json"], "stdout"),
        (["rules", m["cart"], "-f", "json"], "stdout"),  # conditions marked missing
        (["rules", m["regression"], "-f", "json"], "stdout"),  # values, not classes
        (["rules", m["c45"], "--prune", "--data", NUMERIC, "-f", "json"], "stdout"),
        (["predict", m["id3"], WEATHER, "-f", "json", "--proba", "--explain", "-q"], "stdout"),
        (["predict", m["rules"], NUMERIC, "-f", "json", "-q"], "stdout"),
        (["predict", m["id3"], WEATHER, "-q", "--metrics-json", "-", "-o", "{tmp}/p.csv"], "stdout"),
        (["evaluate", m["c45"], NUMERIC, "-f", "json"], "stdout"),
        (["evaluate", m["rules"], NUMERIC, "-f", "json", "-o", "-"], "stdout"),
        (["gain", WEATHER, "--ignore", "Day", "-f", "json"], "stdout"),
        (["gain", NUMERIC, "-f", "json", "--thresholds-all", "--costs", "{tmp}/costs.csv"], "stdout"),
        (["gain", NUMERIC, "-a", "cart", "-f", "json"], "stdout"),
        (["gain", NUMERIC, "-w", "Temperature<65", "-f", "json"], "stdout"),
        (["gain", IRIS, "--task", "regression", "-t", "petallength", "-f", "json"], "stdout"),
        (["train", NUMERIC, "-a", "c45", "--trace", "-f", "json", "-q"], "stderr"),
        (["train", WEATHER, "--id", "Day", "--chi2-alpha", "0.5", "--trace", "-f", "json", "-q"], "stderr"),
        (["train", IRIS, "-a", "cart", "--cv-folds", "3", "--trace", "-f", "json", "-q"], "stderr"),
        (["train", IRIS, "-a", "cart", "--cv-folds", "3", "-f", "json", "-q"], "stderr"),
        (["prune", m["c45"], "--method", "pessimistic", "--data", NUMERIC, "--trace", "-f", "json", "-q"], "stderr"),
        (["prune", m["id3"], "--method", "reduced-error", "--validation", "{tmp}/held.csv", "--trace", "-f", "json"],
         "stderr"),
        (["prune", m["cart"], "--ccp-alpha", "0.01", "--trace", "-f", "json", "-q"], "stderr"),
        (["prune", m["cart"], "--data", IRIS, "--cv-folds", "3", "-f", "json", "-q"], "stderr"),
        (["prune", m["cart"], "--path", "-f", "json"], "stdout"),
        (["prune", m["cart"], "--path", "--data", IRIS, "--cv-folds", "3", "-f", "json"], "stdout"),
        (["prune", m["id3"], "--method", "reduced-error", "--validation", WEATHER, "--curve", "-f", "json"], "stdout"),
        (["prune", m["id3"], "--method", "reduced-error", "--validation", WEATHER, "--curve", "--test", WEATHER,
          "-f", "json"], "stdout"),
        (["diff", m["c45"], m["c45"], "--data", NUMERIC, "-f", "json"], "stdout"),
        (["diff", m["cart"], m["c45"], "-f", "json"], "stdout"),  # exit status 1: they differ
        (["diff", m["rules"], m["rules"], "-f", "json", "-o", "-"], "stdout"),
    ]  # fmt: skip


def test_every_document_parses_names_itself_and_has_the_documented_keys(run, models, tmp_path):
    (tmp_path / "costs.csv").write_text("Outlook,3\n")
    lines = WEATHER.read_text().splitlines()  # the sunny rows all Yes: cutting Humidity is no worse
    flipped = [line.replace(",No", ",Yes") if ",Sunny," in line else line for line in lines]
    (tmp_path / "held.csv").write_text("\n".join(flipped) + "\n")
    seen: dict[str, set[str]] = {}
    for args, stream in runs(models):
        args = [str(a).replace("{tmp}", str(tmp_path)) for a in args]
        result = run(*args)
        assert result.exit_code == 0 or (args[0] == "diff" and result.exit_code == 1), (args, result.stderr)
        doc = json.loads(getattr(result, stream))  # the whole stream is one document
        if doc.get("format") in ("dtree-model", "dtree-rules"):  # files with sorted keys
            assert list(doc) == sorted(doc), args
        else:
            assert list(doc)[:2] == ["format", "schema_version"], args
        assert isinstance(doc["schema_version"], int) and doc["format"] in DOCUMENTED, args
        keys = DOCUMENTED[doc["format"]]
        found = key_paths(doc, keys)
        assert found <= keys, f"{' '.join(args)}: keys dtree-formats(5) does not list: {sorted(found - keys)}"
        seen.setdefault(doc["format"], set()).update(found)
    for name, found in seen.items():
        if name not in ("dtree-model", "dtree-rules", "dtree-evaluation"):  # optional keys of these: below
            assert DOCUMENTED[name] - found == set(), f"{name}: listed but never written: {DOCUMENTED[name] - found}"
    assert set(DOCUMENTED) - set(seen) == set()


def test_the_model_and_evaluation_keys_of_a_regression(run, tmp_path):
    model = tmp_path / "reg.json"
    assert (
        run("train", IRIS, "-a", "cart", "--task", "regression", "-t", "petallength", "-o", model, "-q").exit_code == 0
    )
    doc = json.loads(model.read_text())
    assert key_paths(doc, DOCUMENTED["dtree-model"]) <= DOCUMENTED["dtree-model"]
    assert doc["schema"]["target"]["kind"] == "numeric"
    metrics = tmp_path / "m.json"
    assert run("predict", model, IRIS, "-q", "--metrics-json", metrics).exit_code == 0
    evaluation = json.loads(metrics.read_text())
    assert set(evaluation) == {"format", "schema_version", "about", "task", "summary"}
    assert key_paths(evaluation, DOCUMENTED["dtree-evaluation"]) == {
        "format",
        "schema_version",
        "about",
        "task",
        "summary",
        *(f"summary.{k}" for k in ("total", "unclassified", "ignored", "correlation", "mean_absolute_error")),
        *(f"summary.{k}" for k in ("root_mean_squared_error", "relative_absolute_error", "r2", "parts")),
        "summary.root_relative_squared_error",
    }
    assert evaluation["summary"]["total"] == 150


def test_frozen_models_keep_loading(run):
    frozen = ROOT / "tests" / "fixtures" / "models" / "weather-id3-v1.json"
    assert json.loads(frozen.read_text())["schema_version"] == 1
    assert run("predict", frozen, WEATHER, "-q").exit_code == 0


def test_dash_output_is_standard_output(run, models, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    trained = run("train", WEATHER, "--ignore", "Day", "-o", "-")
    assert trained.exit_code == 0 and json.loads(trained.stdout)["format"] == "dtree-model"
    assert trained.stderr.endswith("model written to standard output\n")
    pruned = run("prune", models["cart"], "--ccp-alpha", "0.01", "-o", "-")
    assert json.loads(pruned.stdout)["parameters"]["pruning"]["alpha"] == 0.01
    assert json.loads(run("rules", models["id3"], "-f", "json", "-o", "-").stdout)["format"] == "dtree-rules"
    assert json.loads(run("show", models["id3"], "-f", "json", "-o", "-").stdout)["format"] == "dtree-model"
    assert run("predict", models["id3"], WEATHER, "-o", "-", "-q").stdout.startswith("Day,")
    assert list(tmp_path.iterdir()) == []  # no file named -
    refused = run("train", WEATHER, "-o", "-", "--show", "dot")
    assert refused.exit_code == 1 and "--show" in refused.stderr


def test_json_trace_is_all_of_standard_error_with_the_warnings_in_it(run, models):
    pruned = run("prune", models["c45"], "--method", "pessimistic", "--data", NUMERIC, "--trace", "-f", "json")
    doc = json.loads(pruned.stderr)  # no "pruned from" line after it
    assert doc["method"] == "pessimistic" and doc["warnings"] == [] and json.loads(pruned.stdout)
    trained = run("train", WEATHER, "--trace", "-f", "json")  # Day looks like an identifier
    doc = json.loads(trained.stderr)
    assert len(doc["warnings"]) == 1 and "column Day" in doc["warnings"][0]
    text = run("train", WEATHER, "--trace", "-f", "text")
    assert text.stderr.startswith("Warning: ") and "ID3 tree:" in text.stderr


def test_ccp_alpha_traces_the_weakest_link_sequence(run, models):
    """Iris's CART tree: alphas 0, 0.00652, 0.00889, ... (the --path table); at A = 0.01 the subtree
    of the largest alpha not above A is kept, as prune_at cuts every g(t) <= A."""
    path = json.loads(run("prune", models["cart"], "--path", "-f", "json").stdout)["rows"]
    alphas = [row["alpha"] for row in path]
    kept = max(i for i, a in enumerate(alphas) if a <= 0.01)
    doc = json.loads(run("prune", models["cart"], "--ccp-alpha", "0.01", "--trace", "-f", "json", "-q").stderr)
    assert doc["method"] == "cost-complexity" and doc["chosen"] == kept and doc["alpha"] == 0.01
    assert [s["alpha"] for s in doc["steps"]] == alphas and doc["cv_folds"] is None
    text = run("prune", models["cart"], "--ccp-alpha", "0.01", "--trace", "-q")
    marked = [line for line in text.stderr.splitlines() if line.startswith("*")]
    assert len(marked) == 1 and int(marked[0].split()[2]) == path[kept]["leaves"]


def test_path_with_cross_validation_fills_the_cv_columns(run, models):
    doc = json.loads(run("prune", models["cart"], "--path", "--data", IRIS, "--cv-folds", "5", "-f", "json").stdout)
    rows = doc["rows"]
    assert all(r["cv_error"] is not None and r["cv_se"] is not None for r in rows)
    best = min(rows, key=lambda r: (r["cv_error"], r["leaves"]))
    assert doc["chosen"] == rows.index(best) and doc["cv_folds"] == 5
    for row in rows:  # the binomial standard error of a misclassification rate over 150 rows
        assert row["cv_se"] == pytest.approx((row["cv_error"] * (1 - row["cv_error"]) / 150) ** 0.5)
    pruned = json.loads(run("prune", models["cart"], "--data", IRIS, "--cv-folds", "5", "-f", "json", "-q").stderr)
    assert pruned["rows"] == rows and pruned["chosen"] == doc["chosen"]


def test_train_cv_table_under_json(run):
    result = run("train", IRIS, "-a", "cart", "--cv-folds", "4", "-f", "json")
    table = json.loads(result.stderr)
    assert table["format"] == "dtree-cp" and table["cv_folds"] == 4
    model = json.loads(result.stdout)
    assert model["parameters"]["pruning"]["alpha"] == table["rows"][table["chosen"]]["alpha"] == table["alpha"]
    traced = json.loads(run("train", IRIS, "-a", "cart", "--cv-folds", "4", "--trace", "-f", "json", "-q").stderr)
    assert traced["format"] == "dtree-trace" and traced["cost_complexity"]["rows"] == table["rows"]


def test_predict_metrics_json(run, models, tmp_path):
    """The weather tree on its own data: 14 of 14 right, No 5 and Yes 9 on the diagonal."""
    out = tmp_path / "m.json"
    result = run("predict", models["id3"], WEATHER, "--metrics-json", out, "-f", "json")
    assert json.loads(result.stdout)["format"] == "dtree-predictions"
    assert result.stderr.startswith("Accuracy: 14/14")  # the summary stays on standard error, as text
    doc = json.loads(out.read_text())
    assert doc["format"] == "dtree-evaluation" and doc["about"]["method"] == "test-set"
    assert doc["confusion_matrix"] == {"actual": ["No", "Yes"], "predicted": ["No", "Yes"], "counts": [[5, 0], [0, 9]]}
    summary = doc["summary"]
    assert summary["accuracy"] == 1.0 and summary["error_rate"] == 0.0 and summary["total"] == 14
    assert summary["kappa"] == 1.0 and [c["roc_area"] for c in doc["classes"]] == [1.0, 1.0]
    both = run("predict", models["id3"], WEATHER, "--metrics-json", "-")
    assert both.exit_code == 1 and "-o FILE" in both.stderr
    no_target = tmp_path / "x.csv"
    no_target.write_text("Outlook,Temperature,Humidity,Wind\nSunny,Hot,High,Weak\n")
    missing = run("predict", models["id3"], no_target, "--metrics-json", out)
    assert missing.exit_code == 1 and "PlayTennis" in missing.stderr
