"""No code line of the library runs past 100 characters (the line length of ruff.toml).

Every `.py` file under `ldp_truth/` is read as the notebooks exported it; a line longer than 100
characters fails the test, named as `file:line (length)`. Exempt: `_modidx.py` and the lines of the
module-level `__all__`, which nbdev writes. A long docstring, message or comment is fixed in its
notebook (a shorter one-line docstring, an implicit string concatenation, a shorter comment), then
`nbdev_export`. The checker is first shown to fail on a module with one long line and to pass over a
long `__all__`. Also: the hand-written `ldp_truth/inference/__init__.py` and `ldp_truth/mechanisms/__init__.py`
gather every chapter module of their package (its `CHAPTERS`), so a new chapter cannot be left out of
`from ldp_truth.inference import …` or `from ldp_truth.mechanisms import …`.
And the house's size and layering rules (DESIGN.md): no function or class over 120 lines, no module over 1,200
lines (`kernels.py` and `_modidx.py` excepted), no circle among the modules of `ldp_truth` (an import inside a
function counts), and the import directions: no core module imports `ldp_truth.papers`, `inference` never
imports `mechanisms` nor the reverse, `kernels` imports nothing of ours, `data` only `kernels`. Each check is
first shown to fail on a synthetic package. Run by `make test`.
"""

import ast
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 100
EXEMPT = {"_modidx.py"}
MAX_DEF, MAX_MODULE = 120, 1200  # lines of a function or class, of a module
BIG_MODULES = {"kernels.py", "_modidx.py"}  # compiled loops and nbdev's index: no module size limit


def all_lines(source: str) -> set:
    "Line numbers (1-based) spanned by the module-level `__all__ = ...` that nbdev generates."
    lines = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            lines.update(range(node.lineno, node.end_lineno + 1))
    return lines


def long_lines(source: str, name: str) -> list:
    "`name:line (length)` for each line of `source` over LIMIT characters, `__all__` excepted."
    exempt = all_lines(source)
    return [
        f"{name}:{i} ({len(line)})"
        for i, line in enumerate(source.splitlines(), 1)
        if len(line) > LIMIT and i not in exempt
    ]


def check_checker() -> None:
    "The checker flags a long code line and passes a long generated `__all__`."
    names = ", ".join(f"'name{i}'" for i in range(20))
    good = f"__all__ = [{names}]\n\nx = 1\n"
    bad = good + "y = " + " + ".join(["1"] * 60) + "\n"
    assert long_lines(good, "good.py") == [], long_lines(good, "good.py")
    assert long_lines(bad, "bad.py") == [f"bad.py:4 ({len(bad.splitlines()[3])})"]


def missing_chapters(package: Path) -> list:
    "Modules of a package whose names its hand-written `__init__` does not gather (its `CHAPTERS`)."
    init = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    listed = {n.id for node in init.body if isinstance(node, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == "CHAPTERS" for t in node.targets)
              for n in ast.walk(node.value) if isinstance(n, ast.Name)}
    return sorted(p.stem for p in package.glob("*.py") if p.stem != "__init__" and p.stem not in listed)


def check_chapters_checker(tmp: Path) -> None:
    "The chapter check flags a module its package's `__init__` leaves out."
    (tmp / "__init__.py").write_text("from . import a\nCHAPTERS = (a,)\n")
    (tmp / "a.py").write_text("__all__ = []\n")
    assert missing_chapters(tmp) == []
    (tmp / "b.py").write_text("__all__ = []\n")
    assert missing_chapters(tmp) == ["b"], missing_chapters(tmp)


def long_defs(source: str, name: str) -> list:
    "`name:line def (lines)` for each function or class of `source` (nested ones too) over MAX_DEF lines."
    return [
        f"{name}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.end_lineno - node.lineno + 1 > MAX_DEF
    ]


def long_modules(package: Path) -> list:
    "`file (lines)` for each module of `package` over MAX_MODULE lines, BIG_MODULES excepted."
    sizes = {p: len(p.read_text(encoding="utf-8").splitlines()) for p in package.rglob("*.py")}
    return [f"{p.relative_to(package.parent)} ({n} lines)" for p, n in sorted(sizes.items())
            if n > MAX_MODULE and p.name not in BIG_MODULES]


def module_names(package: Path) -> dict:
    "Dotted name → path of every module of `package` (a package by its `__init__`)."
    names = {}
    for p in package.rglob("*.py"):
        parts = p.relative_to(package.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return names


def imports_of(module: str, path: Path, known: set) -> set:
    "The modules of `known` that `module` imports, anywhere in it (inside functions too)."
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = module.split(".")[: len(module.split(".")) + is_package - node.level]
            stem = ".".join(base + ([node.module] if node.module else [])) if node.level else node.module
            targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in known else stem for a in node.names]
        else:
            continue
        found |= {t for t in targets if t in known and t != module}
    return found


def import_graph(package: Path) -> dict:
    "Module → the modules of the package it imports."
    names = module_names(package)
    return {m: imports_of(m, p, set(names)) for m, p in names.items()}


def import_circles(graph: dict) -> list:
    "The circles of `graph`: each strongly connected set of more than one module (Tarjan), sorted."
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def layer(module: str) -> str:
    "The part of the house a module belongs to: the name under the package (`inference`, `papers`, …)."
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def wrong_directions(graph: dict) -> list:
    "`a -> b (rule)` for each import that breaks DESIGN.md's directions."
    bad = []
    for a, targets in sorted(graph.items()):
        for b in sorted(targets):
            la, lb = layer(a), layer(b)
            rules = [
                (lb == "papers" and la != "papers", "no core module imports papers"),
                (la == "inference" and lb.startswith("mechanisms"), "inference never imports mechanisms"),
                (la.startswith("mechanisms") and lb == "inference", "mechanisms never imports inference"),
                (la == "kernels", "kernels imports nothing of ours"),
                (la == "data" and lb != "kernels", "data imports only kernels"),
            ]
            bad += [f"{a} -> {b} ({why})" for broken, why in rules if broken]
    return bad


def check_house_checker(tmp: Path) -> None:
    "The size, circle and direction checks flag a synthetic package that breaks each rule, and pass a clean one."
    pkg = tmp / "ldp_truth"
    (pkg / "inference").mkdir(parents=True)
    (pkg / "papers").mkdir()
    files = {
        "__init__.py": "",
        "kernels.py": "import numpy\n",
        "data.py": "from .kernels import x\n",
        "mechanisms.py": "from ldp_truth import data\n",
        "inference/__init__.py": "from . import core\n",
        "inference/core.py": "from ..kernels import x\nfrom ldp_truth.data import Answers\n",
        "papers/__init__.py": "",
        "papers/a.py": "from ldp_truth.inference import core\nfrom ldp_truth import mechanisms\n",
    }
    for f, text in files.items():
        (pkg / f).write_text(text)
    graph = import_graph(pkg)
    assert graph["ldp_truth.inference"] == {"ldp_truth.inference.core"}, graph
    assert graph["ldp_truth.papers.a"] == {"ldp_truth.inference.core", "ldp_truth.mechanisms"}, graph
    assert import_circles(graph) == [] and wrong_directions(graph) == [], wrong_directions(graph)
    assert long_modules(pkg) == [] and long_defs(files["data.py"], "data.py") == []
    (pkg / "kernels.py").write_text("def f():\n    from ldp_truth.inference import core\n")  # inside a function
    (pkg / "data.py").write_text("from .kernels import x\nfrom . import mechanisms\n")
    (pkg / "inference/core.py").write_text("from ldp_truth.papers import a\nimport ldp_truth.mechanisms\n")
    graph = import_graph(pkg)
    assert import_circles(graph) == [
        ["ldp_truth.data", "ldp_truth.inference.core", "ldp_truth.kernels", "ldp_truth.mechanisms",
         "ldp_truth.papers.a"]
    ], import_circles(graph)
    assert set(wrong_directions(graph)) == {
        "ldp_truth.data -> ldp_truth.mechanisms (data imports only kernels)",
        "ldp_truth.inference.core -> ldp_truth.papers.a (no core module imports papers)",
        "ldp_truth.inference.core -> ldp_truth.mechanisms (inference never imports mechanisms)",
        "ldp_truth.kernels -> ldp_truth.inference.core (kernels imports nothing of ours)",
    }, wrong_directions(graph)
    body = "def f():\n" + "    x = 1\n" * MAX_DEF
    assert long_defs(body, "big.py") == [f"big.py:1 f ({MAX_DEF + 1} lines)"], long_defs(body, "big.py")
    (pkg / "mechanisms.py").write_text("x = 1\n" * (MAX_MODULE + 1))
    (pkg / "kernels.py").write_text("x = 1\n" * (MAX_MODULE + 1))  # excepted
    assert long_modules(pkg) == [f"ldp_truth/mechanisms.py ({MAX_MODULE + 1} lines)"], long_modules(pkg)


def house_rules(package: Path) -> list:
    "Every breach of the size and import rules in `package`, one line each."
    found = []
    for p in sorted(package.rglob("*.py")):
        if p.name != "_modidx.py":
            found += long_defs(p.read_text(encoding="utf-8"), str(p.relative_to(package.parent)))
    graph = import_graph(package)
    found += long_modules(package)
    found += [f"import circle: {' <-> '.join(c)}" for c in import_circles(graph)]
    return found + wrong_directions(graph)


def main() -> int:
    check_checker()
    with tempfile.TemporaryDirectory() as tmp:
        check_chapters_checker(Path(tmp))
    with tempfile.TemporaryDirectory() as tmp:
        check_house_checker(Path(tmp))
    for package in ("inference", "mechanisms"):
        left_out = missing_chapters(ROOT / "ldp_truth" / package)
        if left_out:
            print(f"test_style: ldp_truth/{package}/__init__.py does not re-export", *left_out)
            return 1
    files = sorted(p for p in (ROOT / "ldp_truth").rglob("*.py") if p.name not in EXEMPT)
    found = []
    for p in files:
        found += long_lines(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)))
    if found:
        print(f"test_style: {len(found)} lines over {LIMIT} characters:", *found, sep="\n  ")
        return 1
    broken = house_rules(ROOT / "ldp_truth")
    if broken:
        print(f"test_style: {len(broken)} breaches of the size and import rules:", *broken, sep="\n  ")
        return 1
    print(f"test_style: no line over {LIMIT} characters in {len(files)} modules; sizes and imports as DESIGN.md says")
    return 0


if __name__ == "__main__":
    sys.exit(main())
