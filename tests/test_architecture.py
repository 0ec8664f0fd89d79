"""The shape of the package, read from its source (docs/architecture.md):

- the core (cards, rules, the deal, the auction, the state, information states, actions,
  scoring, the match) imports nothing outward: no bot, referee, front-end or wire;
- no two modules import each other, directly or round a longer cycle (lazy imports inside
  functions count; ``if TYPE_CHECKING:`` imports, for annotations only, do not);
- every module imports only its layer and those below (core, players, referee, records,
  front-ends), and the bots never import the wire;
- front-ends hold no game logic: outside the engine and the referee no module moves a state or
  works out what a seat is asked (a legal list, a bid range, the redeal question): they render
  :meth:`InformationState.request` and submit to the referee.
"""

from __future__ import annotations

import ast
import re
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "sueca"

CORE = {
    "sueca", "sueca.actions", "sueca.auction", "sueca.cards", "sueca.deal", "sueca.infostate",
    "sueca.jsontext", "sueca.match", "sueca.redeal", "sueca.rules", "sueca.scoring",
    "sueca.state", "sueca.trick", "sueca.worlds",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _absolute(module: str | None, level: int, importer: str, is_package: bool) -> str:
    """An ``ImportFrom``'s module as an absolute name (``from . import x`` in
    ``sueca.bots.heuristic`` is ``sueca.bots``)."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    base = base if is_package else base[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``path`` imports, wherever in the file (lazy imports too,
    relative ones resolved, ``importlib.import_module("sueca…")`` with a literal name), except
    in the body of ``if TYPE_CHECKING:`` (its ``else`` runs, and counts)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = module_name(path)
    package = path.name == "__init__.py"
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _type_checking(node):
            assert isinstance(node, ast.If)
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node.module, node.level, me, package)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        elif (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module")
              and node.args and isinstance(node.args[0], ast.Constant)):
            found.add(str(node.args[0].value))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {name for name in found if name in known} - {me}


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(path, set(known)) for name, path in known.items()}


def test_the_core_imports_nothing_outward() -> None:
    graph = import_graph()
    outward = {name: sorted(deps - CORE) for name, deps in graph.items()
               if name in CORE and deps - CORE}
    assert not outward, f"core modules importing outside the core: {outward}"


def _is_reexport(a: str, b: str) -> bool:
    """A package's ``__init__`` importing its own submodule (``sueca.bots`` re-exporting
    ``sueca.bots.heuristic``): the package's face, not a dependency between concepts. The
    other way round (a submodule importing its package) is an edge like any other."""
    return b.startswith(a + ".")


# Each module's layer: a module may import its own layer and those below, never above.
LAYERS = [
    ("core", CORE),
    ("players", ("sueca.bots", "sueca.solver", "sueca.neural")),
    ("referee", ("sueca.referee",)),
    ("records", ("sueca.record", "sueca.review")),
    ("front-ends", ("sueca.arena", "sueca.protocol", "sueca.terminal", "sueca.server",
                    "sueca.cli", "sueca.__main__", "sueca.env", "sueca.dataset",
                    "sueca.training")),
]


def layer_of(module: str) -> int:
    for index, (_, members) in enumerate(LAYERS):
        if any(module == m or module.startswith(m + ".") for m in members) and (
                index != 0 or module in CORE):
            return index
    raise AssertionError(f"{module} has no layer: add it to LAYERS in {__file__}")


def test_every_module_imports_only_its_layer_and_below() -> None:
    wrong = sorted(f"{name} ({LAYERS[layer_of(name)][0]}) imports {dep} "
                   f"({LAYERS[layer_of(dep)][0]})"
                   for name, deps in import_graph().items() for dep in deps
                   if layer_of(dep) > layer_of(name))
    assert not wrong, "imports up the layers:\n" + "\n".join(wrong)


def test_the_bots_never_import_the_wire() -> None:
    graph = import_graph()
    wire = sorted(f"{name} imports {dep}" for name, deps in graph.items()
                  if name.startswith("sueca.bots") for dep in deps
                  if dep.startswith("sueca.protocol"))
    assert not wire, wire


def test_no_two_modules_import_each_other() -> None:
    graph = {name: {d for d in deps if not _is_reexport(name, d)}
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


# Where a front-end would be doing the engine's or the referee's work. A receiver is anything
# named for a state (``state``, ``self._state``, ``table.state``, ``sampled_state``).
GAME_LOGIC = [
    (re.compile(r"\w*state\w*\s*\.\s*(apply|bid|call|answer_redeal|unanswer_redeal|play|push|pop"
                r"|denounce)\s*\("),
     "moves a state (submit to the referee)"),
    (re.compile(r"\b(lowest_bid|high_bidder)\b"),
     "works out the auction (render info.request())"),
    (re.compile(r"\blegal_mask_for\b|\.legal_moves\s*\(|\.legal_mask\s*\("),
     "computes a legal list (render info.request())"),
    (re.compile(r"\b(hand_points|redeal_limit|redeal_error|may_ask_redeal)\b|\bmay_ask\s*\("
                r"|redeal_answers_allowed"),
     "computes the redeal question (render info.request())"),
]


def code_lines(path: Path) -> list[tuple[int, str]]:
    """The file's lines with comments and the insides of strings blanked (tokenize's reading,
    so a ``#`` inside a string is no comment), numbered from 1."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    blank = [list(line) for line in lines]
    with path.open("rb") as source:
        for token in tokenize.tokenize(source.readline):
            if token.type not in (tokenize.COMMENT, tokenize.STRING, FSTRING_MIDDLE):
                continue
            (row, col), (end_row, end_col) = token.start, token.end
            for r in range(row, end_row + 1):
                line = blank[r - 1]
                start = col if r == row else 0
                stop = end_col if r == end_row else len(line)
                for c in range(start, stop):
                    line[c] = " "
    return [(n, "".join(chars)) for n, chars in enumerate(blank, 1)]


FSTRING_MIDDLE = getattr(tokenize, "FSTRING_MIDDLE", -1)  # Python 3.12+: f-string text


FRONT_ENDS = ["sueca/terminal", "sueca/server", "sueca/protocol", "sueca/cli.py",
              "sueca/arena", "sueca/record.py", "sueca/env", "sueca/dataset.py"]
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
    source = path.read_text(encoding="utf-8").splitlines()
    for number, code in code_lines(path):
        line = source[number - 1]
        for pattern, why in GAME_LOGIC:
            if pattern.search(code):
                problems.append(f"{path.name}:{number}: {why}: {line.strip()}")
    assert not problems, "\n".join(problems)
