"""The layout of dtcli's source: every module opens with a one-line docstring, no module grows large.

The rules are listed in man/dtree-architecture.7.

Lines longer than 120 characters are ruff's to find (``ruff check``, E501).
"""

from __future__ import annotations

import ast

import pytest
from sources import module_sources

SOURCES, _ = module_sources()
# Modules of about 300 lines read best (man/dtree-architecture.7); past this many physical lines a module must be split.
MAX_LINES = 400


@pytest.mark.parametrize("module", sorted(SOURCES))
def test_module_opens_with_a_one_line_docstring(module):
    doc = ast.get_docstring(ast.parse(SOURCES[module]), clean=False)
    assert doc, f"{module} (package or module) has no docstring saying its purpose"
    lines = doc.split("\n")
    assert lines[0].strip(), f"{module}: the docstring's first line is empty"
    assert len(lines) == 1 or not lines[1].strip(), f"{module}: the docstring's summary runs past its first line"


def test_modules_stay_small():
    large = {module: len(text.splitlines()) for module, text in SOURCES.items()}
    large = {module: n for module, n in large.items() if n >= MAX_LINES}
    assert not large, f"modules of {MAX_LINES} lines or more (split them): {large}"
