"""The resident process (dtcli/resident): a command it runs prints, writes and exits as one run on its own.

Each test gives dtree a socket folder of its own (``XDG_RUNTIME_DIR``) and stops the resident
processes it started. The commands are compared byte for byte with the same commands run with
``DTREE_RESIDENT=0``, and the lock file's count says the resident process did run them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from dtcli.resident import address, keyed, wanted
from dtcli.resident.server import marks
from helpers import SAMPLES

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the resident process is tested on Linux")


class Resident:
    """dtree run with its own socket folder, on or off; the resident processes it started."""

    def __init__(self, root: Path):
        self.root = root
        # a short path: a socket's name may have about 100 bytes (pytest's own folders are longer)
        self.run_dir = Path(tempfile.mkdtemp(prefix="dtr-", dir="/tmp"))
        self.env = {k: v for k, v in os.environ.items() if k != "DTREE_RESIDENT"} | {
            "XDG_RUNTIME_DIR": str(self.run_dir),
            "COLUMNS": "100",
        }

    def folder(self) -> Path:
        return self.run_dir / f"dtree-{os.getuid()}"

    def locks(self) -> list[tuple[int, int]]:
        """(process id, commands served) of each resident process, from its lock file."""
        found = []
        for lock in sorted(self.folder().glob("*.lock")) if self.folder().exists() else []:
            try:
                text = lock.read_text().split()
            except FileNotFoundError:  # (its process ended meanwhile)
                continue
            if len(text) == 2:
                found.append((int(text[0]), int(text[1])))
        return found

    def served(self) -> int:
        return sum(count for _, count in self.locks())

    def run(self, args, on: bool = True, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
        environment = self.env | (env or {}) | ({} if on else {"DTREE_RESIDENT": "0"})
        kwargs.setdefault("stdin", subprocess.DEVNULL)
        return subprocess.run(
            [sys.executable, "-m", "dtcli", *args], env=environment, capture_output=True, timeout=120, **kwargs
        )

    def ready(self, env: dict | None = None) -> None:
        """Start the resident process (one command) and wait until it serves."""
        self.run(["--version"], env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            before = self.served()
            self.run(["--version"], env=env)
            if self.served() > before:
                return
            time.sleep(0.2)
        raise AssertionError("the resident process never served a command")

    def stop(self) -> None:
        for pid, _ in self.locks():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while self.locks() and time.monotonic() < deadline:
            time.sleep(0.05)
        shutil.rmtree(self.run_dir, ignore_errors=True)


@pytest.fixture
def resident(tmp_path):
    made = Resident(tmp_path)
    yield made
    made.stop()


@pytest.fixture
def models(tmp_path) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    for name in ("iris.csv", "weather.csv", "restaurant.csv"):
        (work / name).write_bytes((SAMPLES / name).read_bytes())
    return work


COMMANDS = [
    ["train", "iris.csv", "-a", "c45", "-o", "c45.json"],
    ["train", "weather.csv"],
    ["train", "restaurant.csv", "-a", "cart", "--explain"],
    ["gain", "weather.csv", "--explain"],
    ["gain", "iris.csv", "-a", "c45"],
    ["show", "c45.json"],
    ["show", "c45.json", "-o", "tree.svg"],
    ["rules", "c45.json", "-f", "python"],
    ["predict", "c45.json", "iris.csv"],
    ["evaluate", "iris.csv", "-a", "c45", "--cv", "5"],
    ["prune", "c45.json", "--method", "pessimistic", "--data", "iris.csv", "-o", "pruned.json"],
    ["diff", "c45.json", "pruned.json"],
    ["train", "missing.csv"],
    ["train", "iris.csv", "-o", "iris.csv"],
    ["trian"],
    ["train", "--bogus"],
    ["--help"],
    ["train", "--help"],
    ["--version"],
]


def outcome(resident: Resident, work: Path, args: list[str], on: bool) -> tuple:
    done = resident.run(args, on=on, cwd=work)
    written = {p.name: p.read_bytes() for p in sorted(work.iterdir()) if p.suffix in (".json", ".svg")}
    return done.returncode, done.stdout, done.stderr, written


def test_commands_print_and_write_the_same(resident, models):
    resident.ready()
    for args in COMMANDS:
        alone = outcome(resident, models, args, on=False)
        before = resident.served()
        served = outcome(resident, models, args, on=True)
        assert resident.served() == before + 1, args
        assert served == alone, args


def test_standard_input_and_a_closed_pipe(resident, models):
    resident.ready()
    assert resident.run(["train", "iris.csv", "-a", "c45", "-q", "-o", "m.json"], cwd=models).returncode == 0
    data = (models / "iris.csv").read_bytes()
    alone = resident.run(["predict", "m.json", "-"], on=False, cwd=models, input=data, stdin=None)
    before = resident.served()
    served = resident.run(["predict", "m.json", "-"], cwd=models, input=data, stdin=None)
    assert resident.served() == before + 1
    assert (served.returncode, served.stdout, served.stderr) == (alone.returncode, alone.stdout, alone.stderr)
    # a reader that goes away (| head -1) before the output fits the pipe: quiet, the same status
    rows = (models / "iris.csv").read_text().splitlines()
    (models / "many.csv").write_text("\n".join(rows[:1] + rows[1:] * 40) + "\n")
    statuses = []
    for on in (False, True):
        shell = subprocess.run(
            f"{sys.executable} -m dtcli predict m.json many.csv | head -1 >/dev/null; echo ${{PIPESTATUS[0]}}",
            shell=True, executable="/bin/bash", cwd=models, capture_output=True, text=True, timeout=60,
            env=resident.env | ({} if on else {"DTREE_RESIDENT": "0"}),
        )  # fmt: skip
        statuses.append((shell.stdout, shell.stderr))
    assert statuses[0] == statuses[1]


def test_environment_directory_and_umask_are_the_commands(resident, models):
    resident.ready()
    (models / "sub").mkdir()
    before = resident.served()
    done = subprocess.run(
        f"umask 077; {sys.executable} -m dtcli train ../weather.csv -q -o m.json",
        shell=True, cwd=models / "sub", env=resident.env, capture_output=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert resident.served() == before + 1
    assert (models / "sub" / "m.json").stat().st_mode & 0o777 == 0o600
    # NO_COLOR and COLUMNS are read as the command runs, by the copy
    for env in ({"COLUMNS": "40"}, {"NO_COLOR": "1", "COLUMNS": "60"}):
        alone = resident.run(["gain", "weather.csv"], on=False, env=env, cwd=models)
        served = resident.run(["gain", "weather.csv"], env=env, cwd=models)
        assert served.stdout == alone.stdout and served.stderr == alone.stderr


def test_a_stop_signal_reaches_the_run(resident, tmp_path):
    resident.ready()
    # many distinct values and a class that follows none of them: the reference takes minutes
    lines = ["a,b,c,d,label"] + [
        f"{(i * 7919) % 10007},{(i * 7) % 1009},{(i * 104729) % 9973},{(i * 31) % 8191},k{(i * 31 + i // 7) % 7}"
        for i in range(20_000)
    ]
    (tmp_path / "big.csv").write_text("\n".join(lines) + "\n")
    before = resident.served()
    args = [sys.executable, "-m", "dtcli", "train", "big.csv", "-a", "c45", "--engine", "reference", "-o", "big.json"]
    process = subprocess.Popen(args, cwd=tmp_path, env=resident.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while resident.served() == before and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert resident.served() == before + 1
    assert process.returncode == 130
    assert err == b"Interrupted\n" and out == b""
    assert not (tmp_path / "big.json").exists()


def test_off_switch_and_closed_streams_run_alone(resident, models):
    done = resident.run(["train", "weather.csv", "-q", "-o", "m.json"], on=False, cwd=models)
    assert done.returncode == 0
    assert not resident.folder().exists()  # nothing started
    resident.ready()
    before = resident.served()
    closed = subprocess.run(
        f"{sys.executable} -m dtcli train weather.csv -q -o m2.json <&-",
        shell=True, cwd=models, env=resident.env, capture_output=True, timeout=60,
    )  # fmt: skip
    assert closed.returncode == 0, closed.stderr
    assert resident.served() == before  # run alone: a closed standard stream is its own to refuse
    assert (models / "m2.json").read_bytes() == (models / "m.json").read_bytes()


def test_another_identity_gets_its_own_process(resident):
    resident.ready()
    resident.ready(env={"PYTHONHASHSEED": "7"})
    assert len(resident.locks()) == 2


def test_identity_and_switch():
    assert keyed({"PYTHONPATH": "x", "NUMBA_CACHE_DIR": "y", "COLUMNS": "80", "DTREE_ENGINE": "auto", "LANG": "C"}) == [
        ("LANG", "C"),
        ("NUMBA_CACHE_DIR", "y"),
        ("PYTHONPATH", "x"),
    ]
    assert wanted({}) and wanted({"DTREE_RESIDENT": "1"})
    assert not any(wanted({"DTREE_RESIDENT": v}) for v in ("0", "off", "No", "false "))


def test_socket_folder_must_be_the_users_alone(resident):
    place = address(resident.env)
    assert place is not None and Path(place[0]).parent == resident.folder()
    assert resident.folder().stat().st_mode & 0o777 == 0o700
    resident.folder().chmod(0o755)  # others may enter: not used
    assert address(resident.env) is None
    resident.folder().chmod(0o700)
    # a runtime folder too long for a socket's name: /tmp's
    deep = {"XDG_RUNTIME_DIR": "/tmp/" + "d" * 90}
    assert address(deep)[0].startswith(f"/tmp/dtree-{os.getuid()}/")


def test_marks_change_with_a_file(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "__pycache__").mkdir()
    first = marks([str(tmp_path)], packages=())
    (tmp_path / "__pycache__" / "a.pyc").write_bytes(b"")
    assert marks([str(tmp_path)], packages=()) == first  # bytecode is not dtree's source
    (tmp_path / "a.py").write_text("x = 22\n")
    assert marks([str(tmp_path)], packages=()) != first


def test_engines_load_from_the_cache_only(tmp_path):
    """On a new machine (an empty kernel cache) the resident process loads no engine, compiles nothing,
    and notes what it waits for (it stands down once a run has compiled it)."""
    code = (
        "from dtcli.resident import server; from dtcli.induction import estimates; marks = server.marks(); "
        "server.preload(); assert server.marks() == marks, 'loading changed the marks'; "
        "print(server.load_engines(), sorted(estimates.AHEAD), sorted(set(sum(server.NOT_LOADED, []))))"
    )
    env = {k: v for k, v in os.environ.items() if k != "DTREE_RESIDENT"} | {"NUMBA_CACHE_DIR": str(tmp_path)}
    env["DTREE_PREBUILT_KERNELS"] = "0"  # (nothing copied in from an install's build)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("True [] [")
    assert "'c45'" in done.stdout and "'regression'" in done.stdout
    assert not list(tmp_path.rglob("*.nbi")) and not list(tmp_path.rglob("*.nbc"))


def test_resource_limits_are_the_commands(resident, models):
    """``ulimit -f`` (the largest file a command may write) holds in the copy as on its own: the same
    error line and status; a command whose limits are above the resident process's runs on its own."""
    resident.ready()
    assert resident.run(["train", "iris.csv", "-a", "c45", "-q", "-o", "m.json"], cwd=models).returncode == 0
    rows = (models / "iris.csv").read_text().splitlines()
    (models / "many.csv").write_text("\n".join(rows[:1] + rows[1:] * 40) + "\n")
    outcomes = []
    for on in (False, True):
        before = resident.served()
        done = subprocess.run(
            f"ulimit -f 8; {sys.executable} -m dtcli predict m.json many.csv -o out{int(on)}.csv",
            shell=True, executable="/bin/bash", cwd=models, capture_output=True, timeout=60,
            env=resident.env | ({} if on else {"DTREE_RESIDENT": "0"}),
        )  # fmt: skip
        assert resident.served() == before + int(on)
        outcomes.append((done.returncode, done.stdout, done.stderr.replace(b"out1.csv", b"out0.csv")))
        assert not (models / f"out{int(on)}.csv").exists()  # (nothing half-written)
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == 1 and b"Error:" in outcomes[0][2]
    # a nice value the copy could not take (lower than the resident process's): run on its own
    for nice in (5, 0):
        before = resident.served()
        done = subprocess.run(
            f"nice -n {nice} {sys.executable} -m dtcli train iris.csv -a c45 -q -o n.json",
            shell=True, cwd=models, capture_output=True, timeout=60, env=resident.env,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert resident.served() == before + 1


def test_a_failed_start_is_not_retried_at_once(resident, models):
    """A resident process that ended without a socket leaves its lock file: for a minute after it was
    written, commands run on their own and start no other; then one is started again."""
    env = resident.env
    place = address(env)
    lock = Path(place[1])
    lock.write_text("99999999 0\n")  # as a process that could not make its socket leaves it
    for _ in range(3):
        assert resident.run(["train", "weather.csv", "-q", "-o", "m.json"], cwd=models).returncode == 0
    time.sleep(1.0)
    assert not Path(place[0]).exists() and lock.read_text() == "99999999 0\n"
    old = time.time() - 120
    os.utime(lock, (old, old))
    resident.ready()
    assert resident.served() >= 1
