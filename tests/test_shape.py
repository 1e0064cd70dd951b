"""The shape of ``mazo/``: no import cycles, and generic modules name no game (issue 19).

Both checks read the source with :mod:`ast` (nothing is imported), so they see every
module, including the optional extras whose dependencies may be missing.

**The import graph.**  A node is a module under ``mazo/`` (``pkg/__init__.py`` is
``pkg``).  ``import a.b`` and ``from a import b`` give an edge to ``a.b`` when that is a
module of the tree, else to ``a``; relative imports are resolved against the importing
module's package.  Only the named module is an edge, not its parent packages (importing
``mazo.core.game`` runs ``mazo/__init__.py`` too, but that is Python's packaging, not a
dependency of the importer's design).  Imports inside functions count: a deferred import
is still a dependency, and deferring is how cycles hide.  Imports under
``if TYPE_CHECKING:`` count too: a module that needs another's types to be checked
depends on it as much as one that calls it (mypy sees the cycle), and a cycle broken
only at run time is still a tangle to a reader.  Any strongly connected component of
more than one module fails, listed.

**Naming a game.**  A module offends when it

* holds a string literal equal (case-insensitively, stripped) to a registered game name,
  outside docstrings (a literal is how a name is compared, used as a key or tested with
  ``in``; longer texts that mention a game, such as help texts, examples and messages,
  are not names and are allowed), or
* imports a module that belongs to a game.

A module *belongs to* game ``g`` when a component of its dotted name is ``g`` or ends in
``_g`` (``mazo.games.g``, ``mazo.bots.heuristic.g``, ``mazo.render.g``,
``mazo.env.encoding.g``, legacy ``mazo.render_g``).  Such a module may name its own game
but no other.  The registry ``mazo.games`` (``mazo/games/__init__.py``) maps every name
to its module and is the one place allowed to name them all.

Modules still being moved may be listed in ``ALLOWED_*`` below (both are empty now).
Each entry must still offend: once it no longer does, the test fails until the entry is
removed, so the lists only shrink.

**One file per game in every layer.**  Each registered game has its file in each
per-game folder, named by its registry name (:data:`PER_GAME_FILES`: the game, its
heuristic, renderer, encoder and browser module, its oracle in ``tests/models/`` and its
tests in each per-game test folder).  A test folder that holds ``test_<game>.py`` for
some game is a per-game folder and must be listed there, so a new one cannot be
half-filled unnoticed.  A failure names every missing file.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import mazo

ROOT = Path(mazo.__file__).resolve().parent
GAME_NAMES = frozenset(mazo.list_games())
REGISTRY = "mazo.games"

# Modules allowed to name games for now (none left; a module being moved may be listed
# here while it is).  Shrink only: an entry that no longer offends fails the test.
ALLOWED_NAMING: frozenset[str] = frozenset()
# Cycles allowed for now (each a sorted tuple of its modules; none left).  Shrink only.
ALLOWED_CYCLES: frozenset[tuple[str, ...]] = frozenset()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, ast.Module]:
    return {
        module_name(path): ast.parse(path.read_text(encoding="utf-8"), str(path))
        for path in sorted(ROOT.rglob("*.py"))
    }


def is_package(name: str) -> bool:
    return (ROOT.parent / name.replace(".", "/") / "__init__.py").exists()


def imported(name: str, tree: ast.Module, known: set[str]) -> set[str]:
    """The modules of the tree that module ``name`` imports (anywhere in its body)."""
    package = name if is_package(name) else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            # ``import a.b.c`` of a non-module attribute path: the longest module prefix.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def import_graph() -> dict[str, set[str]]:
    trees = all_modules()
    known = set(trees)
    return {name: imported(name, tree, known) for name, tree in trees.items()}


def cycles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(tuple(sorted(component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def owner(name: str) -> str | None:
    """The game a module belongs to, if any."""
    for part in name.split("."):
        for game in GAME_NAMES:
            if part == game or part.endswith("_" + game):
                return game
    return None


def docstrings(tree: ast.Module) -> set[int]:
    """ids of the docstring nodes of the module, its classes and functions."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                out.add(id(body[0].value))
    return out


def naming(name: str, tree: ast.Module, graph: dict[str, set[str]]) -> list[str]:
    """How module ``name`` names a game not its own: 'line N: "g"' and 'imports m'."""
    if name == REGISTRY:
        return []
    own = owner(name)
    skip = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skip
            and node.value.strip().lower() in GAME_NAMES - {own}
        ):
            found.append(f"line {node.lineno}: {node.value!r}")
    for target in sorted(graph[name]):
        game = owner(target)
        if game is not None and game != own:
            found.append(f"imports {target}")
    return found


def offenders() -> dict[str, list[str]]:
    trees = all_modules()
    graph = import_graph()
    found = {name: naming(name, tree, graph) for name, tree in trees.items()}
    return {name: hits for name, hits in found.items() if hits}


def test_the_graph_sees_relative_deferred_and_type_checking_imports(tmp_path: Path) -> None:
    # The checks must be able to fail: a made-up module in each form is seen.
    known = {"mazo.a", "mazo.a.b", "mazo.a.c", "mazo.games.briscola", "mazo.games"}
    code = (
        "from typing import TYPE_CHECKING\n"
        "from . import c\n"
        "def f():\n    import mazo.games.briscola\n"
        "if TYPE_CHECKING:\n    from mazo.a.b import X\n"
    )
    assert imported("mazo.a.z", ast.parse(code), known) == {
        "mazo.a.c",
        "mazo.games.briscola",
        "mazo.a.b",
    }
    assert cycles({"x": {"y"}, "y": {"z"}, "z": {"x"}, "w": {"x"}}) == [("x", "y", "z")]
    tree = ast.parse('"""About briscola."""\nif game.name == "Envite":\n    pass\n')
    assert naming("mazo.bots.thing", tree, {"mazo.bots.thing": {"mazo.games.escoba"}}) == [
        "line 2: 'Envite'",
        "imports mazo.games.escoba",
    ]
    assert naming("mazo.bots.heuristic.envite", tree, {"mazo.bots.heuristic.envite": set()}) == []


def test_no_import_cycles() -> None:
    found = cycles(import_graph())
    unexpected = [c for c in found if c not in ALLOWED_CYCLES]
    assert not unexpected, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in unexpected)
    stale = sorted(ALLOWED_CYCLES - set(found))
    assert not stale, f"no longer cycles, remove from ALLOWED_CYCLES: {stale}"


def test_generic_modules_name_no_game() -> None:
    found = offenders()
    unexpected = {name: hits for name, hits in found.items() if name not in ALLOWED_NAMING}
    assert not unexpected, "generic modules naming a game:\n" + "\n".join(
        f"{name}: {'; '.join(hits)}" for name, hits in sorted(unexpected.items())
    )
    stale = sorted(ALLOWED_NAMING - set(found))
    assert not stale, f"these no longer name a game, remove from ALLOWED_NAMING: {stale}"


@pytest.mark.parametrize("game", sorted(GAME_NAMES))
def test_every_game_module_is_registered(game: str) -> None:
    # The owner rule relies on the registry's names being the game modules' names.
    assert (ROOT / "games" / f"{game}.py").exists()


# -- one file per game in every layer ---------------------------------------------------------

REPO = ROOT.parent
TESTS = Path(__file__).resolve().parent
PER_GAME_TEST_FOLDERS = ("games", "bots", "cli")
"""The folders of ``tests/`` with one ``test_<game>.py`` per game."""
PER_GAME_FILES = (
    "mazo/games/{game}.py",
    "mazo/bots/heuristic/{game}.py",
    "mazo/render/{game}.py",
    "mazo/env/encoding/{game}.py",
    "mazo/web/js/games/{game}.js",
    "tests/models/{game}.py",
    *(f"tests/{folder}/test_{{game}}.py" for folder in PER_GAME_TEST_FOLDERS),
)
"""Every game's files, relative to the repository (``{game}``: its registry name)."""


def missing_game_files(games: list[str], repo: Path) -> dict[str, list[str]]:
    """Per game, the files of :data:`PER_GAME_FILES` it lacks under ``repo``."""
    found = {
        game: [
            f.format(game=game)
            for f in PER_GAME_FILES
            if not (repo / f.format(game=game)).is_file()
        ]
        for game in games
    }
    return {game: files for game, files in found.items() if files}


def per_game_test_folders(games: list[str], tests: Path) -> set[str]:
    """The folders of ``tests`` holding ``test_<game>.py`` for at least one game."""
    return {p.parent.name for game in games for p in tests.glob(f"*/test_{game}.py")}


def test_per_game_files_check_can_fail(tmp_path: Path) -> None:
    (tmp_path / "mazo" / "games").mkdir(parents=True)
    (tmp_path / "mazo" / "games" / "tute.py").write_text("")
    (tmp_path / "tests" / "extra").mkdir(parents=True)
    (tmp_path / "tests" / "extra" / "test_tute.py").write_text("")
    missing = missing_game_files(["tute"], tmp_path)
    assert missing == {"tute": [f.format(game="tute") for f in PER_GAME_FILES[1:]]}
    assert per_game_test_folders(["tute", "scopa"], tmp_path / "tests") == {"extra"}


def test_every_game_has_its_file_in_every_per_game_folder() -> None:
    games = sorted(GAME_NAMES)
    missing = missing_game_files(games, REPO)
    assert not missing, "a registered game lacks its file in a per-game folder:\n" + "\n".join(
        f"  {game}: {', '.join(files)}" for game, files in sorted(missing.items())
    )
    undeclared = per_game_test_folders(games, TESTS) - set(PER_GAME_TEST_FOLDERS)
    assert not undeclared, (
        f"tests/{', tests/'.join(sorted(undeclared))} holds per-game tests (test_<game>.py): "
        "add it to PER_GAME_TEST_FOLDERS so every game must have its file there"
    )
