"""Malformed or unusual environment values (COLUMNS, LINES, NO_COLOR, FORCE_COLOR, TERM, locale,
PYTHONIOENCODING) are ignored as other programs ignore them: every command's text is what it is without them.

The reference is the same command in a plain environment (UTF-8 locale, none of these set), and for a
width out of bounds the same command at the bound (``COLUMNS`` below 20 is 20, above 10,000 is 10,000);
whatever the locale or ``PYTHONIOENCODING``, standard output and error are UTF-8.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

# Names with letters outside ASCII (and outside latin-1: the tree's box drawing is too).
TABLE = """Stadt,Wetter,Wind,Spielen
Zürich,sonnig,schwach,nein
Zürich,sonnig,stark,nein
São Paulo,bedeckt,schwach,ja
São Paulo,regnerisch,schwach,ja
Zürich,regnerisch,stark,nein
São Paulo,bedeckt,stark,ja
Zürich,sonnig,schwach,nein
São Paulo,sonnig,schwach,ja
Zürich,regnerisch,schwach,ja
Łódź,sonnig,stark,ja
Łódź,bedeckt,stark,ja
Łódź,regnerisch,stark,nein
"""
SETTINGS = ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TERM", "LANG", "LC_ALL", "LC_CTYPE",
            "PYTHONIOENCODING", "PYTHONUTF8")  # fmt: skip
WIDTH_COMMANDS = {
    "gain": ["gain", "t.csv"],
    "train": ["train", "t.csv", "-f", "rich"],
    "show": ["show", "m.json"],
    "evaluate": ["evaluate", "m.json", "t.csv"],
    "diff": ["diff", "m.json", "c.json"],
    "rules": ["rules", "m.json"],
}
OTHER_COMMANDS = {name: WIDTH_COMMANDS[name] for name in ("gain", "train", "evaluate")}


def plain_env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    return env | {"LC_ALL": "C.UTF-8"} | settings


def dtree(cwd: Path, args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dtcli", *args], cwd=cwd, env=env, capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=120)  # fmt: skip


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("environment")
    (d / "t.csv").write_text(TABLE, encoding="utf-8")
    for algorithm, name in (("id3", "m.json"), ("cart", "c.json")):
        done = dtree(d, ["train", "t.csv", "-a", algorithm, "-q", "-o", name], plain_env())
        assert done.returncode == 0, done.stderr
    return d


def outputs(work: Path, commands: dict, env: dict[str, str]) -> dict[str, tuple[int, bytes, bytes]]:
    """Each command's (status, stdout, stderr) under ``env``, a few processes at a time."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = pool.map(lambda args: dtree(work, args, env), commands.values())
        return {name: (d.returncode, d.stdout, d.stderr) for name, d in zip(commands, done)}


@pytest.fixture(scope="module")
def reference(work):
    """The outputs in a plain environment, and at COLUMNS 100, 20 and 10,000."""
    out = {None: outputs(work, WIDTH_COMMANDS, plain_env())}
    for width in ("100", "20", "10000"):
        out[width] = outputs(work, WIDTH_COMMANDS, plain_env(COLUMNS=width))
    return out


def test_reference_is_sound(reference):
    """The plain run prints the non-ASCII names as UTF-8; a width of 20 is narrower."""
    status, text, _ = reference[None]["train"]
    assert status == 0 and "Stadt = Zürich" in text.decode("utf-8") and "├── " in text.decode("utf-8")
    assert "Łódź" in reference[None]["gain"][1].decode("utf-8")
    assert reference["20"]["gain"] != reference[None]["gain"]  # (this table is narrower than 120)


# COLUMNS as given -> the COLUMNS whose output it must give (None: as if not set).
COLUMNS = {
    "abc": None,
    "-5": None,
    "0": None,
    "": None,
    "1.5": None,
    "12abc": None,
    "\u0663": None,  # an Arabic-Indic digit: not a number to dtree
    " 100 ": "100",
    "1": "20",
    "19": "20",
    "99999999999": "10000",
    "9" * 1000: "10000",
}


@pytest.mark.parametrize("value", COLUMNS, ids=[repr(v[:12]) for v in COLUMNS])
def test_columns(work, reference, value):
    got = outputs(work, WIDTH_COMMANDS, plain_env(COLUMNS=value))
    assert got == reference[COLUMNS[value]]


OTHERS = {
    "LINES=abc": {"LINES": "abc"},
    "LINES=0": {"LINES": "0"},
    "LINES=-3": {"LINES": "-3"},
    "LINES=huge": {"LINES": "99999999999"},
    "NO_COLOR=": {"NO_COLOR": ""},
    "NO_COLOR=1": {"NO_COLOR": "1"},
    "NO_COLOR=0": {"NO_COLOR": "0"},
    "FORCE_COLOR=1": {"FORCE_COLOR": "1"},
    "FORCE_COLOR=garbage": {"FORCE_COLOR": "garbage"},
    "TTY_COMPATIBLE=1": {"TTY_COMPATIBLE": "1"},
    "TERM=dumb": {"TERM": "dumb"},
    "TERM=": {"TERM": ""},
    "TERM=garbage": {"TERM": "\x01garbage-256color"},
    "LC_ALL=garbage": {"LC_ALL": "garbage"},
    "LANG=garbage": {"LANG": "garbage", "LC_ALL": ""},
    "LC_ALL=C": {"LC_ALL": "C"},
    "LC_ALL=POSIX": {"LC_ALL": "POSIX"},
    "LC_ALL=latin-1": {"LC_ALL": "en_US.ISO-8859-1"},
    "LC_CTYPE=latin-1": {"LC_CTYPE": "de_DE.ISO-8859-1", "LC_ALL": ""},
    "PYTHONIOENCODING=latin-1": {"PYTHONIOENCODING": "latin-1"},
    "PYTHONIOENCODING=ascii": {"PYTHONIOENCODING": "ascii:strict"},
    "PYTHONIOENCODING=utf-16": {"PYTHONIOENCODING": "utf-16"},
    "PYTHONUTF8=0": {"PYTHONUTF8": "0", "LC_ALL": "C"},
}


@pytest.mark.parametrize("settings", OTHERS.values(), ids=OTHERS.keys())
def test_other_settings(work, reference, settings):
    """Off a terminal: no colour whatever NO_COLOR, FORCE_COLOR or TERM say, and UTF-8 whatever the locale."""
    got = outputs(work, OTHER_COMMANDS, plain_env(**settings))
    assert got == {name: reference[None][name] for name in OTHER_COMMANDS}


def test_warning_is_utf8_under_a_latin1_setting(work):
    """Standard error is UTF-8 as well: the identifier-like column's name in a warning."""
    (work / "ids.csv").write_text("Schlüssel,x,y\n" + "".join(f"k{i},{i % 2},{'ab'[i % 2]}\n" for i in range(12)))
    env = plain_env(PYTHONIOENCODING="latin-1", LC_ALL="C")
    done = dtree(work, ["gain", "ids.csv"], env)
    assert done.returncode == 0
    assert done.stderr.decode("utf-8").startswith("Warning: ids.csv: column Schlüssel has 12 different values")


def on_a_terminal(work: Path, args: list[str], env: dict[str, str]) -> str:
    """Standard output of ``dtree ARGS`` on a pseudo-terminal (its size unset: 0 by 0)."""
    main, secondary = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "dtcli", *args], cwd=work, stdout=secondary,
                               stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env)  # fmt: skip
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=120)
    os.close(main)
    return b"".join(chunks).decode("utf-8")


def test_on_a_terminal(work):
    """On a terminal: an empty NO_COLOR allows colour (no-color.org), any other value forbids it, as
    TERM=dumb does; a bad COLUMNS is ignored (the terminal's width, 80 when it says 0)."""
    term = plain_env(TERM="xterm-256color")
    gain = ["gain", "t.csv"]
    coloured = on_a_terminal(work, gain, term)
    assert "\x1b[" in coloured
    assert on_a_terminal(work, gain, term | {"NO_COLOR": ""}) == coloured
    for settings in ({"NO_COLOR": "0"}, {"NO_COLOR": "1"}, {"TERM": "dumb"}):
        plain = on_a_terminal(work, gain, term | settings)
        assert "\x1b" not in plain and "Łódź" in plain
    eighty = on_a_terminal(work, gain, term | {"COLUMNS": "80"})
    assert on_a_terminal(work, gain, term | {"COLUMNS": "abc"}) == eighty == coloured
    assert on_a_terminal(work, gain, term | {"COLUMNS": "0", "LINES": "0"}) == eighty
