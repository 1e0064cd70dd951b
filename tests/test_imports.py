"""The engine imports only the standard library (design.md, house rule 6)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ["rich", "numpy", "fastapi", "starlette", "gymnasium", "pettingzoo", "hypothesis"]

PROBE = """
import json, sys
import {modules}
heavy = {heavy!r}
print(json.dumps(sorted({{m.split(".")[0] for m in sys.modules}} & set(heavy))))
"""


@pytest.mark.parametrize(
    "modules",
    [
        "mazo",
        "mazo.core",
        "mazo.games",
        "mazo.games.briscola",
        "mazo.record",
        "mazo, mazo.core, mazo.games",
    ],
)
def test_engine_imports_no_third_party_module(modules: str) -> None:
    code = PROBE.format(modules=modules, heavy=HEAVY)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(out.stdout) == []


def test_the_probe_can_see_a_heavy_import() -> None:
    # The check above must be able to fail: hypothesis is installed for the tests.
    code = PROBE.format(modules="mazo, hypothesis", heavy=HEAVY)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(out.stdout) == ["hypothesis"]


def test_engine_game_plays_without_third_party_modules() -> None:
    code = (
        "import sys, mazo\n"
        "s = mazo.load_game('briscola', players=2).new_match(seed=1)\n"
        "while not s.match_over: s = s.apply(s.legal_actions()[0])\n"
        "mazo.replay(s.record())\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.strip() == "[]"


# What `make play` installs (the cli extra) has no numpy or torch: `mazo` must start and
# every subcommand's --help work without them (mazo train imports them when it trains).
NO_SCIENCE = (
    "import sys\n"
    "for name in ('numpy', 'torch', 'gymnasium', 'pettingzoo'): sys.modules[name] = None\n"
    "from mazo.cli.main import main\n"
    "sys.argv = ['mazo', *sys.argv[1:]]\n"
    "sys.exit(main())\n"
)


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["train", "--help"]])
def test_the_command_line_starts_without_numpy_or_torch(argv: list[str]) -> None:
    out = subprocess.run(
        [sys.executable, "-c", NO_SCIENCE, *argv], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert "usage: mazo" in out.stdout


def test_mazo_train_without_torch_says_which_extra() -> None:
    out = subprocess.run(
        [sys.executable, "-c", NO_SCIENCE, "train", "briscola", "-n", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode != 0 and "pip install 'mazo[train]'" in out.stderr
