"""The layout of dtcli's source: every module opens with a one-line docstring; a large module gets a look.

The rules are listed in man/dtree-architecture.7.

Lines longer than 120 characters are ruff's to find (``ruff check``, E501).
"""

from __future__ import annotations

import ast

import pytest
from sources import module_sources

SOURCES, _ = module_sources()
# A module is split by role, not by size: one over this many lines gets a look (man/dtree-architecture.7),
# and once looked at, it is listed in LOOKED_AT with why it is one concept; no size is a failure by itself.
LOOK_AT = 600
LOOKED_AT: dict[str, str] = {}  # module: why its lines belong together


@pytest.mark.parametrize("module", sorted(SOURCES))
def test_module_opens_with_a_one_line_docstring(module):
    doc = ast.get_docstring(ast.parse(SOURCES[module]), clean=False)
    assert doc, f"{module} (package or module) has no docstring saying its purpose"
    lines = doc.split("\n")
    assert lines[0].strip(), f"{module}: the docstring's first line is empty"
    assert len(lines) == 1 or not lines[1].strip(), f"{module}: the docstring's summary runs past its first line"


def test_large_modules_get_a_look():
    large = {module: len(text.splitlines()) for module, text in SOURCES.items()}
    unseen = {module: n for module, n in sorted(large.items()) if n > LOOK_AT and module not in LOOKED_AT}
    assert not unseen, (
        f"modules over {LOOK_AT} lines: look whether each holds one concept, then list it in LOOKED_AT: {unseen}"
    )
