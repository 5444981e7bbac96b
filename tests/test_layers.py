"""The import layers: no import runs against the pipeline, and no module imports itself in a circle.

Every project module's imports are read with ``ast``, at module level and inside functions alike
(an import deferred into a function to start fast still ties the two modules). Each module
belongs to the layer of its longest prefix in :data:`LAYERS`; :data:`ALLOWED` says which layers a
layer may import. The flow is data -> rulings_anon (the core every stage shares) -> fetcher ->
preprocessing -> models -> evaluation; interactive uses the core only; the pipeline runner sits
on top of everything.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rulings_anon",)

# Module prefix -> layer; the longest matching prefix decides.
LAYERS = {
    "rulings_anon.data": "data",
    "rulings_anon.configs": "data",
    "rulings_anon": "core",
    "rulings_anon.documents": "core",
    "rulings_anon.placeholders": "placeholders",
    "rulings_anon.replacement": "replacement",
    "rulings_anon.analyzer": "analysis",
    "rulings_anon.ner": "analysis",
    "rulings_anon.engine": "engine",
    "rulings_anon.review": "review",
    "rulings_anon.fetcher": "fetcher",
    "rulings_anon.preprocessing": "preprocessing",
    "rulings_anon.models": "models",
    "rulings_anon.scoring": "scoring",
    "rulings_anon.evaluation": "evaluation",
    "rulings_anon.interactive": "interactive",
    "rulings_anon.pipeline": "top",
}

# Modules whose layer is their own, not their prefix's: the package's __init__ hands on the
# public API (the engine) and sits above it.
EXACT_LAYERS = {"rulings_anon": "api"}

# Layer -> the other layers it may import (a layer may always import itself).
_CORE = {"data", "core"}
_SHARED = _CORE | {"placeholders", "replacement", "analysis", "engine"}
ALLOWED = {
    "data": set(),
    "core": {"data"},
    "placeholders": _CORE,
    "replacement": _CORE,
    "analysis": _CORE | {"replacement"},
    "engine": _CORE | {"placeholders", "replacement", "analysis"},
    "api": _CORE | {"engine"},
    "fetcher": _SHARED,
    "preprocessing": _SHARED | {"fetcher"},
    "models": _SHARED | {"fetcher", "preprocessing"},
    "scoring": _SHARED | {"fetcher", "preprocessing", "models"},
    "evaluation": _SHARED | {"fetcher", "preprocessing", "models", "scoring"},
    "interactive": _CORE | {"placeholders", "replacement"},
    "review": _SHARED,
    "top": _SHARED | {"fetcher", "preprocessing", "models", "scoring", "evaluation", "interactive", "review"},
}

# File names every stage package has by convention.
_CONVENTIONAL = {"__init__.py", "__main__.py", "commands.py"}


def project_modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the project's packages."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _known(name: str, modules) -> str | None:
    """The project module ``name`` means: itself, or the nearest package above it."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str, path: Path, modules) -> set[str]:
    """The project modules ``module`` imports, anywhere in its file."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            # "from pkg import mod" imports the submodule when there is one, else a name of pkg.
            names = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                     for alias in node.names]
        else:
            continue
        for name in names:
            target = _known(name, modules)
            if target and target != module:
                found.add(target)
    return found


def layer_of(module: str) -> str:
    if module in EXACT_LAYERS:
        return EXACT_LAYERS[module]
    prefixes = [p for p in LAYERS if module == p or module.startswith(p + ".")]
    return LAYERS[max(prefixes, key=len)]


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {module: imports_of(module, path, modules) for module, path in modules.items()}


def test_layer_table_is_closed():
    layers = set(LAYERS.values())
    assert set(ALLOWED) == layers | set(EXACT_LAYERS.values())
    assert all(allowed <= layers | set(EXACT_LAYERS.values()) for allowed in ALLOWED.values())


def test_every_module_has_a_layer(graph):
    assert all(layer_of(module) in ALLOWED for module in graph)


def test_no_import_runs_against_the_pipeline(graph):
    forbidden = sorted(
        f"{module} ({layer_of(module)}) -> {target} ({layer_of(target)})"
        for module, targets in graph.items()
        for target in targets
        if layer_of(target) != layer_of(module) and layer_of(target) not in ALLOWED[layer_of(module)]
    )
    assert forbidden == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circles(graph):
    # A package's __init__ that hands its modules' names on is not a circle with them, unless
    # one of those modules imports the package back.
    assert _cycles(graph) == []


def test_cycle_finder_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_two_modules_share_a_file_name():
    names = Counter(path.name for path in project_modules().values() if path.name not in _CONVENTIONAL)
    assert [name for name, count in names.items() if count > 1] == []
