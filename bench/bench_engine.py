#!/usr/bin/env python3
"""Engine throughput under random play: the same code as ``mazo bench``.

Run from the repository root, installed or not::

    python bench/bench_engine.py                      # every game, ~3 s each
    python bench/bench_engine.py briscola -p 2 -p 4 --seconds 10 --json

See bench/README.md for what is measured.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mazo.cli.main import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
