"""The shape of the package, read from its source (docs/architecture.md):

- the core (cards, rules, the deal, the auction, the state, information states, actions,
  scoring, the match) imports nothing outward: no bot, referee, front-end or wire;
- no two modules import each other, directly or round a longer cycle (lazy imports inside
  functions count; ``if TYPE_CHECKING:`` imports, for annotations only, do not);
- front-ends hold no game logic: outside the engine and the referee no module moves a state or
  works out what a seat is asked (a legal list, a bid range, the redeal question): they render
  :meth:`InformationState.request` and submit to the referee.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "sueca"

CORE = {
    "sueca.actions", "sueca.auction", "sueca.cards", "sueca.deal", "sueca.infostate",
    "sueca.jsontext", "sueca.match", "sueca.redeal", "sueca.rules", "sueca.scoring",
    "sueca.state", "sueca.trick", "sueca.worlds",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``path`` imports, wherever in the file (lazy imports too),
    except under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _type_checking_only(node):
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {name for name in found if name in known} - {module_name(path)}


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(path, set(known)) for name, path in known.items()}


def test_the_core_imports_nothing_outward() -> None:
    graph = import_graph()
    outward = {name: sorted(deps - CORE) for name, deps in graph.items()
               if name in CORE and deps - CORE}
    assert not outward, f"core modules importing outside the core: {outward}"


def _is_package_edge(a: str, b: str) -> bool:
    """A package's ``__init__`` re-exporting its own submodules (``sueca.bots`` importing
    ``sueca.bots.heuristic``), and a submodule importing its sibling through the package: the
    package's face, not a dependency between concepts."""
    return b.startswith(a + ".") or a.startswith(b + ".")


def test_no_two_modules_import_each_other() -> None:
    graph = {name: {d for d in deps if not _is_package_edge(name, d)}
             for name, deps in import_graph().items()}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        path.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                cycles.append([*path[path.index(dep):], dep])
            elif dep not in state:
                walk(dep)
        path.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


# Where a front-end would be doing the engine's or the referee's work.
GAME_LOGIC = [
    (re.compile(r"\bstate\.(apply|bid|call|answer_redeal|play|push|pop|denounce)\("),
     "moves a state (submit to the referee)"),
    (re.compile(r"\blowest_bid\b"), "computes a bid range (render info.request())"),
    (re.compile(r"\blegal_mask_for\b|\.legal_moves\(|\.legal_mask\("),
     "computes a legal list (render info.request())"),
    (re.compile(r"\bhand_points\b|\bredeal_limit\b|\bmay_ask_redeal\b|redeal_answers_allowed"),
     "computes the redeal question (render info.request())"),
]

FRONT_ENDS = ["sueca/terminal", "sueca/server", "sueca/protocol", "sueca/cli.py",
              "sueca/arena", "sueca/record.py"]
# The protocol's bot side rebuilds a seat's state from the messages it hears: it is the
# engine's mirror in another process, not a front-end, and must replay what it is told.
MIRRORS = {"sueca/protocol/tracker.py"}


def front_end_files() -> list[Path]:
    root = PACKAGE.parent
    files: list[Path] = []
    for entry in FRONT_ENDS:
        path = root / entry
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return [f for f in files if f.exists() and str(f.relative_to(root)) not in MIRRORS]


@pytest.mark.parametrize("path", front_end_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_front_ends_hold_no_game_logic(path: Path) -> None:
    problems = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split("#", 1)[0]
        for pattern, why in GAME_LOGIC:
            if pattern.search(code):
                problems.append(f"{path.name}:{number}: {why}: {line.strip()}")
    assert not problems, "\n".join(problems)
