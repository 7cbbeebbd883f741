"""--max-bytes and --max-rows: on every command that reads DATA or a MODEL, sizes with suffixes, one-line errors."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from dtcli.cli import COMMANDS, cli
from dtcli.cli.options import ByteSize
from dtcli.io.source import DEFAULT_MAX_BYTES, DEFAULT_MAX_ROWS

WEATHER = "Outlook,Wind,Play\nSunny,Weak,No\nRain,Strong,Yes\nSunny,Strong,No\nRain,Weak,Yes\n"


@pytest.mark.parametrize(
    ("text", "size"),
    [("0", 0), ("100", 100), ("1K", 1024), ("512M", 512 << 20), ("2G", 2 << 30), ("1GiB", 1 << 30), ("3 kb", 3072)],
)
def test_sizes_take_binary_suffixes(text, size):
    assert ByteSize().convert(text, None, None) == size


@pytest.mark.parametrize("text", ["-1", "1.5G", "12Q", "G", ""])
def test_other_sizes_are_usage_errors(text):
    with pytest.raises(click.BadParameter):
        ByteSize().convert(text, None, None)


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - {"warm-up"}))  # (warm-up reads no input)
def test_every_command_takes_the_limits(name):
    output = CliRunner().invoke(cli, [name, "--help"]).output
    assert "--max-bytes SIZE" in output and "--max-rows N" in output


def test_defaults():
    assert DEFAULT_MAX_BYTES == 1 << 30 and DEFAULT_MAX_ROWS == 50_000_000


def test_limits_reach_the_readers(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.csv").write_text(WEATHER)
    runner = CliRunner()
    assert runner.invoke(cli, ["train", "d.csv", "-q", "-o", "m.json", "--max-rows", "4"]).exit_code == 0
    cases = [
        (["train", "d.csv", "--max-bytes", "50"], "d.csv: more than 50 bytes of input (--max-bytes)"),
        (["gain", "d.csv", "--max-rows", "3"], "d.csv: more than 3 rows (--max-rows)"),
        (["predict", "m.json", "d.csv", "--max-bytes", "100"], "m.json: more than 100 bytes of input"),
        (["predict", "m.json", "d.csv", "--max-rows", "1"], "d.csv: more than 1 row (--max-rows)"),
        (["prune", "m.json", "--method", "reduced-error", "--validation", "d.csv", "--max-rows", "2"], "more than 2"),
        (["rules", "m.json", "--prune", "--data", "d.csv", "--max-rows", "2"], "d.csv: more than 2 rows"),
    ]
    for args, message in cases:
        result = runner.invoke(cli, args)
        assert result.exit_code == 1, (args, result.output)
        assert message in result.output and result.output.count("\n") == 1, result.output
    result = runner.invoke(cli, ["train", "d.csv", "--max-bytes", "12Q"])
    assert result.exit_code == 2 and "is not a size" in result.output
    for args in (["gain", "d.csv"], ["predict", "m.json", "d.csv"]):
        result = runner.invoke(cli, [*args, "--max-rows", "-1"])
        assert result.exit_code == 1 and "Error: --max-rows must be 0 or more (0: no limit)" in result.output
