"""``python -m dtcli`` and the ``dtree`` script: stop signals end the run from its first moment."""

from dtcli.stops import install_early


def run() -> None:
    """Install the early stop handlers (``dtcli.stops``), then load and run the command line."""
    install_early()
    from dtcli.cli import main

    main()


if __name__ == "__main__":
    run()
