"""Architecture boundaries (DESIGN §2), checked on the source and at run time.

- the core (dtcli.model, dtcli.induction) imports neither click, rich,
  pandas nor liac-arff, and nothing from dtcli.cli, dtcli.render, dtcli.io;
- only dtcli.cli imports click; only dtcli.render imports rich; only
  dtcli.io imports pandas and arff.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "dtcli"
THIRD_PARTY_OWNER = {"click": "cli", "rich": "render", "pandas": "io", "arff": "io"}
CORE = ("model", "induction")


def imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


MODULES = sorted(p for p in PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES])
def test_layer_imports(path):
    layer = path.relative_to(PACKAGE).parts[0]
    for name in imports(path):
        top = name.split(".")[0]
        if top in THIRD_PARTY_OWNER:
            assert THIRD_PARTY_OWNER[top] == layer, (
                f"{path.name} imports {top}, which belongs to dtcli/{THIRD_PARTY_OWNER[top]}"
            )
        if layer in CORE and name.startswith("dtcli."):
            assert name.split(".")[1] in CORE + ("errors",) or name == "dtcli", (
                f"core module {path.name} imports {name}"
            )


def test_core_loads_without_ui_or_io_libraries():
    code = (
        "import sys\n"
        "import dtcli.induction.algorithms, dtcli.induction.apply.report, dtcli.induction.apply.predict\n"
        "import dtcli.induction.apply.evaluate, dtcli.model.serialize, dtcli.model.where\n"
        "print(','.join(m for m in ('click', 'rich', 'pandas', 'arff') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_modules_stay_small():
    for path in MODULES:
        assert len(path.read_text().splitlines()) <= 350, f"{path} has grown past ~300 lines: split it"
