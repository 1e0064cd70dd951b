"""The Ray backend of ``mazo sim`` and ``mazo tournament``: the same results as the local
backend for the same seed, in the library and through the command line.

One local Ray instance (two CPUs, no dashboard) serves the whole module; the command
line is given its address, and the backend then uses the connection this process
already has (see :mod:`mazo.sim.ray_backend`).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

from mazo.core.errors import RulesError
from mazo.sim import run
from mazo.sim.ray_backend import RayNotInstalledError, import_ray, run_chunks
from mazo.sim.tournament import run_tournament

ray = pytest.importorskip("ray")

TESTS = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Ray instance for the module; its address."""
    # The workers get the tests folder on their path, as the tests have it, so they can
    # import a function or a plugin bot defined in a test module (``sim.test_ray_backend``).
    path = os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},
    )
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


def _square_all(items: list[int]) -> list[int]:
    return [x * x for x in items]


def test_chunks_come_back_in_order_with_progress(cluster: str) -> None:
    seen: list[tuple[int, int]] = []
    out = run_chunks(_square_all, list(range(40)), lambda d, t: seen.append((d, t)))
    assert out == [x * x for x in range(40)]
    assert seen[-1] == (40, 40)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_sim_same_as_local(cluster: str, tmp_path: Path) -> None:
    args: dict[str, Any] = {"games": 6, "players": 3, "seed": 5}
    local = run("briscola", ["heuristic", "random"], save_dir=tmp_path / "local", **args)
    seen: list[int] = []
    remote = run(
        "briscola",
        ["heuristic", "random"],
        save_dir=tmp_path / "ray",
        backend="ray",
        progress=lambda done, total: seen.append(done),
        **args,
    )
    assert remote.to_json() == local.to_json()
    assert seen[-1] == 6
    names = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "ray").iterdir())
    assert len(names) == 6
    for name in names:  # the records written from the workers' data are the same files
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def test_tournament_same_as_local(cluster: str) -> None:
    args: dict[str, Any] = {"games": 3, "players": 2, "seed": 9}
    bots = ["heuristic", "random", "easy"]
    local = run_tournament("briscola", bots, workers=1, **args).to_json()
    remote = run_tournament("briscola", bots, backend="ray", **args).to_json()
    assert remote == local


def test_cli_end_to_end(
    cluster: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sim = ["sim", "escoba", "--games", "4", "--bots", "heuristic,random", "--seed", "2"]
    code, local, _ = run_cli([*sim, "--json"], capsys, monkeypatch)
    assert code == 0
    code, remote, err = run_cli(
        [*sim, "--json", "--backend", "ray", "--address", cluster], capsys, monkeypatch
    )
    assert code == 0, err
    assert json.loads(remote) == json.loads(local)

    tour = ["tournament", "briscola", "--bots", "normal,random", "--games", "2", "--seed", "4"]
    code, local, _ = run_cli([*tour, "--json", "--workers", "1"], capsys, monkeypatch)
    assert code == 0
    code, remote, err = run_cli(
        [*tour, "--json", "--backend", "ray", "--address", cluster], capsys, monkeypatch
    )
    assert code == 0, err
    assert json.loads(remote) == json.loads(local)


def test_address_needs_the_ray_backend(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for command in ("sim", "tournament"):
        code, _, err = run_cli(
            [command, "briscola", "--games", "1", "--address", "auto"], capsys, monkeypatch
        )
        assert code == 2
        assert "--backend ray" in err


def test_unknown_backend_in_the_library() -> None:
    with pytest.raises(RulesError, match="backends are: local, ray"):
        run("briscola", ["random"], games=1, players=2, backend="spark")
    with pytest.raises(RulesError, match="backends are: local, ray"):
        run_tournament("briscola", ["random", "normal"], games=1, backend="dask")


def test_missing_ray_says_how_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    with pytest.raises(RayNotInstalledError, match=r"pip install 'mazo\[ray\]'"):
        import_ray()
    for command in ("sim", "tournament"):
        code, out, err = run_cli(
            [command, "briscola", "--games", "1", "--backend", "ray", "--json"],
            capsys,
            monkeypatch,
        )
        assert code == 2
        assert "pip install 'mazo[ray]'" in err
        assert out == ""


def test_plugin_bots_play_on_the_workers(cluster: str) -> None:
    bots = ["bots.test_plugins:MakeFirst:pick=last", "random"]
    local = run_tournament("briscola", bots, games=2, players=2, seed=3).to_json()
    assert (
        run_tournament("briscola", bots, games=2, players=2, seed=3, backend="ray").to_json()
        == local
    )


def test_an_unreachable_address_fails_fast() -> None:
    from mazo.sim.ray_backend import _probe

    with pytest.raises(RulesError, match=r"cannot reach the Ray cluster at 127\.0\.0\.1:1"):
        _probe("127.0.0.1:1")
    _probe("auto")  # names Ray resolves itself are left to it
