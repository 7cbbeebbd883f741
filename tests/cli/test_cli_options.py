"""The shared option groups: --engine and its DTREE_ENGINE fallback, typed options, one output path."""

from __future__ import annotations

import pytest

from dtcli.errors import ParameterError
from dtcli.induction import backend
from helpers import SAMPLES, loaded_after


@pytest.fixture
def requests(monkeypatch):
    """The engine each training run asked the backend for."""
    seen = []
    choose = backend.choose

    def spy(table, params, engine="auto", narrate=False):
        seen.append(engine)
        return choose(table, params, engine, narrate)

    monkeypatch.setattr(backend, "choose", spy)
    return seen


@pytest.mark.parametrize(
    ("variable", "option", "expected"),
    [
        (None, None, "auto"),
        ("numba", None, "compiled"),
        ("numpy", None, "reference"),
        ("compiled", None, "compiled"),
        ("reference", None, "reference"),
        ("bogus", None, "auto"),
        ("numba", "reference", "reference"),
        (None, "compiled", "compiled"),
    ],
)
def test_engine_option_falls_back_to_dtree_engine(run, monkeypatch, requests, variable, option, expected):
    if variable is None:
        monkeypatch.delenv("DTREE_ENGINE", raising=False)
    else:
        monkeypatch.setenv("DTREE_ENGINE", variable)
    args = ["train", SAMPLES / "weather-numeric.csv", "-a", "c45", "-f", "json"]
    result = run(*args, *(["--engine", option] if option else []))
    assert result.exit_code == 0
    assert requests == [expected]


def test_every_engine_gives_the_same_output(run):
    outputs = set()
    for engine in ("auto", "reference", "compiled"):
        result = run("train", SAMPLES / "weather-numeric.csv", "-a", "c45", "-f", "json", "--engine", engine)
        assert result.exit_code == 0
        # on a machine whose kernel cache is cold, the compiled run also says that it compiles (once)
        said = [line for line in result.stderr.splitlines(True) if not line.startswith("compiling kernels (")]
        outputs.add((result.stdout, "".join(said)))
    assert len(outputs) == 1


def test_compiled_without_numba_warns_and_uses_the_reference(run, monkeypatch):
    monkeypatch.setattr(backend, "available", lambda: False)
    result = run("train", SAMPLES / "weather-numeric.csv", "-a", "c45", "-f", "text", "--engine", "compiled")
    assert result.exit_code == 0
    assert "Warning: --engine compiled: numba cannot be used here; the reference grower ran instead\n" in result.stderr


def test_prune_cv_folds_regrows_with_the_engine_asked_for(run, tmp_path, requests, monkeypatch):
    seen = []
    grow_nodes = backend.grow_nodes
    monkeypatch.setattr(backend, "grow_nodes", lambda *args, **kw: seen.append(args[2]) or grow_nodes(*args, **kw))
    model = tmp_path / "m.json"
    assert run("train", SAMPLES / "restaurant.csv", "-a", "cart", "-o", model, "-q").exit_code == 0
    result = run("prune", model, "--cv-folds", "2", "--data", SAMPLES / "restaurant.csv", "--engine", "reference")
    assert result.exit_code == 0
    assert seen == ["reference", "reference"]


def test_a_misspelt_option_is_a_parameter_error():
    from dtcli.induction import grow_params

    with pytest.raises(ParameterError, match="unknown growth option 'max_dept'"):
        grow_params("id3", max_dept=3)
    with pytest.raises(ParameterError, match="unknown algorithm"):
        grow_params("c50")


def test_an_unknown_engine_is_a_parameter_error(weather):
    from dtcli.induction import grow_params, train

    with pytest.raises(ParameterError, match="--engine must be one of auto, reference, compiled"):
        train(weather, grow_params("id3"), engine="numba")


def test_the_package_states_its_api_without_loading_engines():
    imports = (
        "import dtcli.induction as d\n"
        "assert {'train', 'regrow', 'ALGORITHMS', 'PRUNERS', 'GrowParams', 'PruneParams'} <= set(d.__all__)"
    )
    assert loaded_after(imports, ("numba", "pandas", "dtcli.induction.levelwise", "dtcli.induction.cart")) == []


def test_no_module_writes_around_the_console():
    import re
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "dtcli"
    pattern = re.compile(r"\bprint\(|click\.echo\(|sys\.std(out|err)\.write")
    for path in package.rglob("*.py"):
        if path.name == "console.py":
            continue
        text = re.sub(r"console\.print\(", "", path.read_text())
        text = re.sub(r"(?m)^\s*(>>>|\.\.\.) .*$", "", text)  # a docstring's examples (doctest) may print
        assert not pattern.search(text), f"{path} writes around the console"


def test_only_the_backend_chooses_and_the_core_ignores_dtree_engine():
    import re
    from pathlib import Path

    core = Path(__file__).resolve().parents[2] / "dtcli" / "induction"
    grower = (core / "grow" / "grower.py").read_text()
    assert not re.search(r"import .*(levelwise|cart\.engine)|from dtcli\.induction\.(levelwise|cart) ", grower)
    for path in core.rglob("*.py"):
        if path.name == "backend.py":
            continue
        code = re.sub(r'""".*?"""', "", path.read_text(), flags=re.S)  # docstrings may name them
        assert "ENGINE_MIN_ROWS" not in code and "DTREE_ENGINE" not in code, f"{path} chooses an engine"
