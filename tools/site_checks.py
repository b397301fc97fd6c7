"""The site's checks of what a reader can trust (issue 51), each a function of a built site folder.

Run by `tools/test_site.py` on `_docs/`; `python tools/site_checks.py OLD_SITE` runs them on any other build (the
counts of the report: each check was first run on the site as it was, where it failed). A check returns the list
of what it found wrong; empty is a pass.

- `silent_cells`: a code cell of the landing page or a guide that prints or ends in an expression shows an output.
- `number_conflicts`: one quantity quoted on two pages with two values. "The same quantity", narrowly: a time
  `N s per EM iteration` with the `10ⁿ answers` named before it in the same paragraph; and any 3-decimal number
  in a sentence about the landing page's tour, which must be one the tour prints.
- `cli_gaps`: every sub-command and argument of `ldp_truth.cli._parser()` on the CLI reference page with its help,
  default and choices as `--help` gives them; every `--mechanism` choice in the CLI chapter's table.
- `decision_gaps`: every aggregator and mechanism of `ldp_truth.registry` (and its class) in the guides' tables.
- `api_entry_gaps`: each API entry links to its chapter, shows no check (`test_fail(...)`) as its example, has a
  Returns section where its source comments the return annotation, and each API page starts with an index.
- `nested_links`: a Markdown link shown as text around a link (`[Answers](00_data.ipynb)`).
- `empty_descriptions`: public parameters and attributes without a description, counted per module.
- `reading` (Chromium, Playwright): wide tables scroll inside their box and do not wrap their cells; search results
  reach WCAG AA contrast (4.5:1) on their computed colours; search lists pages before API entries and an
  inherited method once; `ε` finds what `epsilon` finds; link underlines sit below underscores; right-hand
  contents entries are not cut.
"""
import ast
import html
import importlib
import inspect
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
EXECUTED = ("index", "guide_start", "guide_mechanism", "guide_aggregator", "guide_examples")


def text_of(fragment: str, code: bool = False) -> str:
    "The text of an HTML fragment on one line (code blocks left out unless `code`)."
    if not code: fragment = re.sub(r"<pre\b.*?</pre>", " ", fragment, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def cells(page: str) -> list[tuple[str, bool]]:
    "Each code cell of a page: (its code, whether an output is shown with it)."
    found = []
    for chunk in re.split(r'(?=<div id="cell-)', page)[1:]:
        code = re.search(r'<pre class="[^"]*cell-code[^"]*"><code[^>]*>(.*?)</code></pre>', chunk, flags=re.S)
        if code:
            text = html.unescape(re.sub(r"<[^>]+>", "", code.group(1)))
            found.append((text, "cell-output" in chunk))
    return found


def prints(code: str) -> bool:
    "Whether a cell shows something when run: a `print`/`display` call, or a last statement that is an expression."
    try: tree = ast.parse(code)
    except SyntaxError: return True
    calls = {getattr(n.func, "id", getattr(n.func, "attr", "")) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    last = tree.body[-1] if tree.body else None
    return bool(calls & {"print", "display"}) or isinstance(last, ast.Expr) and not isinstance(last.value, ast.Constant)


def silent_cells(site: Path, names=EXECUTED) -> list[str]:
    "The code cells of the landing page and the guides that print something but show no output on the site."
    out = []
    for name in names:
        page = site / f"{name}.html"
        if not page.exists(): out.append(f"{name}.html: not built"); continue
        out += [f"{name}.html: {code.strip().splitlines()[-1][:60]}" for code, shown in cells(page.read_text())
                if prints(code) and not shown]
    return out


SCALE = re.compile(r"10\s*(?:\^|\s)?\s*([⁰¹²³⁴⁵⁶⁷⁸⁹]+|\d{1,2})\s+(?:simulated\s+)?answers")
PER_ITERATION = re.compile(r"(\d+(?:\.\d+)?)\s*s per EM iteration")
SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def paragraphs(page: str) -> list[str]:
    "The prose paragraphs and list items of a page, as text."
    return [text_of(p) for p in re.findall(r"<(?:p|li)\b[^>]*>(.*?)</(?:p|li)>", page, flags=re.S)]


def quoted_timings(page: str) -> list[tuple[str, str, str]]:
    "Each `N s per EM iteration` of a page with the `10ⁿ answers` named before it: (key, value, context)."
    found = []
    for par in paragraphs(page):
        for m in PER_ITERATION.finditer(par):
            scales = SCALE.findall(par[:m.start()])
            if scales:
                found.append((f"s per EM iteration at 10^{scales[-1].translate(SUPERSCRIPT)} answers",
                              m.group(1), par[max(0, m.start() - 80):m.end()]))
    return found


def tour_numbers(index: str) -> set[str]:
    "The 3-decimal numbers the landing page's cells print."
    outs = re.findall(r'<div class="cell-output[^"]*">(.*?)</div>', index, flags=re.S)
    return set(re.findall(r"\b\d\.\d{3}\b", " ".join(text_of(o, code=True) for o in outs)))


def number_conflicts(site: Path) -> list[str]:
    "A quantity quoted with different values on two pages (see the module's docstring for which quantities)."
    pages = {p.name: p.read_text() for p in sorted(site.glob("*.html")) if not p.name.startswith("api")}
    seen, wrong = {}, []
    for name, page in pages.items():
        for key, value, context in quoted_timings(page):
            seen.setdefault(key, {}).setdefault(value, (name, context))
    for key, values in seen.items():
        if len({v for v in values}) > 1 and len({n for n, _ in values.values()}) > 1:
            wrong.append(f"{key}: " + "; ".join(f"{v} on {n}" for v, (n, _) in values.items()))
    printed = tour_numbers(pages.get("index.html", ""))
    for name, page in pages.items():
        if name == "index.html": continue
        for sentence in re.split(r"(?<=[.;:])\s+", " ".join(paragraphs(page))):
            if re.search(r"\btour\b", sentence):
                wrong += [f"{name}: the tour's {n} is not printed by the tour ({sorted(printed)[:6]})"
                          for n in re.findall(r"\b\d\.\d{3}\b", sentence) if n not in printed]
    return wrong


def section(page: str, anchor: str) -> str:
    "The HTML of the section whose heading has id `anchor`, up to the next heading of its level."
    start = page.find(f'id="{anchor}"')
    if start < 0: return ""
    end = page.find('<section id="', start + 1)
    return page[start:end if end > 0 else len(page)]


def cli_gaps(site: Path) -> list[str]:
    "What the CLI reference page lacks of the parser: a sub-command, an argument, its help, default or choices."
    from site_build import arguments, subcommands
    from ldp_truth.cli import _parser
    from ldp_truth.registry import MECHANISMS
    ref = site / "cli_reference.html"
    if not ref.exists(): return ["cli_reference.html: not built"]
    page, wrong = ref.read_text(), []
    for name, sp in subcommands(_parser()).items():
        body = text_of(section(page, name))
        if not body: wrong.append(f"{name}: no section"); continue
        for arg in arguments(sp):
            missing = [k for k in ("name", "help", "default", "choices")
                       if arg[k] and re.sub(r"[\s`]", "", arg[k]) not in re.sub(r"\s", "", body)]
            if missing: wrong.append(f"{name} {arg['name']}: {', '.join(missing)} not shown")
    chapter = text_of((site / "07_cli.html").read_text()) if (site / "07_cli.html").exists() else ""
    wrong += [f"07_cli.html: --mechanism {e.cli} not in its table" for e in MECHANISMS.values()
              if not re.search(rf"(?<![\w-]){re.escape(e.cli)}(?![\w-])", chapter)]
    return wrong


def table_cells(page: str) -> set[str]:
    "The text of every table cell of a page."
    return {text_of(c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", page, flags=re.S)}


def decision_gaps(site: Path) -> list[str]:
    "Registry entries (aggregators, mechanisms) and their classes that the guides' decision tables do not name."
    from site_build import mechanism_class
    from ldp_truth.registry import AGGREGATORS, MECHANISMS
    wrong = []
    for guide, names in (("guide_aggregator", [n for e in AGGREGATORS.values() for n in
                                               (e.name, *([e.make.__name__] if isinstance(e.make, type) else []))]),
                         ("guide_mechanism", [n for e in MECHANISMS.values() for n in
                                              (e.name, mechanism_class(e).__name__)])):
        page = site / f"{guide}.html"
        shown = table_cells(page.read_text()) if page.exists() else set()
        words = {w for c in shown for w in re.findall(r"[\w+.-]+", c)}
        wrong += [f"{guide}.html: {n} in no table" for n in dict.fromkeys(names) if n not in shown | words]
    return wrong


def api_entry_gaps(site: Path) -> list[str]:
    "API entries without a link to their chapter, with a check as their example, without Returns; pages without index."
    from make_docs import returns_comment
    wrong = []
    for page in sorted(site.glob("api_*.html")):
        text = page.read_text()
        if 'class="api-index"' not in text: wrong.append(f"{page.name}: no index of its entries at the top")
        wrong += [f"{page.name}: a name cut by a superscript: {m.group(0)}"
                  for m in re.finditer(r"\w+<su[bp]>\w+</su[bp]>_\w+", text)]
        for qual, body in entries(text):
            if "api-source" not in body: wrong.append(f"{qual}: no link to its chapter")
            example = re.search(r'api-heading">Example.*?<pre[^>]*>(.*?)</pre>', body, flags=re.S)
            if example and re.search(r"\btest_\w+\(|^\s*assert\b", text_of(example.group(1), code=True), re.M):
                wrong.append(f"{qual}: a check shown as its example")
            obj = resolve(qual)
            if obj is not None and not inspect.isclass(obj) and returns_comment(obj) and ">Returns<" not in body:
                wrong.append(f"{qual}: its return is described in the source but has no Returns section")
    return wrong


def entries(page: str) -> list[tuple[str, str]]:
    "Each API entry of a page (a name's or a method's): (qualified name, its HTML up to the next entry)."
    marks = list(re.finditer(r'<div class="api-doc" data-qualname="([\w.]+)">', page))
    heads = [m.start() for m in re.finditer(r"<h[23]\b", page)]
    out = []
    for m in marks:
        end = next((h for h in heads if h > m.start()), len(page))
        out.append((m.group(1), page[m.start():end]))
    return out


def resolve(qual: str):
    "The object a qualified name names (`ldp_truth.inference.core.Aggregator.fit`), or None."
    parts = qual.split(".")
    for cut in range(len(parts), 0, -1):
        try: obj = importlib.import_module(".".join(parts[:cut])); break
        except ImportError: continue
    else: return None
    try:
        for attr in parts[cut:]: obj = getattr(obj, attr)
    except AttributeError: return None
    return obj


NESTED = re.compile(r"\[\s*[^\[\]]{1,80}\s*\]\s*\([^)\s]+\.(?:ipynb|html|md)[^)\s]*\)")


def nested_links(site: Path) -> list[str]:
    "Markdown links shown as text (`[ Answers ](00_data.ipynb)`), outside code, on any page."
    return [f"{p.name}: {m.group(0)[:60]}" for p in sorted(site.glob("*.html"))
            for m in NESTED.finditer(text_of(re.sub(r"<code\b.*?</code>", " ", p.read_text(), flags=re.S)))]


UNCHECKED_MODULES = ()


def checked_modules() -> list[str]:
    "The public modules whose empty descriptions fail the site test: all but UNCHECKED_MODULES."
    from make_docs import public_modules
    return [m for m in public_modules(ROOT / "nbs") if m not in UNCHECKED_MODULES]


def empty_descriptions(modules=None) -> dict[str, list[str]]:
    "Per public module: its public parameters and attributes with no description (`module` → `Name.param` list)."
    from make_docs import callable_of, descriptions, owned_methods, public_modules
    found = {}
    for module in modules or public_modules(ROOT / "nbs"):
        mod, empty = importlib.import_module(module), []
        for name in getattr(mod, "__all__", []):
            obj = getattr(mod, name, None)
            if getattr(obj, "__module__", None) != module or not callable(obj): continue
            targets = [(name, callable_of(obj))]
            if inspect.isclass(obj):
                targets += [(f"{name}.{n}", m) for n, m, k in owned_methods(obj) if k is obj and callable(m)]
                empty += [f"{name}.{a}" for a, d in (getattr(obj, "_attribute_docs", None) or {}).items()
                          if not str(d).strip()]
            for label, f in targets:
                if f is None or not hasattr(inspect.unwrap(f), "__code__"): continue  # a builtin's slot
                try: params = [p for p in inspect.signature(f).parameters if p not in ("self", "cls")]
                except (TypeError, ValueError): continue
                comments = descriptions(obj if f is callable_of(obj) else None, f)
                empty += [f"{label}({p})" for p in params if not comments.get(p, "").strip()]
        found[module] = empty
    return found


def undescribed_returns(modules=None) -> list[str]:
    "Public functions that return something (an annotation other than None) without a docments return comment."
    from make_docs import public_modules, returns_comment
    found = []
    for module in modules or public_modules(ROOT / "nbs"):
        mod = importlib.import_module(module)
        for name in getattr(mod, "__all__", []):
            obj = getattr(mod, name, None)
            if getattr(obj, "__module__", None) != module or not inspect.isfunction(obj): continue
            if inspect.signature(obj).return_annotation in (None, "None"): continue
            if not returns_comment(obj): found.append(f"{module}.{name}")
    return found


def described_share(counts: dict[str, list[str]], modules=None) -> str:
    "How many public parameters and attributes have a description, over all modules, as a sentence."
    from make_docs import callable_of, public_modules
    total = 0
    for module in modules or public_modules(ROOT / "nbs"):
        mod = importlib.import_module(module)
        for name in getattr(mod, "__all__", []):
            obj = getattr(mod, name, None)
            if getattr(obj, "__module__", None) != module or not callable(obj): continue
            f = callable_of(obj)
            try: total += len([p for p in inspect.signature(f).parameters if p not in ("self", "cls")]) if f else 0
            except (TypeError, ValueError): pass
            total += len(getattr(obj, "_attribute_docs", None) or {}) if inspect.isclass(obj) else 0
    empty = sum(len(v) for v in counts.values())
    return f"{empty} of at least {total} public parameters and attributes have no description"


READING = """() => {
  const out = {wrapped: [], unscrolled: [], underline: [], toc: []};
  const main = document.querySelector('main'), edge = main.getBoundingClientRect().right;
  document.querySelectorAll('main table').forEach((t) => {
    let box = t.parentElement, scrolls = false;
    for (; box && box !== main; box = box.parentElement)
      if (['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) { scrolls = true; break; }
    if (t.getBoundingClientRect().right > edge + 2 && !scrolls) out.unscrolled.push(t.textContent.slice(0, 40));
    if (t.classList.contains('dataframe')) {
      const cell = [...t.querySelectorAll('td, th')].find((c) => c.textContent.trim().length &&
        c.getBoundingClientRect().height > 1.9 * parseFloat(getComputedStyle(c).fontSize) * 1.2 &&
        !c.textContent.trim().includes(' '));
      if (cell) out.wrapped.push(cell.textContent.trim().slice(0, 40));
    }
  });
  document.querySelectorAll('main .cell-output-stdout pre').forEach((p) => {
    const lines = p.textContent.split('\\n').filter((l) => l.trim());
    const table = lines.length >= 3 && lines.filter((l) => /\\S {2,}\\S/.test(l)).length >= 0.6 * lines.length;
    const line = parseFloat(getComputedStyle(p).lineHeight) || 1.5 * parseFloat(getComputedStyle(p).fontSize);
    if (table && p.scrollHeight > (p.textContent.trimEnd().split('\\n').length + 1) * line)
      out.wrapped.push('printed: ' + lines[0].trim().slice(0, 40));
  });
  const link = [...document.querySelectorAll('main a')].find((a) => a.textContent.includes('_'));
  if (link) {
    const s = getComputedStyle(link), offset = parseFloat(s.textUnderlineOffset);
    if (s.textDecorationLine.includes('underline') && !(offset >= 3))
      out.underline.push(link.textContent.slice(0, 40) + ' offset ' + s.textUnderlineOffset);
  }
  document.querySelectorAll('#TOC a').forEach((a) => {
    if (a.scrollWidth > a.clientWidth + 1 || a.getBoundingClientRect().right >
        a.closest('#quarto-margin-sidebar, nav').getBoundingClientRect().right + 1)
      out.toc.push(a.textContent.slice(0, 50));
  });
  return out;
}"""

CONTRAST = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 :
    Math.pow((v + 0.055) / 1.055, 2.4); }).reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const back = (e) => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length < 4 || c[3] > 0.5) return c.slice(0, 3); } return [255, 255, 255]; };
  return [...document.querySelectorAll('.smalldocs-search-results .search-result *, .search-none')]
    .filter((e) => e.childNodes.length && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
    .map((e) => { const a = lum(rgb(getComputedStyle(e).color)), b = lum(back(e));
      return [e.className || e.tagName, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]; });
}"""


def search(page, query: str) -> list[dict]:
    "The results the search box lists for `query` (href, section), typed into an open page."
    box = page.locator(".smalldocs-search input").first
    box.fill("")
    box.fill(query)
    page.wait_for_timeout(700)
    return page.eval_on_selector_all(".smalldocs-search-results.show a.search-result", "as => as.map((a) => ({href: "
                                     "a.getAttribute('href'), section: (a.querySelector('.search-result-section')"
                                     " || {}).textContent || ''}))")


def reading(site: Path, exe: str, pages=("03d_interface", "03h_hierarchy", "12_two_layer", "index",
                                         "api_inference_core", "guide_aggregator")) -> list[str]:
    "Chromium at 1280 px: tables, underlines, contents on `pages`; search contrast, rank and `ε` from the index."
    from playwright.sync_api import sync_playwright
    wrong = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.route(re.compile(r"^(?!file:).*"), lambda route: route.abort())   # offline
        for name in pages:
            if not (site / f"{name}.html").exists(): continue
            tab.goto((site / f"{name}.html").as_uri()); tab.wait_for_timeout(300)
            found = tab.evaluate(READING)
            wrong += [f"{name}.html: a table wraps its rows or its cells inside a word: {w}"
                      for w in found["wrapped"][:3]]
            wrong += [f"{name}.html: a wide table runs past the column without scrolling: {w}"
                      for w in found["unscrolled"][:3]]
            wrong += [f"{name}.html: a link underline may hide underscores: {w}" for w in found["underline"]]
            wrong += [f"{name}.html: a contents entry is cut: {w}" for w in found["toc"][:3]]
        tab.goto((site / "index.html").as_uri()); tab.wait_for_timeout(300)
        hits = search(tab, "epsilon")
        low = [f"{c} {r:.1f}:1" for c, r in tab.evaluate(CONTRAST) if r < 4.5]
        if low: wrong.append(f"search results below 4.5:1 contrast: {sorted(set(low))[:4]}")
        greek = search(tab, "ε")
        browser.close()
    if [h["href"] for h in greek] != [h["href"] for h in hits] or not hits:
        wrong.append(f"searching ε lists {len(greek)} results, epsilon {len(hits)}, not the same")
    first_api = next((i for i, h in enumerate(hits) if h["href"].startswith("api")), len(hits))
    if any(not h["href"].startswith("api") for h in hits[first_api:]):
        wrong.append("search for epsilon lists API entries before pages")
    methods = [h["section"].rsplit(".", 1)[-1] for h in hits if "." in h["section"]]
    if copies := {m for m in methods if methods.count(m) > 1}:
        wrong.append(f"search for epsilon lists copies of the same method: {sorted(copies)[:4]}")
    return wrong


def all_checks(site: Path, exe: str | None) -> dict[str, list[str]]:
    "Every check above on `site` (the browser's only with a Chromium `exe`)."
    checks = {"guide outputs": silent_cells(site), "numbers between pages": number_conflicts(site),
              "CLI reference": cli_gaps(site), "decision tables": decision_gaps(site),
              "API entries": api_entry_gaps(site), "nested links": nested_links(site),
              "empty descriptions": [f"{m}: {len(v)} empty, e.g. {v[:3]}" for m, v in
                                     empty_descriptions(checked_modules()).items() if v],
              "undescribed returns": undescribed_returns()}
    if exe: checks["reading"] = reading(site, exe)
    return checks


if __name__ == "__main__":
    import shutil
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_docs"
    for check, found in all_checks(site, shutil.which("chromium")).items():
        print(f"{check}: {len(found)} found" + "".join(f"\n    {f}" for f in found[:5]))
    per_module = empty_descriptions()
    print("empty descriptions per module:", {m.removeprefix("ldp_truth."): len(v) for m, v in per_module.items()})
    print(described_share(per_module))


def checks_fire() -> list[str]:
    "The page-level checks above run on synthetic broken pages: each must report its fault (else it could never fail)."
    import tempfile
    wrong = []
    cell = '<div id="cell-1" class="cell"><pre class="sourceCode python cell-code"><code>print(1)</code></pre></div>'
    tour = ('<div class="cell-output cell-output-stdout"><pre><code>ε = 2, Dawid–Skene: 0.717</code></pre></div>'
            "<p>At 10⁸ answers it takes 2.15 s per EM iteration.</p>")
    with tempfile.TemporaryDirectory() as d:
        site = Path(d)
        (site / "guide_start.html").write_text(cell + "<p>[ <a href=\"x.html\">Answers</a> ](00_data.ipynb)</p>")
        (site / "index.html").write_text(tour)
        (site / "guide_changelog.html").write_text("<p>10⁸ answers at 0.75 s per EM iteration; the tour's 0.692.</p>")
        if len(silent_cells(site, ["guide_start"])) != 1: wrong.append("a cell without its output not seen")
        if len(nested_links(site)) != 1: wrong.append("a nested link not seen")
        if len(number_conflicts(site)) != 2: wrong.append(f"conflicting numbers not seen: {number_conflicts(site)}")
        if cli_gaps(site) != ["cli_reference.html: not built"]: wrong.append("a missing CLI reference not seen")
        if len(decision_gaps(site)) < 20: wrong.append("decision tables without the registry's entries not seen")
        (site / "api_x.html").write_text('<h2>f</h2><div class="api-doc" data-qualname="ldp_truth.registry.'
                                         'aggregator">x</div><p class="api-heading">Example</p><pre>test_fail(f)</pre>')
        if len(api_entry_gaps(site)) != 4: wrong.append(f"API entry gaps not seen: {api_entry_gaps(site)}")
        (site / "returns_probe.py").write_text("def f(x: int,  # a number\n      ) -> int:  # twice x\n"
                                               "    return 2 * x\n")
        sys.path.insert(0, d)
        from make_docs import returns_comment
        from returns_probe import f
        if returns_comment(f) != "twice x": wrong.append("a return's docments comment not read")
        (site / "bare_probe.py").write_text('__all__ = ["g"]\ndef g(x: int) -> int:\n    return 2 * x\n')
        if undescribed_returns(["bare_probe"]) != ["bare_probe.g"]: wrong.append("an undescribed return not seen")
    return wrong
