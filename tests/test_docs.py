"""Documentation stays true: help for every command, man pages that render
cleanly and cover every option, and README examples that run as shown."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from dtcli.cli import COMMANDS, cli
from helpers import ROOT

MAN = ROOT / "man"
README = (ROOT / "README.md").read_text()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help_and_a_man_page(name):
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0 and "Example" in result.output
    page = MAN / f"dtree-{name}.1"
    assert page.exists(), f"missing man page {page.name}"
    text = page.read_text()
    for option in re.findall(r"(--[a-z][a-z-]+)", result.output):
        assert option.replace("-", r"\-") in text, f"{page.name} does not document {option}"
    overview = (MAN / "dtree.1").read_text()
    assert f"dtree-{name}" in overview or rf"dtree\-{name}" in overview
    assert f"dtree {name}" in README


def documented_options(page: Path) -> set[str]:
    """The option names in the tags of the tagged paragraphs (.TP) of a page's OPTIONS section."""
    section = page.read_text().split(".SH OPTIONS", 1)[1].split("\n.SH ", 1)[0]
    lines = section.splitlines()
    tags = [lines[i + 1] for i, line in enumerate(lines[:-1]) if line == ".TP"]
    plain = [re.sub(r"\\f[BIRP]", "", tag.replace("\\-", "-")) for tag in tags]
    return {name for tag in plain for name in re.findall(r"(?<![\w-])(--?[a-zA-Z][a-z0-9-]*)", tag)}


def help_options(name: str) -> set[str]:
    """The option names ``dtree NAME`` offers in its --help (long and short)."""
    command = cli.get_command(click.Context(cli), name)
    options = [p for p in command.params if isinstance(p, click.Option) and not p.hidden]
    return {o for p in options for o in (*p.opts, *p.secondary_opts)} | {"-h", "--help"}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_man_page_options_are_the_commands_options(name):
    """Every option of --help (short names too) has its entry in the page, and the page documents
    no option the command does not have."""
    documented = documented_options(MAN / f"dtree-{name}.1")
    offered = help_options(name)
    assert offered - documented == set(), f"dtree-{name}.1 lacks entries for {sorted(offered - documented)}"
    extra = sorted(documented - offered)
    assert not extra, f"dtree-{name}.1 documents options {name} lacks: {extra}"


PAGES = sorted(p.name for section in ("1", "5", "7") for p in MAN.glob(f"*.{section}"))


@pytest.mark.parametrize("section", ["1", "5", "7"])
def test_readme_lists_every_man_page_and_the_package_installs_them(section):
    pages = list(MAN.glob(f"*.{section}"))
    assert pages, f"no man pages of section {section}"
    for page in pages:
        assert f"man/{page.name}" in README, f"README does not list {page.name}"
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    installed = project["tool"]["setuptools"]["data-files"][f"share/man/man{section}"]
    assert sorted(str(p.relative_to(ROOT)) for p in pages) == sorted(
        str(p.relative_to(ROOT)) for pattern in installed for p in ROOT.glob(pattern)
    )


def test_the_overview_names_the_formats_page():
    assert r"dtree\-formats (5)" in (MAN / "dtree.1").read_text()


def test_the_overview_lists_the_section_7_pages():
    overview = (MAN / "dtree.1").read_text()
    for page in MAN.glob("*.7"):
        assert page.stem.replace("-", "\\-") + " (7)" in overview, f"dtree.1 does not list {page.name}"


def test_readme_is_short():
    """The README is for users: the reference is in the man pages."""
    assert len(README.splitlines()) < 300


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
@pytest.mark.parametrize("page", PAGES)
def test_man_page_renders_without_warnings(page):
    out = subprocess.run(["groff", "-man", "-ww", "-z", str(MAN / page)], capture_output=True, text=True)
    assert out.returncode == 0 and out.stderr == ""


def readme_examples():
    """(command, expected output) for each ``$ ...`` line in README console blocks."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", README, re.S):
        lines = block.splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith("$ ")]
        for k, i in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(lines)
            examples.append((lines[i][2:], "\n".join(lines[i + 1 : end])))
    return examples


def test_readme_examples_run_as_shown(tmp_path):
    shutil.copytree(ROOT / "sample_data", tmp_path / "sample_data")
    env = dict(os.environ, COLUMNS="120", PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env.pop("NO_COLOR", None)
    examples = readme_examples()
    assert len(examples) >= 5
    for command, expected in examples:
        out = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert out.returncode == 0, f"{command}: {out.stderr}"
        shown = "\n".join(line.rstrip() for line in (out.stdout + out.stderr).splitlines())
        assert shown == expected, f"README example differs: {command}"


def test_readme_python_examples_run_as_shown(tmp_path, monkeypatch):
    """The README's ``pycon`` blocks, run by doctest in a copy of the sample data."""
    pytest.importorskip("sklearn", reason="the README's estimator example needs scikit-learn (the test extra)")
    import doctest

    shutil.copytree(ROOT / "sample_data", tmp_path / "sample_data")
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```pycon\n(.*?)```", README, re.S)
    assert blocks, "the README has no Python example"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    test = parser.get_doctest("\n".join(blocks), {}, "README.md", "README.md", 0)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 5
