"""The install's build step: setuptools' ``build_py``, then every kernel compiled for this machine.

pyproject.toml names ``BuildPy`` in ``tool.setuptools.cmdclass``, so installing dtree from its
sources (``pip install .``, ``pip install -e .``) compiles the kernels once, during the install,
instead of at the first large run (a minute or two per engine: see ``compiling.COMPILE_SECONDS``).
It runs ``python -m dtcli.induction.kernels.prebuild`` in a child process on the files being
installed (``build/lib``, or the sources themselves for an editable install), with the build's
numba, which pyproject.toml's build requirements name. A build that cannot compile them (no numba
for this platform, a failure) still installs: the kernels then compile on first use, as before.
``DTREE_PREBUILT_KERNELS=0`` leaves the step out.

setuptools loads this file by its path, before dtcli can be imported: it imports nothing of dtcli,
and nothing at run time imports it.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time

from setuptools.command.build_py import build_py

SWITCH = "DTREE_PREBUILT_KERNELS"  # as shipped.SWITCH (this file cannot import it)
INFO, WARN = logging.INFO, logging.WARNING  # setuptools' announce takes logging's levels


class BuildPy(build_py):
    """``build_py``, then the kernels compiled into ``dtcli/induction/kernels/built``."""

    def run(self):
        super().run()
        if os.environ.get(SWITCH, "").strip() == "0":
            self.announce(f"dtree: {SWITCH}=0: the kernels will compile on first use", INFO)
            return
        editable = bool(getattr(self, "editable_mode", False))
        root = os.path.abspath(os.getcwd() if editable else self.build_lib)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        if not editable:
            env["PYTHONDONTWRITEBYTECODE"] = "1"  # no bytecode of the build's Python in the wheel
        started = time.monotonic()
        try:
            done = subprocess.run(
                [sys.executable, "-m", "dtcli.induction.kernels.prebuild"], cwd=root, env=env, check=False
            )
            failed = f"exit status {done.returncode}" if done.returncode else ""
        except OSError as exc:
            failed = str(exc)
        if failed:
            self.announce(f"dtree: the kernels were not compiled at install ({failed}); they compile on first use",
                          WARN)  # fmt: skip
        else:
            self.announce(f"dtree: kernels for this machine ready in {time.monotonic() - started:.0f} s", INFO)
