"""The shape of the code (issue #24), read from its source: three layers that import only downward (primitives <
runtime < derive, and derive's stages in the order a rule flows through them), no import cycles, no private names
across modules, function-level imports only for optional dependencies, and classes and functions of a size a
reader can hold. import-linter checks the layer contract too (pyproject.toml; CI runs `lint-imports`); this walk
needs nothing installed and also sees what import-linter does not: function-level imports, private names, sizes.
"""
from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("primitives", "runtime", "derive")
LAYERS = ("primitives", "runtime", "generated", "derive")     # bottom to top
# derive's stages, bottom to top: a stage imports only the ones before it
STAGES = ("language", "ir", "lowering", "calculus", "emission", "display", "verification", "fingerprint",
          "outcome_cache", "progress", "pipeline", "api", "output", "cli")
# the one upward edge: defining a rule at run time derives it (lazily: SymPy loads only then)
UPWARD_ALLOWED = {("runtime.rule_cache", "derive.pipeline"), ("runtime.rule_cache", "derive.fingerprint")}
# what may be imported inside a function: optional dependencies, the upward edge above, and these, each for a
# reason (the edges still count for the layers and cycles below)
OPTIONAL = {"torch", "jax", "jaxlib", "pycuda", "mpmath", "scipy", "difflib", "warnings", "keyword", "inspect"}
LAZY = {
    # a cached derive-rules run reads its outcomes (derive.outcome_cache) and never loads SymPy and the stages
    ("derive.cli", "derive.pipeline"): "the engine loads only when something must be derived",
    ("derive.cli", "derive.display.notation"): "SymPy's printers load only for --latex",
    ("derive.cli", "derive.display.report"): "SymPy's printers load only for --report",
}
CLASS_LINES, FUNCTION_LINES = 400, 60
LONG_REASON = "# long:"      # a function over FUNCTION_LINES says why on the line of its def or the one above


def _modules():
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _target(mod, path, node):
    """The project modules an import statement reaches: [(module, imported name or None, the statement)]."""
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
            base = base[:len(base) - node.level + 1]
            src = ".".join(base + ([node.module] if node.module else []))
        else:
            src = node.module or ""
        found = []
        for a in node.names:
            full = f"{src}.{a.name}"
            found.append((full, None) if full in MODULES else (src, a.name))
        return found
    return [(a.name, None) for a in node.names]


def _owner(name):
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def _walk():
    """(module edges, function-level imports, private imports), each over the project's own modules."""
    edges, inner, private = defaultdict(set), [], []
    for mod, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))

        def visit(node, in_function):
            for ch in ast.iter_child_nodes(node):
                if isinstance(ch, (ast.Import, ast.ImportFrom)):
                    for tgt, name in _target(mod, path, ch):
                        top = tgt.split(".")[0]
                        owner = _owner(tgt)
                        if in_function and top not in OPTIONAL and (mod, owner or tgt) not in UPWARD_ALLOWED \
                                and (mod, owner) not in LAZY:
                            inner.append(f"{mod}:{ch.lineno} imports {tgt} inside a function")
                        if not owner:
                            continue
                        edges[mod].add(owner)
                        if name and name.startswith("_") and not name.startswith("__") and owner != mod:
                            private.append(f"{mod}:{ch.lineno} imports the private name {owner}.{name}")
                visit(ch, in_function or isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef)))

        visit(tree, False)
    return edges, inner, private


EDGES, INNER, PRIVATE = _walk()


def _layer(mod):
    return LAYERS.index(mod.split(".")[0])


def _stage(mod):
    parts = mod.split(".")
    return STAGES.index(parts[1]) if len(parts) > 1 and parts[1] in STAGES else None


def test_layers_import_only_downward():
    up = [f"{a} -> {b}" for a, bs in EDGES.items() for b in bs
          if _layer(b) > _layer(a) and (a, b) not in UPWARD_ALLOWED]
    assert not up, "imports that go up a layer:\n" + "\n".join(sorted(up))


def test_derive_stages_import_only_downward():
    up = [f"{a} -> {b}" for a, bs in EDGES.items() if a.startswith("derive.") for b in bs
          if b.startswith("derive.") and _stage(a) is not None and _stage(b) is not None and _stage(b) > _stage(a)]
    assert not up, "derive stages importing a later stage:\n" + "\n".join(sorted(up))


def test_every_derive_module_belongs_to_a_stage():
    loose = [m for m in MODULES if m.startswith("derive.") and _stage(m) is None]
    assert not loose, f"derive modules outside the stages {STAGES}: {loose}"


def test_no_import_cycles():
    """Tarjan's strongly connected components over every import, function-level ones included (a package's
    __init__ reaching its own submodules is the package loading itself, not a cycle)."""
    graph = {a: {b for b in bs if b != a and not b.startswith(a + ".")} for a, bs in EDGES.items()}
    index, low, stack, on, cycles, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def connect(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            connect(v)
    assert not cycles, f"import cycles: {cycles}"


def test_no_private_names_across_modules():
    assert not PRIVATE, "\n".join(PRIVATE)


def test_no_private_attributes_of_other_modules():
    """`module._name` read or written where `module` is another project module imported here (a feature module
    writing the Lowerer's state, a runner reading another's helper): make it public or move it to its owner."""
    found = []
    for mod, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for (tgt, name), alias in zip(_target(mod, path, node), node.names):
                    if name is None and _owner(tgt) == tgt and tgt != mod:
                        imported[alias.asname or alias.name.split(".")[0]] = tgt
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in imported
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                found.append(f"{mod}:{node.lineno} {'writes' if isinstance(node.ctx, ast.Store) else 'reads'} "
                             f"{imported[node.value.id]}.{node.attr}")
    assert not found, "\n".join(found)


def test_function_level_imports_only_for_optional_dependencies():
    assert not INNER, "\n".join(INNER)


def test_runtime_and_primitives_import_no_sympy():
    """SymPy is derive's: the runtime's hot path and the declarations load without it (the one edge up into derive
    is lazy)."""
    bad = []
    for mod, path in MODULES.items():
        if mod.split(".")[0] not in ("runtime", "primitives"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                bad += [f"{mod}:{node.lineno}" for n in names if n.split(".")[0] == "sympy"]
    assert not bad, bad


def _sizes():
    big, long = [], []
    for mod, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            n = getattr(node, "end_lineno", 0) - getattr(node, "lineno", 0) + 1
            if isinstance(node, ast.ClassDef) and n > CLASS_LINES:
                big.append(f"{mod}.{node.name}: {n} lines")
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and n > FUNCTION_LINES:
                first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
                around = " ".join(lines[max(0, first - 2):node.lineno])
                if LONG_REASON not in around:
                    long.append(f"{mod}:{node.lineno} {node.name}: {n} lines")
    return big, long


def test_no_class_over_400_lines():
    assert not _sizes()[0], "\n".join(_sizes()[0])


def test_long_functions_say_why():
    assert not _sizes()[1], f"functions over {FUNCTION_LINES} lines without a `{LONG_REASON}` comment:\n" + \
        "\n".join(_sizes()[1])


def test_import_linter_contract():
    """The same contract as import-linter states it (pyproject.toml), where import-linter is installed (CI
    installs it and also runs `lint-imports`)."""
    pytest.importorskip("importlinter", reason="import-linter is not installed (pip install import-linter)")
    import subprocess

    res = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                          "sys.argv = ['lint-imports', '--no-cache']; lint_imports_command()"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
