"""Rules the browser client computes itself agree with the engine.

Envite's trump hierarchy is not in any observation (it would name cards), so the client
works it out from the player count and the vira (``js/games/envite.js``); here Node runs
that module for every player count and vira and the answers are compared with the
engine's ``trump_order`` and ``exempt_card``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from mazo.games.envite import exempt_card, trump_order

WEB = Path(__file__).resolve().parents[2] / "mazo" / "web"
NODE = shutil.which("node")

SCRIPT = """
import { trumpOrder, exemptCard } from %s;
const out = {};
for (const n of [4, 6, 8, 10, 12])
  for (const s of "OCEB")
    for (const r of ["1", "2", "3", "4", "5", "6", "7", "J", "Q", "K"])
      out[`${n}:${r}${s}`] = [trumpOrder(n, r + s), exemptCard(n, r + s)];
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_clients_envite_hierarchy_is_the_engines(tmp_path: Path) -> None:
    script = tmp_path / "order.mjs"
    module = (WEB / "js" / "games" / "envite.js").as_uri()
    script.write_text(SCRIPT % json.dumps(module))
    done = subprocess.run(
        [NODE, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,  # type: ignore[list-item]
    )
    answers = json.loads(done.stdout)
    assert len(answers) == 200
    for key, (order, exempt) in answers.items():
        players, vira = key.split(":")
        assert order == trump_order(int(players), vira), key
        assert exempt == exempt_card(int(players), vira), key
