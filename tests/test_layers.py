"""The layers of the house (man/dtree-architecture.7, LAYERS), checked on the source (tests/sources.py) and at run time.

``LAYERS`` is the map: packages from the bottom up, and ``INDUCTION`` the learning core's own
floors. A module imports only from its own package or from a package on a lower floor (imports
inside functions count as well): nothing climbs back up, and packages on one floor do not import
each other. The architecture page draws its diagram from this table (``diagram``), and a test
keeps the two equal. Besides:

- only dtcli.cli imports click; only dtcli.render imports rich; only dtcli.io imports pandas and
  liac-arff; only dtcli.sklearn imports scikit-learn;
- kernel packages (``*/kernels/``) hold numba code only: they import numpy, numba, math and other
  kernel modules or ``criteria/constants.py``, nothing else (but the plain functions they compile,
  ``KERNEL_COMPILES``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sources import external_imports, module_sources, scan

from helpers import loaded_after

SOURCES, PACKAGES = module_sources()
GRAPH, _ = scan(SOURCES, PACKAGES)
THIRD_PARTY_OWNER = {"click": "cli", "rich": "render", "pandas": "io", "arff": "io", "sklearn": "sklearn"}

# (floor, packages on it, what they do), from the bottom up
LAYERS = (
    ("errors", ("errors", "version"), "the error family (DtreeError), the version"),
    ("base", ("notes", "stops", "streams"), "notes for the user, stop signals, standard streams"),
    ("model", ("model",), "Table, Schema, Tree, Node, rule sets; the JSON formats"),
    ("induction", ("induction",), "growing, pruning and applying trees (numpy, numba)"),
    ("io", ("io",), "CSV, ARFF, Parquet, Dask data; atomic writers (pandas)"),
    ("using trees", ("compare", "evaluate", "explain"), "diff, judging on data, the gain report"),
    ("render", ("render",), "text, tables, pictures for people (rich)"),
    ("plain", ("plain",), "dtree gain without numpy on small files"),
    ("pipeline", ("pipeline",), "loading, training, cross-validation, streamed and Dask prediction"),
    ("api", ("api",), "the Python API: import dtcli"),
    ("sklearn", ("sklearn",), "scikit-learn estimators"),
    ("cli", ("cli",), "the commands: options, guards, exit codes (click)"),
    ("resident", ("resident",), "the resident process: commands run in a forked copy"),
    ("entry", ("__main__", "__init__"), "python -m dtcli; import dtcli"),
)
# the learning core's floors, from the bottom up (dtcli.induction.<name>)
INDUCTION = (
    ("__init__", "names", "memory", "importance", "estimates", "weights", "workers"),
    ("criteria",),
    ("kernels", "search"),
    ("compiling", "params"),
    ("grow",),
    ("levelwise", "cart"),
    ("backend",),
    ("predict",),
    ("prune", "rules"),
    ("distributed",),
    ("algorithms",),
    ("fit",),
)

KERNEL_LIBRARIES = {"__future__", "collections", "numpy", "numba", "math"}  # collections: namedtuple
KERNEL_CONSTANTS = "dtcli.induction.criteria.constants"
# The incomplete gamma function and a cut's threshold exist once, in plain Python, and the kernels
# compile those same functions (so p-values and thresholds are identical on every path).
KERNEL_COMPILES = {
    "dtcli.induction.criteria.chisquare",
    "dtcli.induction.criteria.midpoint",
    "dtcli.induction.criteria.midpoint_single",
}
# kernels/cache.py sets numba's cache up (it hashes the kernel sources to key the cache), shipped.py copies
# the kernels compiled at install into it, prebuild.py and install.py compile them then: no numba code itself
NOT_KERNELS = {f"dtcli.induction.kernels.{name}" for name in ("cache", "shipped", "prebuild", "install")}


def package(module: str) -> str:
    """The package of ``module`` as LAYERS names it (``dtcli/__init__.py``: ``__init__``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def floor(module: str) -> tuple[int, int]:
    """(floor in LAYERS, floor in INDUCTION or 0) of ``module``."""
    name = package(module)
    top = next(i for i, (_, names, _) in enumerate(LAYERS) if name in names)
    if name != "induction":
        return top, 0
    parts = module.split(".")
    inner = parts[2] if len(parts) > 2 else "__init__"
    return top, next(i for i, names in enumerate(INDUCTION) if inner in names)


def unit(module: str) -> str:
    """The package an import may stay inside: ``dtcli.X``, or ``dtcli.induction.X``."""
    parts = module.split(".")
    return ".".join(parts[:3]) if len(parts) > 2 and parts[1] == "induction" else ".".join(parts[:2])


def is_kernel(module: str) -> bool:
    return "kernels" in module.split(".") and module not in NOT_KERNELS


def diagram() -> str:
    """The layers as the architecture page draws them (top floor first)."""
    lines = []
    for name, packages, role in reversed(LAYERS):
        lines.append(f"{' '.join(packages):<26}{role}")
        if name == "induction":
            for names in reversed(INDUCTION):
                lines.append(f"  {' '.join(n for n in names if n != '__init__')}")
    return "\n".join(line.rstrip() for line in lines)


def test_every_package_is_on_a_floor():
    unplaced = []
    for module in sorted(SOURCES):
        try:
            floor(module)
        except StopIteration:
            unplaced.append(module)
    assert not unplaced, "packages missing from LAYERS or INDUCTION (tests/test_layers.py):\n" + "\n".join(unplaced)


@pytest.mark.parametrize("module", sorted(SOURCES))
def test_imports_point_down(module):
    here = floor(module)
    climbing = [
        target
        for target in sorted(GRAPH[module])
        if unit(target) != unit(module) and not floor(target) < here and not (floor(target)[0] < here[0])
    ]
    assert not climbing, f"{module} imports {climbing}, on its own floor or above (LAYERS, INDUCTION)"


@pytest.mark.parametrize("module", sorted(SOURCES))
def test_third_party_owners(module):
    here = package(module)
    for top in sorted(external_imports(SOURCES[module]) & THIRD_PARTY_OWNER.keys()):
        assert THIRD_PARTY_OWNER[top] == here, (
            f"{module} imports {top}, which belongs to dtcli/{THIRD_PARTY_OWNER[top]}"
        )


def test_the_architecture_page_draws_this_map():
    page = (Path(__file__).parent.parent / "man" / "dtree-architecture.7").read_text()
    drawn = diagram().replace("\\", "\\e").replace("-", "\\-")
    assert drawn in page, "man/dtree-architecture.7 (LAYERS) must show tests/test_layers.py's diagram():\n" + diagram()


def test_kernels_import_only_numba_code():
    offences = []
    for module in sorted(m for m in SOURCES if is_kernel(m)):
        libraries = external_imports(SOURCES[module]) - KERNEL_LIBRARIES
        modules = {m for m in GRAPH[module] if not is_kernel(m) and m != KERNEL_CONSTANTS and m not in KERNEL_COMPILES}
        offences += [f"{module} imports {name}" for name in sorted(libraries | modules)]
    assert not offences, "kernel modules import only numpy, numba, math and kernels:\n" + "\n".join(offences)


def test_core_loads_without_ui_or_io_libraries():
    imports = (
        "import dtcli.induction.algorithms, dtcli.explain.report, dtcli.induction.predict.apply\n"
        "import dtcli.evaluate.metrics, dtcli.model.format.model, dtcli.model.where"
    )
    loaded = loaded_after(imports, ("click", "rich", "pandas", "arff"))
    assert not [m for m in loaded if m.split(".")[0] in ("click", "rich", "pandas", "arff")]
