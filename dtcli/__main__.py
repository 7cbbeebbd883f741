"""Allow ``python -m dtcli``."""

from dtcli.cli import main

if __name__ == "__main__":
    main()
