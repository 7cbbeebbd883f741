"""``python -m dtcli`` and the ``dtree`` script: stop signals end the run from its first moment."""

from dtcli.stops import install_early
from dtcli.streams import guard


def run() -> None:
    """Hold the place of closed standard streams (``dtcli.streams``: before any file is opened), install
    the early stop handlers (``dtcli.stops``), then load and run the command line."""
    guard()
    install_early()
    from dtcli.cli import main

    main()


if __name__ == "__main__":
    run()
