"""``python -m dtcli`` and the ``dtree`` script: stop signals end the run from its first moment."""

import os
import sys

from dtcli.stops import install_early
from dtcli.streams import CLOSED, guard


def run() -> None:
    """Hold the place of closed standard streams (``dtcli.streams``: before any file is opened), install
    the early stop handlers (``dtcli.stops``), hand the run to the resident process when there is one
    (``dtcli.resident``: not when a standard stream began closed), else load and run the command line."""
    guard()
    install_early()
    if not CLOSED:
        from dtcli.resident.client import hand_over

        status = hand_over(sys.argv)
        if status is not None:
            os._exit(status)
    from dtcli.cli import main

    main()


if __name__ == "__main__":
    run()
