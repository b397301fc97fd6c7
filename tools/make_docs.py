"""Build the documentation site offline: nbdev's processors write `_proc/`, then Quarto (if installed) or smalldocs renders it.

`nbdev_docs` needs Quarto, which cannot be downloaded here. The steps below are the ones it runs, called as Python
functions; the site lands in `_docs/` (index.html is the landing page, one page per notebook, named as the notebook).

nbdev runs, to build the docs, every exported cell, every `show_doc` and every cell with an import — including a test
cell that imports something and then uses variables of earlier test cells, which nbdev runs alone and which then
fails the build (nbdev's FAQ says: keep imports in cells of their own). Such cells are not run for the docs here: their
saved outputs are shown as they are, and the notebooks' own tests (`nbdev_test`) still run them.

Two things are then done to the rendered pages so that the site reads with no network:

- **Maths becomes MathML at build time.** The renderers leave TeX between `\\(...\\)` / `\\[...\\]` for KaTeX to
  typeset in the browser from a CDN; offline a reader saw raw TeX. `latex2mathml` (pure Python, from PyPI like every
  other dependency) converts each formula to a `<math>` element, which Chromium (109+), Firefox and Safari render
  natively, with no script. Measured on this site (11 pages): 773 formulas converted in 2 s, none left as TeX; the
  MathML makes the pages 11 % heavier (1.59 → 1.76 MB; the privacy page 345 → 381 KB, 151 formulas). The
  alternative, vendoring KaTeX 0.16 from npm, would add Node and a 1.5 MB download to `make docs`, 296 KB of
  JavaScript + CSS to every page with maths and up to 1.2 MB of fonts to the site, and would still typeset after the
  page loads. KaTeX's glyphs are finer; MathML needs nothing and cannot fail to load. A table-of-contents entry
  shows its heading's rendered maths, not its TeX.
- **Checks fold away, figures say what they show.** A code cell that checks (`test_eq`, `test_fail`, `assert`, ...)
  is folded under a "Check" summary on the module pages (its output stays in view; the notebooks are unchanged), and
  every figure gets alt text: its cell's `fig-alt`, else its `fig-cap`, else the first sentence of the prose above it.
- **Docstrings read as maths.** A docstring is plain text so that `help()` reads well (`p^f`, `u_i`, `e^{-t}`); on the
  site its powers and indices are set as superscripts and subscripts.
- **Links stay inside the site.** nbdev writes symbol links to `doc_host` (`…/privacy.html#audit`), source links and
  a "Report an issue" action to `git_url`; neither site exists. Symbol links are pointed at the local page
  (`05_privacy.html#audit`; a method without an entry of its own links to its class, a private helper's name
  is left as plain code), source links are removed, and `_quarto.yml` asks for no repository actions.
"""
import ast
import json
from html import unescape
from pathlib import Path
import re
import shutil
import subprocess
import sys
import time

from latex2mathml.converter import convert as tex_to_mathml
import nbdev.processors as processors
from nbdev.config import get_config
from nbdev.doclinks import _build_modidx
from nbdev.quarto import nbdev_sidebar, refresh_quarto_yml
from nbdev.serve import proc_nbs


_nbdev_runs_for_docs = processors._do_eval


def runs_for_docs(cell) -> bool:
    "nbdev's choice of the cells it runs to build the docs, less the test cells that mix imports with other code."
    code = cell.cell_type == "code" and cell.source and processors.cell_lang(cell) == "python"
    if code and not cell.directives_.keys() & {"export", "exports", "exporti", "exec_doc"}:
        trees = cell.parsed_()
        if trees and processors._ast_contains(trees, (ast.Import, ast.ImportFrom)) \
                 and processors._ast_contains(trees, (ast.Expr, ast.Assign)):
            return False   # nbdev would run it alone, without the cells it depends on, and fail the build
    return _nbdev_runs_for_docs(cell)


def process_notebooks() -> Path:
    "Refresh the Quarto config, the symbol index and the sidebar; process every notebook into `_proc/` (in-process)."
    refresh_quarto_yml()
    _build_modidx()
    nbdev_sidebar(force=True)
    processors._do_eval = runs_for_docs
    try: return proc_nbs(n_workers=0, force=True)
    finally: processors._do_eval = _nbdev_runs_for_docs


CHECK = re.compile(r"^\s*(?:test_\w+\(|assert\b)|\b(?:test_eq|test_fail|test_close|test_ne|test_is)\(", flags=re.M)
DIRECTIVE = re.compile(r"^#\|\s*([\w-]+)\s*:\s*(.*)$", flags=re.M)


def is_check(cell) -> bool:
    "A code cell shown on the page that checks something (a `test_*` call or an `assert`), not documentation."
    src = "".join(cell.get("source", ""))
    opts = dict(DIRECTIVE.findall(src))
    return (cell.get("cell_type") == "code" and bool(CHECK.search(src)) and opts.get("echo", "").strip() != "false"
            and "show_doc(" not in src)


ABBREVIATIONS = ("Fig", "Figs", "eq", "Eq", "Alg", "al", "e.g", "i.e", "vs", "cf", "Thm", "Sec", "resp")


def first_sentence(markdown: str, limit: int = 200) -> str:
    "The first sentence of Markdown prose that reads as words (four or more, no TeX), as plain text."
    text = "\n".join(line for line in markdown.splitlines() if not line.lstrip().startswith("#"))
    text = " ".join(re.sub(r"[`*>]", "", re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", text)).split())
    start, sentences = 0, []
    for m in re.finditer(r"[.:!?](?=\s|$)", text):
        if not text[:m.start()].endswith(ABBREVIATIONS): sentences.append(text[start:m.start() + 1].strip()); start = m.end()
    sentences.append(text[start:].strip())
    words = [s for s in sentences if len(s.split()) >= 4 and not re.search(r"[$\\]", s)]
    return (words[0] if words else "a figure")[:limit].rstrip(":")


def figure_alt(cell, prose: str) -> str:
    "Alt text for a figure cell: its `fig-alt`, else its `fig-cap`, else the first sentence of the prose above it."
    opts = dict(DIRECTIVE.findall("".join(cell.get("source", ""))))
    text = opts.get("fig-alt") or opts.get("fig-cap") or f"Figure: {first_sentence(prose)}"
    return text.strip().strip("\"'")


def has_figure(cell) -> bool:
    "Whether a code cell's saved outputs hold a picture."
    return any({"image/png", "image/svg+xml", "image/jpeg"} & set(o.get("data") or {}) for o in cell.get("outputs", []))


def fold_checks_and_describe_figures(proc: Path) -> tuple[int, int]:
    "In every processed notebook but the landing page: fold the check cells; give every figure cell a `fig-alt`."
    folded = described = 0
    for path in sorted(proc.glob("*.ipynb")):
        nb, prose = json.loads(path.read_text()), ""
        for cell in nb["cells"]:
            src = "".join(cell.get("source", ""))
            if cell["cell_type"] == "markdown": prose = src; continue
            head = []
            if path.name != "index.ipynb" and is_check(cell):
                head += ["#| code-fold: true", '#| code-summary: "Check"']; folded += 1
            if has_figure(cell) and "fig-alt" not in src:
                head.append(f"#| fig-alt: {json.dumps(figure_alt(cell, prose), ensure_ascii=False)}"); described += 1
            if head: cell["source"] = "\n".join(head) + "\n" + src
        path.write_text(json.dumps(nb, ensure_ascii=False))
    return folded, described


def render(proc: Path, out: Path) -> None:
    "Render the processed notebooks with Quarto where it is on PATH, else with smalldocs; the site goes to `out`."
    if shutil.which("quarto"):
        subprocess.run(["quarto", "render", str(proc), "--output-dir", str(out.resolve())], check=True)
        return
    smalldocs = Path(sys.executable).with_name("smalldocs")
    subprocess.run([str(smalldocs), "render", "--quiet", str(proc)], check=True)
    site = proc / "_docs"
    if not site.exists(): site = proc / "_site"
    shutil.rmtree(out, ignore_errors=True)
    shutil.move(str(site), str(out))


MATH = re.compile(r'<span class="math (inline|display)">\s*\\[(\[](.*?)\\[)\]]\s*</span>', flags=re.S)
MATH_SCRIPTS = re.compile(r'<(?:link|script)\b[^>]*(?:katex|mathjax)[^>]*>(?:\s*</script>)?', flags=re.I)


def tex_as_mathml(page: str) -> tuple[str, int]:
    "Replace each TeX formula the renderer left for KaTeX by MathML, drop the KaTeX/MathJax tags; also the count."
    def one(m: re.Match) -> str:
        kind, tex = m.group(1), unescape(m.group(2)).strip()
        mathml = tex_to_mathml(tex, display="block" if kind == "display" else "inline")
        return f'<span class="math {kind}">{mathml}</span>'
    page, n = MATH.subn(one, page)
    return MATH_SCRIPTS.sub("", page), n


def toc_as_headings(page: str) -> str:
    "A table-of-contents entry of a heading with maths shows the heading as rendered, not its TeX source."
    headings = dict(re.findall(r'<h[1-6] [^>]*data-anchor-id="([^"]+)"[^>]*>(.*?)</h[1-6]>', page, flags=re.S))
    def entry(m: re.Match) -> str:
        heading = headings.get(m.group(2), "")
        return m.group(1) + (heading if "<math" in heading else m.group(3)) + "</a>"
    return re.sub(r'(<a href="#([^"]+)" id="toc-[^"]*"[^>]*>)(.*?)</a>', entry, page, flags=re.S)


def page_names(out: Path) -> dict[str, tuple[str, set]]:
    "nbdev's name for each page (`privacy.html`, the notebook's name without its number) → the file in `out`, its ids."
    return {re.sub(r"^\d+[a-z]*_", "", p.name): (p.name, set(re.findall(r'\sid="([^"]+)"', p.read_text())))
            for p in out.glob("*.html")}


def localize_links(page: str, pages: dict[str, tuple[str, set]], doc_url: str, git_url: str) -> str:
    "Point links to `doc_url` at the local page, else unwrap them; remove the source links, which go to `git_url`."
    def local(m: re.Match) -> str:
        name, anchor, text = m.group(1), m.group(2) or "", m.group(3)
        if name not in pages: raise ValueError(f"a link points to {doc_url}/{name}, but the site has no such page")
        file, ids = pages[name]
        for a in (anchor, anchor.split(".")[0]):   # a method without its own entry links to its class
            if not a or a in ids: return f'<a href="{file}{"#" + a if a else ""}">{text}</a>'
        return text                                  # a private helper or an undocumented symbol: no entry to show
    page = re.sub(rf'<a href="{re.escape(doc_url)}/([\w.-]+\.html)(?:#([^"]*))?"[^>]*>(.*?)</a>', local, page, flags=re.S)
    return re.sub(rf'<p><a href="{re.escape(git_url)}/blob/[^"]*"[^>]*>source</a></p>\s*', "", page)


LETTER = "A-Za-zα-ωΑ-Ωℓ"
POWER = re.compile(rf"(?<=[\w)\]])\^(\{{[^{{}}]*\}}|[−-]?[{LETTER}0-9]+)")
INDEX = re.compile(rf"(?<![A-Za-z0-9_.])([{LETTER}])_(\{{[^{{}}]*\}}|[{LETTER}0-9]{{1,2}})(?![A-Za-z0-9_])")
SHOW_DOC = re.compile(r'(<div class="cell-output cell-output-display cell-output-markdown">\s*<hr />)(.*?)(?=</div>\s*</div>)',
                      flags=re.S)


def powers_and_indices(text: str) -> str:
    "Plain-text maths as HTML: `p^f` → p<sup>f</sup>, `e^{-t}` → e<sup>-t</sup>, `u_i` → u<sub>i</sub> (HTML text in)."
    inner = lambda g: powers_and_indices(g[1:-1]) if g.startswith("{") else g
    text = POWER.sub(lambda m: f"<sup>{inner(m.group(1))}</sup>", text)
    return INDEX.sub(lambda m: f"{m.group(1)}<sub>{inner(m.group(2))}</sub>", text)


def docstring_maths(page: str) -> str:
    "In each documented symbol's docstring and parameter table: powers and indices set as maths, code left alone."
    def prose(html_text: str) -> str:
        parts, depth = re.split(r"(<[^>]+>)", html_text), 0
        for i, part in enumerate(parts):
            if part.startswith("<"):
                tag = re.match(r"</?(\w+)", part)
                if tag and tag.group(1) in ("code", "pre", "math"): depth += -1 if part.startswith("</") else 1
            elif not depth: parts[i] = powers_and_indices(part)
        return "".join(parts)
    def block(m: re.Match) -> str:
        body = re.sub(r"(<p><em>)(.*?)(</em></p>)", lambda d: d.group(1) + prose(d.group(2)) + d.group(3), m.group(2),
                      flags=re.S)
        body = re.sub(r"(<td[^>]*>)(.*?)(</td>)", lambda d: d.group(1) + prose(d.group(2)) + d.group(3), body, flags=re.S)
        return m.group(1) + body
    return SHOW_DOC.sub(block, page)


def finish_site(out: Path) -> dict[str, int]:
    "Maths as MathML and links kept local in every page of `out`; the number of formulas per page."
    cfg = get_config()
    doc_url = (cfg.doc_host.rstrip("/") + "/" + cfg.doc_baseurl.strip("/")).rstrip("/")
    pages, counts = page_names(out), {}
    for p in sorted(out.glob("*.html")):
        page, counts[p.name] = tex_as_mathml(p.read_text())
        page = docstring_maths(toc_as_headings(page))
        p.write_text(localize_links(page, pages, doc_url, cfg.git_url.rstrip("/")))
    return counts


def main() -> None:
    root = get_config().config_path
    out = root / "_docs"
    start = time.perf_counter()
    proc = process_notebooks()
    folded, described = fold_checks_and_describe_figures(proc)
    render(proc, out)
    counts = finish_site(out)
    print(f"site written to {out} in {time.perf_counter() - start:.0f} s; {folded} check cells folded, "
          f"{described} figures given alt text; formulas rendered as MathML per page: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
