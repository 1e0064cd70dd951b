"""The training example end to end, tiny: a few hundred PPO steps, the policy saved, then
played as a plugin bot (``examples.ppo_bot:make``) in ``mazo tournament``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

pytest.importorskip("sb3_contrib")
pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def examples_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """``examples`` is a folder of the repository, not an installed package."""
    monkeypatch.syspath_prepend(str(ROOT))


def test_train_save_and_play_in_a_tournament(
    examples_importable: None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from examples.train_briscola_maskable_ppo import main

    model = tmp_path / "tiny_policy.zip"
    assert main(["--steps", "256", "--envs", "2", "--seed", "3", "--output", str(model)]) == 0
    assert model.is_file()
    err = capsys.readouterr().err
    assert "[vs random] 256/256 steps (100%)" in err and "saved" in err

    spec = f"examples.ppo_bot:make:model={model}"
    code, out, err = run_cli(
        [
            "tournament",
            "briscola",
            "--players",
            "2",
            "--bots",
            f"{spec},random",
            "--games",
            "1",
            "--seed",
            "5",
            "--workers",
            "1",
            "--json",
        ],
        capsys,
        monkeypatch,
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["matches"] == 2
    assert data["totals"][spec]["entries"] == 2


def test_the_bot_refuses_a_policy_for_another_table(
    examples_importable: None, tmp_path: Path
) -> None:
    import mazo
    from examples import ppo_bot

    with pytest.raises(mazo.RulesError, match="no trained policy"):
        ppo_bot.make(mazo.load_game("briscola", players=2), 1, model=str(tmp_path / "none.zip"))
