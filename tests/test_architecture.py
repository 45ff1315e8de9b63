"""No import circle anywhere in pdk, function-level imports included.

The layer contract (import-linter, ``pyproject.toml``) reads only the imports at the top of
a module, so a circle hidden behind an import inside a function, or under
``TYPE_CHECKING``, passes it: the code works until someone moves that import, and no
module of the circle can be read, tested or replaced without the others. Here the graph is
built from the syntax tree of every module of ``pdk``, every ``import`` statement wherever
it stands, and two things are checked:

* no circle between modules (``a`` imports ``b`` … imports ``a``);
* no circle between the parts of any package: the modules and subpackages directly inside
  one package (``pdk.web`` and ``pdk.rooms`` inside ``pdk``, ``sqlite`` and ``presence``
  inside ``pdk.store``), a part counting as importing another when any module in it does.

Each failure names every circle found, one per line, with the file and line of each import
that closes it, so one run tells what to untie. An import by a computed name
(``importlib.import_module``, as ``pdk.cli.app`` builds its commands) is not a statement
and is not seen.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    where: str  # path:line
    scope: str  # "top", "in f()", "under TYPE_CHECKING"


def modules(package_dir: Path) -> dict[str, Path]:
    """Every module of the package at ``package_dir`` by dotted name (a package is its
    ``__init__``)."""
    found = {}
    base = package_dir.parent
    for path in sorted(package_dir.rglob("*.py")):
        parts = path.relative_to(base).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _scopes(tree: ast.Module) -> Iterable[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement with where it stands: at the top, in a function, under
    ``if TYPE_CHECKING``."""
    stack: list[tuple[ast.AST, str]] = [(tree, "top")]
    while stack:
        node, scope = stack.pop()
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = f"in {child.name}()"
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                inner = "under TYPE_CHECKING" if scope == "top" else scope
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, scope
            stack.append((child, inner))


def _resolve(name: str, node: ast.ImportFrom) -> str:
    """The absolute module a ``from`` import names; a relative one counts from ``name``
    (a package's ``__init__`` is named ``package.__init__`` here, so ``.`` is itself)."""
    if node.level == 0:
        return node.module or ""
    base = name.split(".")
    anchor = base[: len(base) - node.level]
    return ".".join([*anchor, *([node.module] if node.module else [])])


def graph(package_dir: Path) -> tuple[dict[str, list[Edge]], dict[str, Path]]:
    """The imports between the modules of the package at ``package_dir``: for each module,
    its edges to other modules of that package (``from p import m`` is an edge to the
    module ``p.m`` when there is one, else to ``p``)."""
    found = modules(package_dir)
    edges: dict[str, list[Edge]] = {name: [] for name in found}
    for name, path in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        package_init = path.name == "__init__.py"
        for node, scope in _scopes(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                origin = _resolve(name + (".__init__" if package_init else ""), node)
                targets = [
                    f"{origin}.{a.name}" if f"{origin}.{a.name}" in found else origin for a in node.names
                ]
            where = f"{path.relative_to(package_dir.parent)}:{node.lineno}"
            for target in dict.fromkeys(targets):
                while target not in found and "." in target:  # import a.b.c of a non-module c
                    target = target.rsplit(".", 1)[0]
                if target in found and target != name:
                    edges[name].append(Edge(name, target, where, scope))
    return edges, found


def circles(edges: dict[str, list[Edge]]) -> list[list[Edge]]:
    """The circles to untie: in each strongly connected group of nodes, the shortest circle
    through each node (one group may hold several, as ``a <-> b`` and ``a <-> c`` do),
    each once, starting at its least node; sorted so the report is the same every run."""
    found: dict[tuple[str, ...], list[Edge]] = {}
    for group in _components({n: sorted({e.target for e in es}) for n, es in edges.items()}):
        if len(group) < 2:
            continue
        for start in sorted(group):
            circle = _shortest_circle(start, edges, group)
            first = min(range(len(circle)), key=lambda i: circle[i].source)
            circle = circle[first:] + circle[:first]
            found.setdefault(tuple(e.source for e in circle), circle)
    return [found[k] for k in sorted(found)]


def _components(adjacent: dict[str, list[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components, iteratively (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[set[str]] = []
    counter = 0
    for root in sorted(adjacent):
        if root in index:
            continue
        work = [(root, iter(adjacent.get(root, [])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(adjacent.get(child, []))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                groups.append(group)
    return groups


def _shortest_circle(start: str, edges: dict[str, list[Edge]], group: set[str]) -> list[Edge]:
    """The shortest way from ``start`` back to itself inside ``group`` (breadth first)."""
    came: dict[str, Edge] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for edge in sorted(edges[node], key=lambda e: e.target):
            if edge.target not in group:
                continue
            if edge.target == start:
                path = [edge]
                while path[0].source != start:
                    path.insert(0, came[path[0].source])
                return path
            if edge.target not in came:
                came[edge.target] = edge
                queue.append(edge.target)
    raise AssertionError(f"{start}: no circle in its own component")


def part_edges(package: str, edges: dict[str, list[Edge]], found: dict[str, Path]) -> dict[str, list[Edge]]:
    """The graph between the parts directly inside ``package`` (its modules and
    subpackages): part ``a`` imports part ``b`` when a module in ``a`` imports one in ``b``."""
    prefix = package + "."

    def part(module: str) -> str | None:
        if not module.startswith(prefix):
            return None
        return prefix + module[len(prefix) :].split(".")[0]

    parts: dict[str, list[Edge]] = {}
    for name in found:
        mine = part(name)
        if mine is not None:
            parts.setdefault(mine, [])
    for name, out in edges.items():
        mine = part(name)
        if mine is None:
            continue
        for edge in out:
            theirs = part(edge.target)
            if theirs is not None and theirs != mine:
                inside = (edge.source, edge.target) != (mine, theirs)  # through a subpackage's module
                how = f"{edge.source} -> {edge.target}, {edge.scope}" if inside else edge.scope
                parts[mine].append(Edge(mine, theirs, edge.where, how))
    return parts


def packages(found: dict[str, Path]) -> list[str]:
    return sorted(name for name, path in found.items() if path.name == "__init__.py")


def report(title: str, found: list[list[Edge]]) -> str:
    lines = [f"{title}: {len(found)}"]
    for circle in found:
        names = [circle[0].source, *(e.target for e in circle)]
        lines.append("  " + " -> ".join(names))
        lines.extend(f"      {e.where}: {e.source} imports {e.target} ({e.scope})" for e in circle)
    return "\n".join(lines)


def module_circles(package_dir: Path) -> list[list[Edge]]:
    edges, _ = graph(package_dir)
    return circles(edges)


def package_circles(package_dir: Path) -> dict[str, list[list[Edge]]]:
    edges, found = graph(package_dir)
    out = {}
    for package in packages(found):
        found_here = circles(part_edges(package, edges, found))
        if found_here:
            out[package] = found_here
    return out


def test_no_import_circle_between_modules() -> None:
    found = module_circles(ROOT / "pdk")
    if found:
        pytest.fail(
            report("import circles between modules of pdk (imports in functions included)", found), False
        )


def test_no_import_circle_between_the_parts_of_a_package() -> None:
    found = package_circles(ROOT / "pdk")
    if found:
        text = "\n".join(report(f"circles between the parts of {p}", circles) for p, circles in found.items())
        pytest.fail(text, False)


def test_the_store_package_is_free_of_circles() -> None:
    """The store's backends, presence and change feed import downwards only (its own check,
    so it holds while circles elsewhere are still being untied)."""
    in_store = [c for c in module_circles(ROOT / "pdk") if any(e.source.startswith("pdk.store") for e in c)]
    if in_store:
        pytest.fail(report("import circles through pdk.store", in_store), False)
    parts = package_circles(ROOT / "pdk").get("pdk.store", [])
    if parts:
        pytest.fail(report("circles between the parts of pdk.store", parts), False)


def test_circles_hidden_in_functions_and_type_checking_are_found(tmp_path: Path) -> None:
    """The checker itself, on a package made for it: a circle closed by an import inside a
    function, one closed under ``TYPE_CHECKING``, one through a relative import, one
    between two subpackages; and no circle where the imports only go down."""
    pkg = tmp_path / "toy"
    files = {
        "__init__.py": "",
        "a.py": "from toy import b\n",
        "b.py": "def f():\n    from toy.a import x\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import toy.d\n",
        "d.py": "from . import c\n",
        "e.py": "import toy.a\n",
        "low/__init__.py": "",
        "low/one.py": "from toy.high.two import y\n",
        "high/__init__.py": "",
        "high/two.py": "",
        "high/three.py": "from toy.low import one\n",
    }
    for name, text in files.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    found = module_circles(pkg)
    named = sorted(" -> ".join([c[0].source, *(e.target for e in c)]) for c in found)
    assert named == ["toy.a -> toy.b -> toy.a", "toy.c -> toy.d -> toy.c"]
    text = report("circles", found)
    assert "toy/b.py:2: toy.b imports toy.a (in f())" in text
    assert "toy/c.py:3: toy.c imports toy.d (under TYPE_CHECKING)" in text
    parts = package_circles(pkg)
    assert sorted(parts) == ["toy"]
    between = sorted(" -> ".join([c[0].source, *(e.target for e in c)]) for c in parts["toy"])
    assert between == [
        "toy.a -> toy.b -> toy.a",
        "toy.c -> toy.d -> toy.c",
        "toy.high -> toy.low -> toy.high",
    ]
