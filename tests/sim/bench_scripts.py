"""Load a script of ``bench/`` (not a package) as a module, for the tests of its pieces."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def bench_script(name: str) -> ModuleType:
    """``bench/<name>.py`` loaded as a module named ``name``, with ``bench/`` on the import
    path as Python puts it there for a script it runs (``net_compare_args``, say: until
    this, a script importing it loaded here only after another test had added it)."""
    folder = str(ROOT / "bench")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
