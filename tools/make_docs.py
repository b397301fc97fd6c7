"""Build the documentation site offline: nbdev's processors write `_proc/`, then Quarto (if installed) or smalldocs renders it.

`nbdev_docs` needs Quarto, which cannot be downloaded here. The steps below are the ones it runs, called as Python
functions; the site lands in `_docs/` (index.html is the landing page, one page per notebook, named as the notebook).

nbdev runs, to build the docs, every exported cell, every `show_doc` and every cell with an import — including a test
cell that imports something and then uses variables of earlier test cells, which nbdev runs alone and which then
fails the build (nbdev's FAQ says: keep imports in cells of their own). Such cells are not run for the docs here: their
saved outputs are shown as they are, and the notebooks' own tests (`nbdev_test`) still run them. The landing page and
the guides are the exception: every code cell of theirs is run when the site is built, so each shows its output
(`tools/site_build.py` says why and how, and writes the CLI reference and the search index's ranks).

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
- **An API reference generated from the code.** `api.html` lists every public name by module; `api_<module>.html`
  gives each its signature (`class`/`def`, parameters one a line with their docments comment, annotations as
  written), its docstring as plain text (never parsed as Markdown, so `p*` and `x^2` survive), its parameters, a
  class's attributes (the `@documented` metadata `help()` shows), its methods each with an entry of its own, an
  example (a notebook cell whose first line is `# Example: Name`, else the shortest cell that calls it) and the
  papers it names, linked to the references; a Returns section where the source comments the return annotation
  (docments: `) -> T:  # what it returns`); an index of the page's entries at its top; an example is never a check
  (`test_fail(...)`); each method links to the chapter that writes it, and an inherited method is written once, in
  its base class's entry, which the subclasses' method lists link to. nbdev's `show_doc` blocks on the chapter pages are drawn the same way
  and link to the entry. Nothing is listed by hand, so a new class on a new chapter appears with its entry.
- **A user guide and a grouped sidebar.** `guide_*.ipynb` (getting started, which mechanism, which aggregator, more
  examples, glossary, references, changelog) come first; the sidebar groups the pages (Guide · Core library · Inference
  · Papers · Command line · API reference, a chapter's group read from its `default_exp`: `inference.*` chapters and the 03
  chapters without a module (the channel, the interface) under Inference, `cli` and `cli_*` under Command line), with previous/next links.
- **Offline from `file://`.** The search index is also written as `search.js` (a browser refuses `fetch` from
  `file://`), the theme's web-font `@import` is removed, and `fit.js` sets a display formula that is wider than the
  column in a smaller font; a wide table, or a printed one (a DataFrame's `print`), scrolls sideways in its own box
  with its rows whole. Each line of code is a span that hangs under its
  own indentation when it wraps. A `|` inside code or maths in a Markdown table is escaped; printed Markdown (pipe
  tables, the report) is shown as Markdown; TeX names latex2mathml copies through (`\\{` after `\\Big`, `\\arg`)
  become their symbols.
- **Links stay inside the site.** nbdev writes symbol links to `doc_host` (`…/privacy.html#audit`), source links and
  a "Report an issue" action to `git_url`; neither site exists. Symbol links are pointed at the local page
  (`05_privacy.html#audit`; a method without an entry of its own links to its class, a private helper's name
  is left as plain code), source links are removed, and `_quarto.yml` asks for no repository actions.
"""
import ast
import dataclasses
import functools
import html
import importlib
import inspect
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
import nbdev.showdoc

from ldp_truth.data import param_comments

sys.path.insert(0, str(Path(__file__).parent))
from site_build import execute_pages, cli_reference, replace_cli_table, search_index, patch_search  # noqa: E402


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


def doc_url() -> str:
    "The address nbdev gives the site (`doc_host` + `doc_baseurl`); its links are made local by `localize_links`."
    cfg = get_config()
    return (cfg.doc_host.rstrip("/") + "/" + cfg.doc_baseurl.strip("/")).rstrip("/")


def api_file(module: str) -> str:
    "The API page of a module, without suffix: `api_inference_core` (a package's chapters keep their package's name)."
    short = module.split(".", 1)[1]
    return "api_" + short.removeprefix("papers.").replace(".", "_")


def api_anchor(name: str) -> str:
    "The address of `name`'s entry in the API reference (`…/api_mechanisms.html#RandomizedResponse`), or ''."
    lib = get_config().lib_name   # by name: in the notebook's shell a class's `__module__` is not the library's
    for module in importlib.import_module(f"{lib}._modidx").d["syms"]:
        if name.split(".")[0] in getattr(importlib.import_module(module), "__all__", []):
            return f"{doc_url()}/{api_file(module)}.html#{name}"
    return ""


@functools.lru_cache(maxsize=1)
def guide_examples() -> dict[str, tuple[str, str]]:
    "The `# Example: Name` cells of the notebooks, read once."
    cfg = get_config()
    return examples(code_cells(cfg.config_path / cfg.nbs_path.name))


def show_doc_markdown(self) -> str:
    "nbdev's `show_doc` block as the API reference draws it: signature, docstring as text, its example, a link."
    sym, name = self.sym, self.nm
    link = api_anchor(name)
    more = f'\n\n<p class="api-more"><a href="{link}">Full entry in the API reference</a></p>' if link else ""
    if example := guide_examples().get(name):
        code, nb = example
        more = (f'\n\n<p class="api-heading">Example <span class="api-from">(from <a href="{nb}.html">{nb}</a>)'
                f'</span></p>\n\n```python\n{code}\n```{more}')
    return (f"---\n\n{'#' * self.title_level} {name}\n\n```python\n{signature(sym, name)}\n```\n\n"
            f'<div class="api-doc">{doc_html(summary(sym))}</div>{more}')


def process_notebooks() -> Path:
    "Refresh the Quarto config and the symbol index; process every notebook into `_proc/` (in-process)."
    refresh_quarto_yml()
    _build_modidx()
    nbdev_sidebar(force=True)
    processors._do_eval = runs_for_docs
    plain = nbdev.showdoc.BasicMarkdownRenderer._repr_markdown_
    nbdev.showdoc.BasicMarkdownRenderer._repr_markdown_ = show_doc_markdown
    try: return proc_nbs(n_workers=0, force=True)
    finally: processors._do_eval, nbdev.showdoc.BasicMarkdownRenderer._repr_markdown_ = _nbdev_runs_for_docs, plain


GUIDE = ("index", "guide_start", "guide_mechanism", "guide_aggregator", "guide_examples", "guide_glossary",
         "guide_references", "guide_changelog")


def default_exp(nb: Path) -> str:
    "The module a notebook exports to (its `#| default_exp`), or ''."
    cells = json.loads(nb.read_text())["cells"]
    return next((m.group(1) for c in cells if (m := re.search(r"^#\|\s*default_exp\s+(\S+)", "".join(c["source"]), re.M))), "")


def sidebar(proc: Path, nbs: Path, api: list[str]) -> str:
    "The sidebar in groups — Guide, Core library, Inference, Papers, Command line, API reference — as Quarto's YAML."
    groups = {"Guide": [], "Core library": [], "Inference": [], "Papers": [], "Command line": [], "API reference": api}
    for nb in sorted(proc.glob("*.ipynb")):
        module = default_exp(nbs / nb.name) if (nbs / nb.name).exists() else ""
        group = ("Guide" if nb.stem in GUIDE or nb.stem.startswith("guide_") else "Papers" if module.startswith("papers.")
                 else "Inference" if module.startswith("inference.") or (not module and nb.stem.startswith("03"))
                 else "Command line" if module == "cli" or module.startswith("cli_") else "Core library")
        groups[group].append(nb.name)
    rank = lambda f: (GUIDE.index(Path(f).stem) if Path(f).stem in GUIDE else len(GUIDE), f)
    groups["Guide"].sort(key=rank)
    groups["Command line"].append("cli_reference.md")
    lines = ["website:", "  page-navigation: true", "  sidebar:", "    contents:"]
    for title, files in groups.items():
        lines += [f"      - section: \"{title}\"", "        contents:"] + [f"          - {f}" for f in files]
    return "\n".join(lines) + "\n"


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
    return (words[0] if words else "")[:limit].rstrip(":")


def figure_alt(cell, prose: str) -> str:
    "Alt text for a figure cell: its `fig-alt`, else its `fig-cap`, else the first sentence of the prose above it."
    opts = dict(DIRECTIVE.findall("".join(cell.get("source", ""))))
    headings = re.findall(r"^#+\s*(.+)$", prose, flags=re.M)
    said = first_sentence(prose) or (headings[-1] if headings else "the figure of this section")
    text = opts.get("fig-alt") or opts.get("fig-cap") or f"Figure: {said}"
    return text.strip().strip("\"'")


def has_figure(cell) -> bool:
    "Whether a code cell's saved outputs hold a picture."
    return any({"image/png", "image/svg+xml", "image/jpeg"} & set(o.get("data") or {}) for o in cell.get("outputs", []))


TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$", flags=re.M)
SPAN = re.compile(r"(`+)(.+?)\1|\$[^$\n]+\$")


def escape_table_pipes(markdown: str) -> str:
    "In the rows of a Markdown table, a `|` inside code or maths is escaped, so that it does not end the cell."
    def row(m: re.Match) -> str:
        return SPAN.sub(lambda s: re.sub(r"(?<!\\)\|", r"\\|", s.group(0)), m.group(0))
    return TABLE_ROW.sub(row, markdown)


def printed_markdown(text: str) -> bool:
    "Whether printed output is Markdown meant to be read as such: a pipe table, a `# ` document, a bold list."
    lines = [l for l in text.splitlines() if l.strip()]
    return bool(lines) and (any(re.fullmatch(r"\|[-:| ]+\|\s*", l) for l in lines) or lines[0].startswith("# ")
                            or all(l.startswith("- **") or l.startswith("  ") for l in lines))


def as_markdown(out: dict) -> dict:
    "A printed Markdown output as a displayed one; a `|` inside a table cell (`DS|channel`) escaped, pictures named."
    lines = "".join(out["text"]).split("\n")
    text = "\n".join(l if re.fullmatch(r"\|[-:| ]+\|\s*", l) else re.sub(r"(?<=\S)\|(?=\S)", r"\\|", l) for l in lines)
    text = re.sub(r"!\[([^\]]*)\]\(([^)\s]+)\)", r"*(figure `\2`, written beside the report)*", text)  # not in the site
    return {"output_type": "display_data", "metadata": {}, "data": {"text/markdown": text}}


def fold_checks_and_describe_figures(proc: Path) -> tuple[int, int]:
    "In every processed notebook but the landing page: fold the check cells; give every figure cell a `fig-alt`."
    folded = described = 0
    for path in sorted(proc.glob("*.ipynb")):
        nb, prose = json.loads(path.read_text()), ""
        for cell in nb["cells"]:
            src = "".join(cell.get("source", ""))
            if cell["cell_type"] == "markdown":   # the README's links to nbs/x.ipynb are the site's x.html
                cell["source"] = escape_table_pipes(re.sub(r"\]\(nbs/", "](", src))
                prose = src if first_sentence(src) or not prose else prose + "\n" + src
                continue
            cell["outputs"] = [as_markdown(o) if o.get("output_type") == "stream" and o.get("name") == "stdout"
                               and printed_markdown("".join(o["text"])) else o for o in cell.get("outputs", [])]
            for out in cell.get("outputs", []):
                if "text/markdown" in (out.get("data") or {}):
                    out["data"]["text/markdown"] = escape_table_pipes("".join(out["data"]["text/markdown"]))
            head = []
            if path.name != "index.ipynb" and is_check(cell) and not has_figure(cell):   # a figure's code stays in view
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
    return MATH_SCRIPTS.sub("", plain_operators(page)), n


TEX_LEFT = {r"\{": "{", r"\}": "}", r"\|": "‖", r"\lbrace": "{", r"\rbrace": "}", r"\langle": "⟨",
            r"\rangle": "⟩", r"\lvert": "|", r"\rvert": "|", r"\arg": "arg", r"\argmax": "arg max",
            r"\argmin": "arg min"}


def plain_operators(page: str) -> str:
    "The TeX names latex2mathml copies into MathML as they are (`\\{` after `\\Big`, `\\arg`) become their symbols."
    return re.sub(r"(<m[io][^>]*>)(\\[A-Za-z]+|\\[{}|])(</m[io]>)",
                  lambda m: m.group(1) + TEX_LEFT.get(m.group(2), m.group(2)) + m.group(3), page)


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


TOC_NAV = re.compile(r'(<nav id="TOC"[^>]*>)(.*?)(</nav>)', flags=re.S)


def toc_breaks(page: str) -> str:
    "In the right-hand contents, a long name may break after each `.` and `_` (`Aggregator.<wbr>accuracy_<wbr>…`)."
    def text(m: re.Match) -> str:
        parts = re.split(r"(<[^>]+>)", m.group(2))
        return m.group(1) + "".join(p if p.startswith("<") else re.sub(r"(?<=\w)([._])(?=\w)", r"\1<wbr>", p)
                                    for p in parts) + m.group(3)
    return TOC_NAV.sub(text, page, count=1)


PRINTED = re.compile(r'<div class="cell-output cell-output-stdout">(\s*<pre\b.*?</pre>)', flags=re.S)


def printed_table(text: str) -> bool:
    "Whether printed text is a table (a DataFrame's `print`): three or more lines in columns two spaces apart."
    lines = [l for l in text.splitlines() if l.strip()]
    return len(lines) >= 3 and sum(len(re.findall(r"\S {2,}\S", l)) >= 1 for l in lines) >= 0.6 * len(lines)


def mark_printed_tables(page: str) -> str:
    "A printed table's output box marked `printed-table`: it keeps its lines whole and scrolls (styles.css)."
    def one(m: re.Match) -> str:
        text = unescape(re.sub(r"<[^>]+>", "", m.group(1)))
        cls = "cell-output cell-output-stdout" + (" printed-table" if printed_table(text) else "")
        return f'<div class="{cls}">{m.group(1)}'
    return PRINTED.sub(one, page)


NESTED_LINK = re.compile(r'\[<a href="[^"]*"[^>]*>(.*?)</a>\]\(([^)\s]+)\)', flags=re.S)


def unnest_links(page: str) -> str:
    "A Markdown link around a name nbdev had already linked (`[`Answers`](00_data.ipynb)`) as one link, not text."
    def one(m: re.Match) -> str:
        href = re.sub(r"^nbs/", "", m.group(2))
        href = re.sub(r"\.(ipynb|md)(?=$|#)", ".html", href)
        return f'<a href="{href}">{m.group(1)}</a>'
    return NESTED_LINK.sub(one, page)


LETTER = "A-Za-zα-ωΑ-Ωℓ"
POWER = re.compile(rf"(?<=[\w)\]])\^(\{{[^{{}}]*\}}|\([^()]*\)|[−-]?[{LETTER}0-9]+(?:_\w+)*)")   # e^log_beta_mean: a name whole
INDEX = re.compile(rf"(?<![A-Za-z0-9_.])([{LETTER}])_(\{{[^{{}}]*\}}|[{LETTER}0-9]{{1,2}})(?![A-Za-z0-9_])")
def powers_and_indices(text: str) -> str:
    "Plain-text maths as HTML: `p^f` → p<sup>f</sup>, `e^{-t}` → e<sup>-t</sup>, `u_i` → u<sub>i</sub> (HTML text in)."
    inner = lambda g: powers_and_indices(g[1:-1]) if g.startswith(("{", "(")) else g
    text = POWER.sub(lambda m: f"<sup>{inner(m.group(1))}</sup>", text)
    return INDEX.sub(lambda m: f"{m.group(1)}<sub>{inner(m.group(2))}</sub>", text)


API_DOC = re.compile(r'(<div class="api-doc"[^>]*>|<dd>)(.*?)(?=</div>|</dd>)', flags=re.S)


def docstring_maths(page: str) -> str:
    "In each docstring and parameter/attribute description: powers and indices set as maths, code left alone."
    def prose(html_text: str) -> str:
        parts, depth = re.split(r"(<[^>]+>)", html_text), 0
        for i, part in enumerate(parts):
            if part.startswith("<"):
                tag = re.match(r"</?(\w+)", part)
                if tag and tag.group(1) in ("code", "pre", "math"): depth += -1 if part.startswith("</") else 1
            elif not depth: parts[i] = powers_and_indices(part)
        return "".join(parts)
    return API_DOC.sub(lambda m: m.group(1) + prose(m.group(2)), page)


CODE_BLOCK = re.compile(r'(<pre class="[^"]*"><code[^>]*>)(.*?)(</code></pre>)', flags=re.S)


def hanging_lines(page: str) -> str:
    "Each line of a code block in its own span, indented by its own indentation, so that a wrapped line hangs."
    def block(m: re.Match) -> str:
        lines = m.group(2).split("\n")
        if any(l.count("<span") != l.count("</span>") for l in lines): return m.group(0)   # a token across lines
        def one(line: str) -> str:
            indent = len(re.match(r" *", re.sub(r"<[^>]+>", "", line)).group(0))
            return f'<span class="ln" style="--indent:{indent}ch">{line}\n</span>'
        return m.group(1) + "".join(one(l) for l in lines[:-1]) + one(lines[-1])[:-8] + "</span>" + m.group(3)
    return CODE_BLOCK.sub(block, page)


SEARCH_FETCH = 'const r = await fetch(offset + "search.json");\n      index = await r.json();'


def offline_assets(out: Path) -> None:
    "Search from `file://` (the index as a script, not fetched) and no web font: nothing the site needs is remote."
    shutil.copy(Path(__file__).with_name("fit.js"), out / "fit.js")
    entries = search_index(json.loads((out / "search.json").read_text()))
    (out / "search.json").write_text(json.dumps(entries, ensure_ascii=False))
    (out / "search.js").write_text("window.SEARCH_INDEX = " + (out / "search.json").read_text() + ";\n")
    js = out / "site_libs" / "smalldocs.js"
    text = js.read_text()
    if SEARCH_FETCH not in text: raise RuntimeError("smalldocs.js: the search index fetch changed; update SEARCH_FETCH")
    js.write_text(patch_search(text.replace(SEARCH_FETCH, "index = window.SEARCH_INDEX || await (await fetch("
                                                          'offset + "search.json")).json();')))
    for css in (out / "site_libs").rglob("*.css"):
        css.write_text(re.sub(r"@import\s+url\([^)]*https?:[^)]*\)[^;]*;", "", css.read_text()))


def finish_site(out: Path) -> dict[str, int]:
    "Maths as MathML, links kept local, code lines that hang, search offline, the version shown; formulas per page."
    cfg = get_config()
    pages, counts = page_names(out), {}
    offline_assets(out)
    version = f'<span class="navbar-version">{html.escape(cfg.version)}</span>'
    for p in sorted(out.glob("*.html")):
        page, counts[p.name] = tex_as_mathml(p.read_text())
        page = mark_printed_tables(hanging_lines(docstring_maths(toc_breaks(toc_as_headings(page)))))
        page = page.replace('<script src="site_libs/smalldocs.js"', '<script src="search.js"></script>'
                            '<script src="fit.js" defer></script><script src="site_libs/smalldocs.js"', 1)
        page = re.sub(r'(<span class="navbar-title">[^<]*</span>)', r"\1" + version, page, count=1)
        p.write_text(unnest_links(localize_links(page, pages, doc_url(), cfg.git_url.rstrip("/"))))
    return counts


# ---- the API reference: one page per module, generated from the docstrings, docments and `@documented` metadata

PAPERS = {   # where a docstring or a module names a paper, the entry links to its reference (guide_references)
    "wang-xu": (r"Wang\s*(?:&|and)\s*Xu|papers\.wang_xu|LADP", "Wang & Xu (2021)"),
    "sun": (r"\bSun\b|papers\.sun_et_al", "Sun et al. (2018)"),
    "li-kdd18": (r"KDD\W?18|papers\.li_kdd18|[Tt]wo-layer", "Li et al., KDD (2018)"),
    "li-sensing": (r"crowd sensing|papers\.li_sensing|exponential variance", "Li et al., crowd sensing (2020)"),
    "dawid-skene": (r"Dawid", "Dawid & Skene (1979)"),
    "warner": (r"Warner", "Warner (1965)"),
    "crh": (r"\bCRH\b", "Li et al., CRH (2014)"),
    "gtm": (r"\bGTM\b", "Zhao & Han, GTM (2012)"),
    "glad": (r"Whitehill|\bGLAD\b", "Whitehill et al., GLAD (2009)"),
    "mace": (r"Hovy|\bMACE\b", "Hovy et al., MACE (2013)"),
    "kos": (r"Karger|\bKOS\b", "Karger, Oh & Shah (2011)"),
    "mmsr": (r"Olshevsky|M-MSR|\bMMSR\b", "Ma & Olshevsky (2020)"),
}
EXAMPLE = re.compile(r"^#\s*Example:\s*(.+)$", flags=re.M)


def public_modules(nbs: Path, lib: str = "ldp_truth") -> list[str]:
    "The library's modules with a public name (`__all__`), in the order of the notebooks that export them."
    first = {}
    for nb in sorted(nbs.glob("*.ipynb")): first.setdefault(default_exp(nb), nb.name)
    index = importlib.import_module(f"{lib}._modidx").d["syms"]
    return sorted((m for m in index if getattr(importlib.import_module(m), "__all__", None)),
                  key=lambda m: (first.get(m.split(".", 1)[1], "~"), m))


def annotation(a) -> str:
    "A type annotation as a reader writes it: `float`, `None`, `np.ndarray | None` (no `NoneType`, no quotes)."
    if a is inspect.Parameter.empty: return ""
    if a is None or a is type(None): return "None"
    if isinstance(a, str): return a
    if isinstance(a, type) and not getattr(a, "__args__", None): return a.__qualname__
    return inspect.formatannotation(a).replace("NoneType", "None")


def parameter_text(p: inspect.Parameter) -> str:
    "One parameter as in Python source: `*args`, `null: bool = False`."
    star = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "")
    text = star + p.name + (f": {annotation(p.annotation)}" if p.annotation is not p.empty else "")
    if p.default is not p.empty: text += (" = " if p.annotation is not p.empty else "=") + repr(p.default)
    return text


def callable_of(obj):
    "The function whose parameters a reader passes: a class's own `__init__`, a property's getter, else `obj`."
    if isinstance(obj, property): return obj.fget
    if inspect.isclass(obj): return obj.__init__ if "__init__" in vars(obj) or obj.__init__ is not object.__init__ else None
    return obj


FIELD = re.compile(r"^\s+(\w+)\s*:[^#\n]*#\s*(.+?)\s*$", flags=re.M)


def descriptions(obj, f) -> dict[str, str]:
    "Each parameter of `f` (the callable of `obj`) → its docments comment; a dataclass's from its fields' comments."
    try: found = param_comments(f) if f is not None else {}
    except (TypeError, OSError, SyntaxError): found = {}
    if inspect.isclass(obj) and dataclasses.is_dataclass(obj):
        try: fields = dict(FIELD.findall(inspect.getsource(obj)))
        except (OSError, TypeError): fields = {}
        found = {**fields, **{k: v for k, v in found.items() if v}}
    return found


def signature(obj, name: str) -> str:
    "The signature as Python source: `class Name(...)` or `def name(...) -> T`, one parameter a line with its comment."
    f = callable_of(obj)
    try: sig = inspect.signature(f) if f is not None else inspect.Signature([])
    except (TypeError, ValueError): sig = inspect.Signature([inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL)])
    params = list(sig.parameters.values())
    if params and params[0].name in ("self", "cls") and (inspect.isclass(obj) or "." in name): params = params[1:]
    comments = descriptions(obj, f)
    keyword = "class" if inspect.isclass(obj) else "property" if isinstance(obj, property) else "def"
    if keyword == "property": return f"property {name}" + (f": {annotation(sig.return_annotation)}"
                                                         if sig.return_annotation is not sig.empty else "")
    ret = "" if inspect.isclass(obj) or sig.return_annotation is sig.empty else f" -> {annotation(sig.return_annotation)}"
    if not params: return f"{keyword} {name}(){ret}"
    lines = [f"    {parameter_text(p)}," + (f"  # {comments[p.name]}" if comments.get(p.name) else "") for p in params]
    return f"{keyword} {name}(\n" + "\n".join(lines) + f"\n){ret}"


def doc_html(text: str) -> str:
    "A plain-text docstring as HTML: escaped, `code` spans as code, line breaks kept (CSS `pre-line`); one block."
    text = html.escape(inspect.cleandoc(text or "")).strip()
    text = re.sub(r"`([^`\n]+)`", r"<code>\1</code>", text)
    return re.sub(r"\n\s*\n", "\n", text)


def summary(obj) -> str:
    "The docstring a reader reads first: the class's (not its `__init__`'s parameter list), else the object's."
    doc = inspect.getdoc(obj.fget if isinstance(obj, property) else obj) or ""
    return re.split(r"\n\s*Parameters\s*\n\s*-{3,}", doc)[0].strip()


def paper_link(text: str) -> str:
    "Links to the references of the papers `text` names, as HTML (empty when it names none)."
    return ", ".join(f'<a href="guide_references.html#ref-{k}">{html.escape(cite)}</a>'
                     for k, (pattern, cite) in PAPERS.items() if re.search(pattern, text))


def code_cells(nbs: Path) -> list[tuple[str, str]]:
    "Every code cell a reader may see (not exported, not hidden) of every notebook: (notebook, source)."
    cells = []
    for nb_path in sorted(nbs.glob("*.ipynb")):
        for cell in json.loads(nb_path.read_text())["cells"]:
            src = "".join(cell.get("source", ""))
            if cell["cell_type"] == "code" and not re.search(r"^#\|\s*(export\w*|hide)\b", src, flags=re.M):
                cells.append((nb_path.stem, src))
    return cells


def examples(cells: list[tuple[str, str]]) -> dict[str, tuple[str, str]]:
    "The example cells, by each name their first line gives (`# Example: Answers, Dataset`), checks left out."
    found = {}
    for nb, src in cells:
        if (m := EXAMPLE.match(src)) and not CHECK.search(src):
            body = "\n".join(l for l in src.splitlines()[1:] if not l.startswith("#|")).strip()
            for name in re.split(r"[,\s]+", m.group(1).strip()): found.setdefault(name, (body, nb))
    return found


def example_for(name: str, cells: list[tuple[str, str]], found: dict, limit: int = 15) -> tuple[str, str] | None:
    "`name`'s example cell, else the shortest cell of the notebooks (≤ `limit` lines) that calls it: (code, notebook)."
    if name in found: return found[name]
    calls = [(len(src.splitlines()), nb, src) for nb, src in cells   # a check (`test_fail(...)`) is no example
             if re.search(rf"(?<![\w.]){re.escape(name)}[(.]", src) and len(src.splitlines()) <= limit
             and not CHECK.search(src)]
    if not calls: return None
    _, nb, src = min(calls)
    return "\n".join(l for l in src.splitlines() if not l.startswith("#|")).strip(), nb


def methods(cls) -> list[tuple[str, object]]:
    "The public methods and properties a reader calls on `cls`, its bases' in the library included."
    return [(n, m) for n, m, _ in owned_methods(cls)]


def owned_methods(cls) -> list[tuple[str, object, type]]:
    "The public methods and properties of `cls` (its library bases' included), each with the class defining it."
    lib = cls.__module__.split(".")[0]
    out = {}
    for klass in reversed(cls.__mro__):
        if not klass.__module__.startswith(lib): continue
        for n, v in vars(klass).items():
            if n.startswith("_") or not (inspect.isfunction(v) or isinstance(v, (property, classmethod, staticmethod))):
                continue
            out[n] = (v.__func__ if isinstance(v, (classmethod, staticmethod)) else v, klass)
    return sorted((n, m, k) for n, (m, k) in out.items())


def entry_home(klass: type) -> str:
    "The API page (`api_inference_core.html`) holding `klass`'s own entry, or '' when it has none (not public)."
    module = klass.__module__
    try: public = klass.__name__ in getattr(importlib.import_module(module), "__all__", [])
    except ImportError: return ""
    return f"{api_file(module)}.html" if public else ""


def chapter_of(f) -> str:
    "The chapter page (nbdev's name, `partial_fit.html`) where the function `f` is written, or ''."
    f = getattr(f, "fget", f)
    module, qual = getattr(f, "__module__", ""), getattr(f, "__qualname__", "")
    index = importlib.import_module(f"{get_config().lib_name}._modidx").d["syms"]
    page = index.get(module, {}).get(f"{module}.{qual}")
    if page is None:   # patched on by a notebook run in this process (`__module__` is then the shell's): by name
        page = next((v for syms in index.values() for k, v in syms.items() if k.endswith(f".{qual}")), None)
    return page[0].split("#")[0] if page else ""


def returns_comment(f) -> str:
    "The docments comment on the line of `f`'s return annotation (`) -> T:  # what it returns`), or ''."
    import tokenize
    from ldp_truth.data import _def_lines, _header_tokens
    try: toks = _header_tokens(_def_lines(getattr(f, "fget", f)))
    except (TypeError, OSError, SyntaxError, tokenize.TokenError): return ""
    arrow = next((t.start[0] for t in toks if t.type == tokenize.OP and t.string == "->"), None)
    return next((t.string.lstrip("#").strip() for t in toks
                 if t.type == tokenize.COMMENT and t.start[0] == arrow), "")


def table(title: str, rows: list[tuple[str, str]]) -> str:
    "A definition list as one HTML block (no blank line, so Markdown leaves it alone)."
    items = "".join(f"<dt><code>{html.escape(k)}</code></dt><dd>{doc_html(v) or '&nbsp;'}</dd>" for k, v in rows)
    return f'<div class="api-section"><p class="api-heading">{title}</p><dl class="api-list">{items}</dl></div>'


def entry(module: str, name: str, obj, page: str, site: str, cells: list, found: dict) -> list[str]:
    "The Markdown of one public name's entry: signature, summary, parameters, attributes, methods, example, paper."
    qual = f"{module}.{name}"
    out = [f"## `{name}` {{#{name}}}", "", f"```python\n{signature(obj, name)}\n```", "",
           f'<div class="api-doc" data-qualname="{qual}">{doc_html(summary(obj))}</div>', ""]
    f = callable_of(obj)
    comments = descriptions(obj, f)
    try: params = [p for p in inspect.signature(f).parameters.values() if p.name not in ("self", "cls")] if f else []
    except (TypeError, ValueError): params = []
    if params: out += [table("Parameters", [(parameter_text(p), comments.get(p.name, "")) for p in params]), ""]
    if not inspect.isclass(obj) and (ret := returns_comment(obj)): out += [returns_html(obj, ret), ""]
    if inspect.isclass(obj):
        if attrs := getattr(obj, "_attribute_docs", None): out += [table("Attributes", list(attrs.items())), ""]
        if ms := owned_methods(obj):
            out += [f'<div class="api-section"><p class="api-heading">Methods</p><ul class="api-methods">'
                    f'{"".join(method_item(obj, n, m, k) for n, m, k in ms)}</ul></div>', ""]
    example = example_for(name, cells, found) if inspect.isclass(obj) else found.get(name)
    if example:
        code, nb = example
        out += [f'<p class="api-heading">Example <span class="api-from">(from <a href="{nb}.html">{nb}</a>)</span></p>',
                "", f"```python\n{code}\n```", ""]
    source = f'<a href="{site}/{page}">where it is explained and checked</a>'
    papers = paper_link(summary(obj) + " " + module)
    out += [f'<p class="api-source">Paper: {papers}. ' if papers else '<p class="api-source">', f"See {source}.</p>", ""]
    if inspect.isclass(obj):
        for n, m, klass in owned_methods(obj):
            if inherited(obj, klass): continue   # its entry is its base class's: one copy, not one per subclass
            out += [f"### `{name}.{n}` {{#{name}.{n}}}", "", f"```python\n{signature(m, f'{name}.{n}')}\n```", "",
                    f'<div class="api-doc" data-qualname="{qual}.{n}">{doc_html(summary(m))}</div>', ""]
            if ret := returns_comment(m): out += [returns_html(m, ret), ""]
            if chapter := chapter_of(m):
                out += [f'<p class="api-source">See <a href="{site}/{chapter}">the chapter that explains it</a>.</p>', ""]
    return out


def inherited(cls: type, klass: type) -> bool:
    "Whether a method `cls` inherits from `klass` is documented in `klass`'s own entry instead."
    return klass is not cls and bool(entry_home(klass))


def method_item(cls: type, n: str, m, klass: type) -> str:
    "One line of a class's method list: the link to the method's entry (its base class's, if inherited)."
    target = f"{entry_home(klass)}#{klass.__name__}.{n}" if inherited(cls, klass) else f"#{cls.__name__}.{n}"
    base = f" (from <code>{klass.__name__}</code>)" if inherited(cls, klass) else ""
    return f'<li><a href="{target}"><code>{n}</code></a>{base} — {doc_html(summary(m).split(chr(10))[0])}</li>'


def returns_html(f, comment: str) -> str:
    "The Returns section of an entry: the return annotation and its docments comment."
    try: ann = annotation(inspect.signature(getattr(f, "fget", f)).return_annotation)
    except (TypeError, ValueError): ann = ""
    return table("Returns", [(ann or "value", comment)])


def page_index(mod, names: list[str]) -> str:
    "The index at the top of an API page: each name, and a class's own methods, linked to their entries."
    items = []
    for name in names:
        obj = getattr(mod, name)
        own = [n for n, _, k in owned_methods(obj) if not inherited(obj, k)] if inspect.isclass(obj) else []
        sub = " · ".join(f'<a href="#{name}.{n}"><code>{n}</code></a>' for n in own)
        items.append(f'<li><a href="#{name}"><code>{name}</code></a>' + (f": {sub}" if sub else "") + "</li>")
    return f'<nav class="api-index"><p class="api-heading">On this page</p><ul>{"".join(items)}</ul></nav>'


def api_pages(proc: Path, nbs: Path) -> list[str]:
    "Write `api_<module>.md` for every public module and `api.md`, the index of every public name; their file names."
    cfg = get_config()
    index = importlib.import_module(f"{cfg.lib_name}._modidx").d["syms"]
    cells = code_cells(nbs)
    found, files, rows = examples(cells), [], []
    for module in public_modules(nbs, cfg.lib_name):
        mod = importlib.import_module(module)
        short = module.split(".", 1)[1]
        file = f"{api_file(module)}.md"
        lines = ["---", f"title: \"{short}\"", f"description: \"API reference of `{module}`: "
                 f"{html.escape((mod.__doc__ or '').strip().splitlines()[0] if mod.__doc__ else '')}\"", "---", ""]
        names, top = [], len(lines)
        for name in mod.__all__:
            obj = getattr(mod, name, None)
            if obj is None or not (callable(obj) or isinstance(obj, property)) or getattr(obj, "__module__", module) != module:
                continue
            doc_page = index[module].get(f"{module}.{name}", (f"{short}.html",))[0]
            lines += entry(module, name, obj, doc_page, doc_url(), cells, found)
            names.append(name)
        lines[top:top] = [page_index(mod, names), ""]
        (proc / file).write_text("\n".join(lines))
        files.append(file)
        rows.append(f"| [`{short}`]({file}) | " + ", ".join(f"[`{n}`]({file}#{n})" for n in names) + " |")
    index_page = ["---", "title: \"API reference\"", "description: \"Every public class and function, by module: "
                  "signature, parameters, fitted attributes, methods and an example.\"", "---", "",
                  "Each name links to its entry: signature, parameters, attributes (for a class, what `fit` or the "
                  "constructor sets), methods, an example and the paper it implements. The same text is what "
                  "`help()` shows: the entries are generated from the docstrings.", "",
                  "| module | public names |", "|---|---|", *rows]
    (proc / "api.md").write_text("\n".join(index_page))
    return ["api.md", *files]


def main() -> None:
    root = get_config().config_path
    out = root / "_docs"
    start = time.perf_counter()
    proc = process_notebooks()
    ran = execute_pages(proc, root / get_config().nbs_path.name)
    from ldp_truth.cli import _parser
    (proc / "cli_reference.md").write_text(cli_reference(_parser()))
    if not replace_cli_table(proc): print("make_docs: the CLI chapter has no hand-written mechanism table any more")
    folded, described = fold_checks_and_describe_figures(proc)
    api = api_pages(proc, root / get_config().nbs_path.name)
    (proc / "sidebar.yml").write_text(sidebar(proc, root / get_config().nbs_path.name, api))
    render(proc, out)
    counts = finish_site(out)
    print(f"site written to {out} in {time.perf_counter() - start:.0f} s; {ran} guide cells run, "
          f"{folded} check cells folded, "
          f"{described} figures given alt text; formulas rendered as MathML per page: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
