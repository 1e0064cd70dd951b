"""``python -m mazo``: the same as the ``mazo`` command."""

import sys

from mazo.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
