"""No code line of the library runs past 100 characters (the line length of ruff.toml).

Every `.py` file under `ldp_truth/` is read as the notebooks exported it; a line longer than 100
characters fails the test, named as `file:line (length)`. Exempt: `_modidx.py` and the lines of the
module-level `__all__`, which nbdev writes. A long docstring, message or comment is fixed in its
notebook (a shorter one-line docstring, an implicit string concatenation, a shorter comment), then
`nbdev_export`. The checker is first shown to fail on a module with one long line and to pass over a
long `__all__`. Also: the hand-written `ldp_truth/inference/__init__.py` and `ldp_truth/mechanisms/__init__.py`
gather every chapter module of their package (its `CHAPTERS`), so a new chapter cannot be left out of
`from ldp_truth.inference import …` or `from ldp_truth.mechanisms import …`. Run by
`make test`.
"""

import ast
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 100
EXEMPT = {"_modidx.py"}


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


def main() -> int:
    check_checker()
    with tempfile.TemporaryDirectory() as tmp:
        check_chapters_checker(Path(tmp))
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
    print(f"test_style: no line over {LIMIT} characters in {len(files)} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
