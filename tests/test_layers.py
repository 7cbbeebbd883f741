"""Architecture boundaries (man/dtree-architecture.7, LAYERS), checked on the source (tests/sources.py) and at run time.

- the core (dtcli.model, dtcli.induction) imports neither click, rich, pandas
  nor liac-arff, and nothing from dtcli.cli, dtcli.render, dtcli.io;
- only dtcli.cli imports click; only dtcli.render imports rich; only
  dtcli.io imports pandas and arff;
- kernel packages (``*/kernels/``) hold numba code only: they import numpy,
  numba, math and other kernel modules or ``criteria/constants.py``, nothing else (but the
  plain functions they compile, ``KERNEL_COMPILES``);
- the engines (``levelwise``, ``cart``) build on the reference, never the
  other way round: ``grow``, ``search`` and ``criteria`` do not import them;
- dtcli.pipeline (the work the commands and the API share) sits below dtcli.cli
  and dtcli.api: it never imports them (nor click), and io, render, model and
  induction never import it.

Imports inside functions count as well.
"""

from __future__ import annotations

import pytest
from sources import external_imports, module_sources, scan

from helpers import loaded_after

SOURCES, PACKAGES = module_sources()
GRAPH, _ = scan(SOURCES, PACKAGES)
THIRD_PARTY_OWNER = {"click": "cli", "rich": "render", "pandas": "io", "arff": "io", "sklearn": "sklearn"}
# The Python API (dtcli.api, and dtcli.sklearn on it) sits above io, induction, model and render and
# below cli: those four never import it (a DataFrame reaches it by duck typing, so it imports no pandas).
BELOW_API = ("model", "induction", "io", "render")
API = ("dtcli.api", "dtcli.sklearn")
CORE = ("model", "induction")
PIPELINE = ("dtcli.pipeline",)
ABOVE_PIPELINE = ("dtcli.cli", *API)

KERNEL_LIBRARIES = {"__future__", "collections", "numpy", "numba", "math"}  # collections: namedtuple
KERNEL_CONSTANTS = "dtcli.induction.criteria.constants"
# The incomplete gamma function and a cut's threshold exist once, in plain Python, and the kernels
# compile those same functions (so p-values and thresholds are identical on every path).
KERNEL_COMPILES = {
    "dtcli.induction.criteria.chisquare",
    "dtcli.induction.criteria.midpoint",
    "dtcli.induction.criteria.midpoint_single",
}
# kernels/cache.py sets numba's cache up (it hashes the kernel sources to key the cache): no numba code itself
NOT_KERNELS = {"dtcli.induction.kernels.cache"}
ENGINES = ("dtcli.induction.levelwise", "dtcli.induction.cart")
BELOW_ENGINES = ("dtcli.induction.grow", "dtcli.induction.search", "dtcli.induction.criteria")


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def inside(module: str, packages) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def is_kernel(module: str) -> bool:
    return "kernels" in module.split(".") and module not in NOT_KERNELS


@pytest.mark.parametrize("module", sorted(SOURCES))
def test_layer_imports(module):
    here = layer(module)
    for top in sorted(external_imports(SOURCES[module]) & THIRD_PARTY_OWNER.keys()):
        assert THIRD_PARTY_OWNER[top] == here, (
            f"{module} imports {top}, which belongs to dtcli/{THIRD_PARTY_OWNER[top]}"
        )
    if here in CORE:
        outside = sorted(m for m in GRAPH[module] if layer(m) not in (*CORE, "errors", ""))
        assert not outside, f"core module {module} imports {outside}"


def test_layers_below_the_api_do_not_import_it():
    offences = [
        f"{module} imports {target}"
        for module in sorted(SOURCES)
        if layer(module) in BELOW_API
        for target in sorted(GRAPH[module])
        if inside(target, API)
    ]
    assert not offences, "the Python API is above io, induction, model and render:\n" + "\n".join(offences)


def test_the_pipeline_sits_below_the_commands_and_the_api():
    offences = [
        f"{module} imports {target}"
        for module in sorted(SOURCES)
        for target in sorted(GRAPH[module])
        if (layer(module) in BELOW_API and inside(target, PIPELINE))
        or (inside(module, PIPELINE) and inside(target, ABOVE_PIPELINE))
    ]
    assert not offences, "dtcli.pipeline is below cli and api, above io, render, induction and model:\n" + "\n".join(
        offences
    )


def test_kernels_import_only_numba_code():
    offences = []
    for module in sorted(m for m in SOURCES if is_kernel(m)):
        libraries = external_imports(SOURCES[module]) - KERNEL_LIBRARIES
        modules = {m for m in GRAPH[module] if not is_kernel(m) and m != KERNEL_CONSTANTS and m not in KERNEL_COMPILES}
        offences += [f"{module} imports {name}" for name in sorted(libraries | modules)]
    assert not offences, "kernel modules import only numpy, numba, math and kernels:\n" + "\n".join(offences)


def test_reference_does_not_import_the_engines():
    offences = [
        f"{module} imports {target}"
        for module in sorted(SOURCES)
        if inside(module, BELOW_ENGINES)
        for target in sorted(GRAPH[module])
        if inside(target, ENGINES)
    ]
    assert not offences, "grow/, search/ and criteria/ must not import the engines:\n" + "\n".join(offences)


def test_core_loads_without_ui_or_io_libraries():
    imports = (
        "import dtcli.induction.algorithms, dtcli.explain.report, dtcli.induction.predict.apply\n"
        "import dtcli.evaluate.metrics, dtcli.model.format.model, dtcli.model.where"
    )
    loaded = loaded_after(imports, ("click", "rich", "pandas", "arff"))
    assert not [m for m in loaded if m.split(".")[0] in ("click", "rich", "pandas", "arff")]
