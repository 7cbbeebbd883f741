"""``python -m dtcli.induction.kernels.prebuild``: compile every kernel while dtree is installed.

The install's build step (``install.py``) runs this module in a child process with the sources
being installed first on ``PYTHONPATH``: it runs ``dtree warm-up`` into a temporary cache
directory and keeps what numba wrote in ``kernels/built`` (``shipped.py`` says how the files are
laid out and when a run copies them into its cache). Its exit status is 0 when kernels were kept.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from dtcli.induction.kernels.cache import NAMED, chosen_dir, content_key
from dtcli.induction.kernels.shipped import BUILT, MANIFEST, SWITCH, facts, fits, subdirectory_of


def collect(cache: str, built: Path = BUILT) -> dict:
    """Keep the kernels compiled into the cache directory ``cache`` in ``built`` (emptied first),
    each numba folder under its source folder's path relative to ``dtcli/induction``, and dtree's
    marks of compiled variants; write the manifest and return it."""
    folders = {subdirectory_of(d): d for d in [NAMED, *sorted(p for p in NAMED.rglob("*") if p.is_dir())]}
    shutil.rmtree(built, ignore_errors=True)
    built.mkdir(parents=True)
    kept = []
    for found in sorted(Path(cache).iterdir()):
        if found.is_dir() and found.name in folders:
            relative = folders[found.name].relative_to(NAMED).as_posix()
            shutil.copytree(found, built / relative, dirs_exist_ok=True)
            kept.append(relative)
        elif found.is_file() and found.name.startswith("dtree-") and found.name.endswith(".compiled"):
            shutil.copyfile(found, built / found.name)
    manifest = {**facts(content_key()), "folders": kept}
    (built / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def build(built: Path = BUILT) -> int:
    """Compile every kernel (``dtree warm-up`` in a child process, into a temporary cache directory)
    and keep them in ``built``: the exit status. Kernels kept there already for these sources, this
    numba, Python and machine (an install run again) are kept as they are."""
    if current(built):
        return 0
    with tempfile.TemporaryDirectory(prefix="dtree-build-kernels-") as folder:
        env = dict(os.environ, NUMBA_CACHE_DIR=folder, DTREE_RESIDENT="0", **{SWITCH: "0"})
        done = subprocess.run([sys.executable, "-m", "dtcli", "warm-up", "-q"], env=env, check=False)
        if done.returncode:
            return done.returncode
        os.environ["NUMBA_CACHE_DIR"] = folder
        manifest = collect(chosen_dir(), built)
    return 0 if manifest["folders"] else 1


def current(built: Path) -> bool:
    """Whether ``built`` holds kernels built from these sources, by this numba and Python, for this machine."""
    try:
        manifest = json.loads((built / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    folders = manifest.get("folders") or []
    return fits(manifest, content_key()) and bool(folders) and all((built / f).is_dir() for f in folders)


if __name__ == "__main__":
    sys.exit(build())
