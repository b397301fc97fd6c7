"""Build the documentation site and check it in headless Chromium with the network off, as a reader offline sees it.

For the landing page, the privacy page and every paper page (`1*_*.html`; `03_inference.html` while there is none):
the screenshot is not blank, the maths is rendered (`<math>` or KaTeX elements in the DOM the browser built) and no TeX
source (`$…$`, `\\(…\\)`, `\\frac`) is left in the text. For every page of the site: every local link (`href`/`src`)
resolves to a file in `_docs/` (and its `#anchor` to an element of that page), nothing is loaded from the network,
and no TeX source is left in the HTML; no line of code or printed output runs past its box (measured in Chromium at
1280 px, folded cells opened); every picture has alt text; no check cell (`test_*`, `assert`) is shown unfolded on a
module page (a cell that draws a figure stays in view); no docstring shows `p^f` or `u_i` as typed or loses a letter
or a star against `help()`; no formula holds TeX (`\\{`, `\\arg`); no raw Markdown (`[text](link)`, a pipe-table row, a
printed pipe table, a table cell cut at a `|`); every page has the sidebar's six groups, previous/next links and the
version; Chromium's network log shows no request beyond the files; no table, formula or picture runs past the
column. The search box, typed into from `file://`, finds `DawidSkene`, `RandomizedResponse`, `epsilon_per_answer`;
every public class's API entry has its parameters, attributes, methods' entries and an example. Every relative link of README.md names a file of the
repository. And what a reader can trust (issue 51, `tools/site_checks.py`): every guide cell's output shown, no
number quoted with two values, the CLI reference equal to the parser, decision tables covering the registry, API
entries with chapter links, Returns and real examples, no nested links, no empty descriptions in the modules
checked (and the count per module printed), tables that scroll, readable and ranked search, `ε` found as `epsilon`. Each check is first run on pages known to be broken, to show that it can fail. Run by `make test`; where Chromium is not installed
it says so and exits 0.
"""
from html import escape as html_escape, unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit
from concurrent.futures import ThreadPoolExecutor
import json
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).parent))
from site_checks import UNCHECKED_MODULES, all_checks, checks_fire, described_share, empty_descriptions  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_docs"
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
OFFLINE = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
           '--host-resolver-rules=MAP * ~NOTFOUND', "--proxy-server=127.0.0.1:9"]   # no name resolves, no proxy answers
EXTERNAL = ("http:", "https:", "mailto:", "#", "data:", "javascript:")
TEX = re.compile(r"\$\$?[^$\s][^$]*?\$|\\\(.+?\\\)|\\\[.+?\\\]|\\[A-Za-z]{2,}", flags=re.S)   # $…$, \(…\), \[…\], \frac


def browser() -> str | None:
    "The Chromium executable on PATH, or None."
    return next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)


def chromium(exe: str, page: Path, *args: str) -> str:
    "Run headless Chromium offline on `page` with `args` in a throw-away profile; its standard output."
    with tempfile.TemporaryDirectory() as profile:
        run = subprocess.run([exe, *OFFLINE, f"--user-data-dir={profile}", *args, page.as_uri()],
                             capture_output=True, text=True, timeout=120)
    if run.returncode: raise RuntimeError(f"chromium failed on {page.name}: {run.stderr[-500:]}")
    return run.stdout


class Page(HTMLParser):
    "What a page holds: its links, ids, remote resources, maths, pictures without alt text, the text outside code."
    SKIP = {"code", "pre", "script", "style", "math", "title"}

    def __init__(self, html: str):
        super().__init__()
        self.links, self.ids, self.remote, self.text, self.maths, self.depth = [], set(), [], [], 0, 0
        self.no_alt, self.alts, self.math_text, self.in_math = [], [], [], 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"): self.ids.add(a["id"])
        if tag == "img" and not (a.get("alt") or "").strip(): self.no_alt.append((a.get("src") or "")[:60])
        if tag == "img": self.alts.append(a.get("alt") or "")
        if tag == "math" or "katex" in (a.get("class") or "").split(): self.maths += 1
        if tag == "math": self.in_math += 1
        for key in ("href", "src"):
            if a.get(key) is not None: self.links.append(a[key])
        loads = (tag in ("script", "img", "iframe") and a.get("src")) or \
                (tag == "link" and "stylesheet" in (a.get("rel") or "") and a.get("href"))
        if loads and loads.startswith(("http:", "https:", "//")): self.remote.append(loads)
        if tag in self.SKIP: self.depth += 1

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.depth: self.depth -= 1
        if tag == "math" and self.in_math: self.in_math -= 1

    def handle_data(self, data):
        if not self.depth: self.text.append(data)
        if self.in_math: self.math_text.append(data)


def dead_links(page: Path, parsed: Page, ids: dict[str, set]) -> list[str]:
    "The local links of `page` whose file is not in the site, or whose anchor names no element of its target."
    dead = []
    for link in parsed.links:
        if link.startswith(EXTERNAL) or not link: continue
        url = urlsplit(link)
        target = (page.parent / unquote(url.path)).resolve()
        if not target.is_file() or SITE.resolve() not in target.parents: dead.append(link); continue
        if url.fragment and target.suffix == ".html" and unquote(url.fragment) not in ids.get(target.name, set()):
            dead.append(link)
    return dead


def dead_readme_links(readme: Path) -> list[str]:
    "The relative links of the README (`[text](nbs/00_data.ipynb)`, images) that name no file of the repository."
    links = re.findall(r"\]\(([^)\s]+)\)", readme.read_text())
    return [l for l in links if not l.startswith(EXTERNAL) and not (ROOT / unquote(urlsplit(l).path)).exists()]


MEASURE = """<script>window.addEventListener('load', function () {
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  setTimeout(function () {   // after fit.js has fitted what the opened cells hold
  var main = document.querySelector('main'), edge = main ? main.getBoundingClientRect().right : 1e9, over = [];
  document.querySelectorAll('pre').forEach(function (p) {
    if (p.closest('.printed-table')) return;   // a printed table scrolls in its box instead of wrapping its rows
    if (p.scrollWidth > p.clientWidth + 1) {
      var lines = p.textContent.split('\\n');
      over.push(lines.reduce(function (a, b) { return b.length > a.length ? b : a; }, '').slice(0, 80));
    }
  });
  function scrolls(e) {   // a table may be wider than the column inside a box that scrolls sideways
    for (var b = e; b && b !== main; b = b.parentElement)
      if (/auto|scroll/.test(getComputedStyle(b).overflowX) && b.clientWidth <= main.clientWidth + 2) return true;
    return false;
  }
  document.querySelectorAll('main table, main math[display="block"], main img, main .sd-table, main span.math.display')
    .forEach(function (e) {
      if ((e.tagName === 'TABLE' || e.classList.contains('sd-table')) && scrolls(e)) return;
      var r = e.getBoundingClientRect();
      if (r.right > edge + 2 || e.scrollWidth > e.clientWidth + 2 && getComputedStyle(e).overflowX !== 'visible')
        over.push(e.tagName.toLowerCase() + ' ' + Math.round(r.width) + ' px: ' + e.textContent.trim().slice(0, 50));
    });
  var out = document.createElement('pre'); out.id = 'overflow-report'; out.textContent = JSON.stringify(over);
  document.body.appendChild(out);
}, 200); });</script>"""


def page_requests(netlog: Path) -> list[str]:
    "The URLs a page asked for beyond the file system, from Chromium's network log (the browser's own are left out)."
    text = netlog.read_text() if netlog.exists() else ""
    try: log = json.loads(text)
    except json.JSONDecodeError: log = json.loads(text.rstrip().rstrip(",") + "]}")   # a log cut at exit
    start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    jobs = [e["params"] for e in log["events"] if e["type"] == start and "url" in e.get("params", {})]
    return sorted({j["url"] for j in jobs if j.get("initiator") != "not an origin"   # Chromium's own (updates, time)
                   and not j["url"].startswith(("file:", "data:", "blob:"))})


def measure(exe: str, page: Path) -> tuple[list[str], list[str]]:
    "What runs past its box in `page` at 1280 px (details opened) and what it asked the network for."
    probe = page.with_name(f".probe_{page.name}")            # beside the page, so that its styles load
    probe.write_text(page.read_text().replace("</body>", MEASURE + "</body>"))
    with tempfile.TemporaryDirectory() as d:
        try: dom = chromium(exe, probe, "--window-size=1280,900", "--virtual-time-budget=5000",
                            f"--log-net-log={Path(d) / 'net.json'}", "--dump-dom")
        finally: probe.unlink()
        asked = page_requests(Path(d) / "net.json")
    m = re.search(r'<pre id="overflow-report">(.*?)</pre>', dom, flags=re.S)
    if m is None: raise RuntimeError(f"{page.name}: the overflow measurement did not run")
    return json.loads(unescape(m.group(1))), asked


def overflowing_code(exe: str, page: Path) -> list[str]:
    "What runs past its box in `page`: a <pre>'s longest line, a table, a formula, a picture."
    return measure(exe, page)[0]


API_DOC = re.compile(r'<div class="api-doc"[^>]*>(.*?)</div>|<dd>(.*?)</dd>', flags=re.S)
TYPED_MATHS = re.compile(r"[\w)\]]\^|(?<![A-Za-z0-9_.])[A-Za-zα-ωΑ-Ω]_(?:\{|[A-Za-z0-9]{1,2}(?![A-Za-z0-9_]))")


def typed_maths(html: str) -> list[str]:
    "Docstring text (outside code) that shows `p^f` or `u_i` as typed instead of as maths, or Markdown's emphasis."
    found = []
    for doc in API_DOC.findall(html):
        doc = "".join(doc)
        if re.search(r"<(?:em|strong)>", doc): found.append("emphasis: " + re.sub(r"<[^>]+>", "", doc)[:40])
        text = unescape(re.sub(r"<[^>]+>", "", re.sub(r"<code[^>]*>.*?</code>", "", doc, flags=re.S)))
        found += [text[max(0, m.start() - 20):m.end() + 10] for m in TYPED_MATHS.finditer(text)]
    return found


def letters(text: str) -> str:
    "The letters, digits and stars of `text`: what a docstring must keep whatever the page does to its maths."
    return re.sub(r"[^\w*]|_", "", text)


def docstrings_differ(html: str) -> list[str]:
    "The API entries whose text on the page lost or gained a letter or a star against the docstring `help()` shows."
    sys.path.insert(0, str(ROOT))
    import importlib, inspect
    wrong = []
    for qual, body in re.findall(r'<div class="api-doc" data-qualname="([\w.]+)">(.*?)</div>', html, flags=re.S):
        parts = qual.split(".")
        for cut in range(len(parts) - 1, 0, -1):   # the longest importable module, then attributes
            try: obj = importlib.import_module(".".join(parts[:cut])); break
            except ImportError: continue
        for attr in parts[cut:]: obj = inspect.getattr_static(obj, attr) if inspect.isclass(obj) else getattr(obj, attr)
        obj = obj.fget if isinstance(obj, property) else getattr(obj, "__func__", obj)
        doc = re.split(r"\n\s*Parameters\s*\n\s*-{3,}", inspect.getdoc(obj) or "")[0]
        if letters(doc) != letters(unescape(re.sub(r"<[^>]+>", "", body))): wrong.append(qual)
    return wrong


def raw_markdown(parsed: Page) -> list[str]:
    "Markdown a reader sees as typed: a `[text](link)`, a pipe-table row, a stray backtick in a table cell."
    text = " ".join(parsed.text)
    pattern = r"\[[^\]\n]+\]\([^)\s]+\)|\|\s*:?-{3,}\s*\||(?m:^\s*\|(?: [^|\n]+ \|){2,}\s*$)"
    return [m.group(0)[:60] for chunk in parsed.text for m in re.finditer(pattern, chunk)]


def cut_cells(html: str) -> list[str]:
    "Table cells holding an odd number of backticks or of `$`: a code span or formula cut at a `|`."
    cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", re.sub(r"<code[^>]*>.*?</code>|<math.*?</math>", "", html, flags=re.S),
                       flags=re.S)
    return [c[:60] for c in cells if re.sub(r"<[^>]+>", "", c).count("`") % 2 or re.sub(r"<[^>]+>", "", c).count("$") % 2]


SECTIONS = ("Guide", "Core library", "Inference", "Papers", "Command line", "API reference")


def missing_navigation(html: str, version: str) -> list[str]:
    "What a page lacks of the site's navigation: a sidebar section, the previous/next links, the version."
    sections = re.findall(r'sidebar-item-section.*?<span class="menu-text">([^<]+)</span>', html, flags=re.S)
    gone = [f"section {s}" for s in SECTIONS if s not in sections]
    if 'class="page-navigation"' not in html: gone.append("previous/next links")
    if f'<span class="navbar-version">{version}</span>' not in html: gone.append(f"version {version}")
    return gone


def api_gaps(site: Path) -> list[str]:
    "Public classes of the library whose API entry lacks its parameters, attributes, methods' entries or an example."
    sys.path.insert(0, str(ROOT))
    import importlib, inspect
    gaps = []
    for page in sorted(site.glob("api_*.html")):
        html = page.read_text()
        ids = Page(html).ids
        for qual in re.findall(r'<div class="api-doc" data-qualname="([\w.]+)">', html):
            module, _, name = qual.rpartition(".")
            try: obj = getattr(importlib.import_module(module), name)
            except (ImportError, AttributeError): continue   # a method: its class is checked
            if not inspect.isclass(obj): continue
            entry = html[html.index(f'data-qualname="{qual}"'):]
            entry = entry[:entry.find('class="level2"', 1) if 'class="level2"' in entry[1:] else len(entry)]
            init = vars(obj).get("__init__")
            if init and len(inspect.signature(init).parameters) > 1 and ">Parameters<" not in entry:
                gaps.append(f"{name}: no parameters")
            if getattr(obj, "_attribute_docs", None) and ">Attributes<" not in entry: gaps.append(f"{name}: no attributes")
            for m in re.findall(r'<a href="#([\w.]+)"><code>', entry):
                if m not in ids: gaps.append(f"{name}: method {m} has no entry")
            if 'class="api-heading">Example' not in entry: gaps.append(f"{name}: no example")
    return gaps


SEARCH = """<script>window.addEventListener('load', function () {
  var box = document.querySelector('.smalldocs-search input'), found = {}, queries = QUERIES, i = 0;
  function next() {
    if (i === queries.length) {
      var out = document.createElement('pre'); out.id = 'search-report'; out.textContent = JSON.stringify(found);
      document.body.appendChild(out); return;
    }
    box.value = queries[i]; box.dispatchEvent(new Event('input', {bubbles: true}));
    setTimeout(function () {
      found[queries[i]] = document.querySelectorAll('.smalldocs-search-results a').length; i += 1; next();
    }, 800);
  }
  next();
});</script>"""
QUERIES = ("DawidSkene", "RandomizedResponse", "epsilon_per_answer")


def search_hits(exe: str, page: Path, queries=QUERIES) -> dict[str, int]:
    "How many results the site's search box lists for each query, typed into `page` opened from file://."
    probe = page.with_name(f".search_{page.name}")
    probe.write_text(page.read_text().replace("</body>", SEARCH.replace("QUERIES", json.dumps(list(queries))) + "</body>"))
    try: dom = chromium(exe, probe, "--window-size=1280,900", "--virtual-time-budget=20000", "--dump-dom")
    finally: probe.unlink()
    m = re.search(r'<pre id="search-report">(.*?)</pre>', dom, flags=re.S)
    return json.loads(unescape(m.group(1))) if m else {}


def network_requests(exe: str, page: Path) -> list[str]:
    "Every URL `page` asked for beyond the files of the site, as Chromium loaded it offline."
    return measure(exe, page)[1]


def remote_imports(site: Path) -> list[str]:
    "Stylesheets and scripts of the site that load something from a host (`@import url(https://…)`, `url(//…)`)."
    return [f"{f.name}: {m.group(0)[:60]}" for f in [*site.rglob("*.css"), *site.rglob("*.js")]
            for m in re.finditer(r"@import\s+url\(\s*['\"]?(?:https?:)?//[^)]*\)|url\(\s*['\"]?(?:https?:)?//[^)]*\)",
                                 f.read_text(errors="ignore"))]


def printed_tables(html: str) -> list[str]:
    "Printed output (a <pre> of a cell's output) holding a Markdown pipe table: a table shown as typed."
    outputs = re.findall(r'<div class="cell-output[^"]*">\s*<pre[^>]*>(?:<code[^>]*>)?(.*?)</pre>', html, flags=re.S)
    return [unescape(re.sub(r"<[^>]+>", "", o)).strip()[:50] for o in outputs
            if re.search(r"(?m)^\|[-:| ]+\|\s*$", unescape(re.sub(r"<[^>]+>", "", o)))]


CHECK_CALL = re.compile(r"\b(?:test_eq|test_fail|test_close|test_ne|test_is)\(|^\s*assert\b", flags=re.M)


def unfolded_checks(html: str) -> list[str]:
    "The first line of each code cell that checks something (`test_*`, `assert`) but is not folded under <details>."
    shown = re.sub(r"<details\b.*?</details>", "", html, flags=re.S)
    cells = re.split(r'(?=<div id="cell-)', shown)
    shown = "".join(c for c in cells if "<img" not in c)   # a figure's code stays in view, checks and all
    cells = re.findall(r'<pre class="[^"]*cell-code[^"]*"><code[^>]*>(.*?)</code></pre>', shown, flags=re.S)
    texts = [unescape(re.sub(r"<[^>]+>", "", c)) for c in cells]
    return [t.strip().splitlines()[0][:60] for t in texts if CHECK_CALL.search(t)]


def blank(png: Path) -> bool:
    "A screenshot with (almost) no variation: a blank or single-colour page."
    return float(np.asarray(Image.open(png).convert("L"), dtype=float).std()) < 5


def detectors_fire(exe: str) -> list[str]:
    "The checks above, run on pages known to be broken: each must report its fault (else it could never fail)."
    wrong = []
    if Page('<img src="a.png"><img src="b.png" alt="a plot">').no_alt != ["a.png"]: wrong.append("missing alt not seen")
    doc = '<div class="api-doc">flip with p^f, u_i</div>'
    if len(typed_maths(doc)) != 2 or typed_maths(doc.replace("p^f, u_i", "p<sup>f</sup>, <code>n_i^2</code>")):
        wrong.append("typed maths in a docstring not seen (or seen in code)")
    if not typed_maths('<div class="api-doc">max(p, 1−p<em>) … in [1/2, 1].</em></div>'): wrong.append("emphasis not seen")
    rr = '<div class="api-doc" data-qualname="ldp_truth.mechanisms.RandomizedResponse">{}</div>'
    sys.path.insert(0, str(ROOT)); import ldp_truth.mechanisms
    if docstrings_differ(rr.format("k-ary randomized response")) != ["ldp_truth.mechanisms.RandomizedResponse"]:
        wrong.append("a docstring cut on the page not seen")
    if docstrings_differ(rr.format(html_escape(ldp_truth.mechanisms.RandomizedResponse.__doc__))):
        wrong.append("a faithful docstring flagged")
    if not raw_markdown(Page("<p>see [Answers](nbs/00_data.ipynb)</p>")) or not raw_markdown(Page("<p>| a | b |</p>")) \
            or raw_markdown(Page("<p>Lap(|Γ|/ε (|Γ| − 1))</p>")):
        wrong.append("raw Markdown not seen (or seen in maths)")
    if cut_cells("<td>`P[x, y] = Pr(output y</td><td>x)`</td>") != ["`P[x, y] = Pr(output y", "x)`"]:
        wrong.append("a table cell cut at a | not seen")
    if not missing_navigation("<html></html>", "0.1.0"): wrong.append("missing navigation not seen")
    if not printed_tables('<div class="cell-output cell-output-stdout">\n<pre><code>| a | b |\n|---|---|\n| 1 | 2 |</code></pre>'):
        wrong.append("a printed pipe table not seen")
    if "\\" not in "".join(Page("<math><mo>\\{</mo></math>").math_text): wrong.append("TeX inside MathML not seen")
    with tempfile.TemporaryDirectory(dir=SITE) as d:
        fake = Path(d) / "api_fake.html"
        fake.write_text(rr.format("k-ary randomized response"))
        if len(api_gaps(Path(d))) < 3: wrong.append("an API entry without parameters, attributes and example not seen")
        (Path(d) / "font.css").write_text("@import url(https://fonts.example/css2?family=X);")
        if not remote_imports(Path(d)): wrong.append("a remote @import not seen")
        remote = Path(d) / "remote.html"
        remote.write_text('<html><head><link rel="stylesheet" href="https://fonts.example/x.css"></head><body>x</body></html>')
        if not network_requests(exe, remote): wrong.append("a network request not seen")
        unsearchable = Path(d) / "unsearchable.html"
        unsearchable.write_text((SITE / "index.html").read_text().replace('<script src="search.js"></script>', "")
                                .replace('href="', 'href="../').replace('src="', 'src="../'))
        if any(search_hits(exe, unsearchable).values()): wrong.append("search without its index not seen to fail")
    cell = '<pre class="sourceCode python cell-code"><code>x = 1\ntest_eq(x, 1)</code></pre>'
    if unfolded_checks(cell) != ["x = 1"] or unfolded_checks(f"<details>{cell}</details>"): wrong.append("unfolded check not seen")
    with tempfile.TemporaryDirectory(dir=SITE) as d:
        wide = Path(d) / "wide.html"
        wide.write_text('<html><body><main style="width:300px"><pre style="width:200px;overflow-x:auto;white-space:pre">'
                        + "x" * 300 + '</pre><table style="width:900px"><tr><td>wide</td></tr></table></main></body></html>')
        if len(overflowing_code(exe, wide)) != 2: wrong.append("an overflowing code line or table not seen")
    if not TEX.findall(" ".join(Page("<p>keep $e^\\varepsilon$ and \\lceil n\\rceil</p>").text)): wrong.append("raw TeX not seen")
    if TEX.findall(" ".join(Page("<p>costs $5</p><code>$x$</code><math><mi>x</mi></math>").text)): wrong.append("TeX seen in code")
    if Page("<p><math><mi>x</mi></math></p>").maths != 1: wrong.append("MathML not counted")
    if dead_links(SITE / "index.html", Page('<a href="no_such_page.html">x</a>'), {}) != ["no_such_page.html"]:
        wrong.append("dead link not seen")
    if Page('<script src="https://cdn.example/k.js"></script>').remote != ["https://cdn.example/k.js"]:
        wrong.append("network load not seen")
    with tempfile.TemporaryDirectory() as d:
        Image.new("RGB", (64, 64), "white").save(Path(d) / "white.png")
        if not blank(Path(d) / "white.png"): wrong.append("blank screenshot not seen")
    return wrong


def pages_to_view() -> list[Path]:
    "The landing page, the privacy page and the paper pages (the inference page while there is no paper page)."
    papers = [p for p in sorted(SITE.glob("1*_*.html")) if (ROOT / "nbs" / f"{p.stem}.ipynb").exists() and re.search(
        r"#\|\s*default_exp\s+papers\.", (ROOT / "nbs" / f"{p.stem}.ipynb").read_text())] or [SITE / "03_inference.html"]
    return [SITE / "index.html", SITE / "05_privacy.html", *papers]


def main() -> int:
    exe = browser()
    if exe is None:
        print("test_site: SKIPPED, no Chromium on PATH (apt-get install -y chromium) — the docs site was not checked")
        return 0
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_docs.py")], check=True, cwd=ROOT)
    failures, checks = [f"the checker itself: {w}" for w in detectors_fire(exe)], 2
    if dead := dead_readme_links(ROOT / "README.md"): failures.append(f"README.md: dead relative links {dead[:3]}")
    html = {p.name: Page(p.read_text()) for p in sorted(SITE.glob("*.html"))}
    version = re.search(r"^version\s*=\s*(\S+)", (ROOT / "settings.ini").read_text(), flags=re.M).group(1)
    checks += 4
    if gaps := api_gaps(SITE): failures.append(f"API reference: {len(gaps)} gaps, e.g. {gaps[:4]}")
    if remote := remote_imports(SITE): failures.append(f"stylesheets or scripts load from a host: {remote[:3]}")
    hits = search_hits(exe, SITE / "index.html")
    if not all(hits.get(q) for q in QUERIES): failures.append(f"search from file:// finds nothing for some of {hits}")
    for guide in ("guide_start", "guide_mechanism", "guide_aggregator", "guide_examples", "guide_glossary",
                  "guide_references", "guide_changelog", "api"):
        if f"{guide}.html" not in html: failures.append(f"{guide}.html: not built")
    ids = {name: parsed.ids for name, parsed in html.items()}
    with ThreadPoolExecutor(3) as pool:   # one Chromium per page, three at a time
        measured = dict(zip(html, pool.map(lambda name: measure(exe, SITE / name), html)))
    for name, parsed in html.items():
        checks += 8
        if dead := dead_links(SITE / name, parsed, ids): failures.append(f"{name}: {len(dead)} dead local links, e.g. {dead[:3]}")
        if parsed.no_alt: failures.append(f"{name}: {len(parsed.no_alt)} pictures without alt text")
        over, asked = measured[name]
        if over: failures.append(f"{name}: {len(over)} code lines, tables or formulas run past their box, e.g. {over[:2]}")
        if asked: failures.append(f"{name}: asks the network for {asked[:3]}")
        page_html = (SITE / name).read_text()
        if typed := typed_maths(page_html): failures.append(f"{name}: docstrings show typed maths: {typed[:3]}")
        if name != "index.html" and (shown := unfolded_checks(page_html)):
            failures.append(f"{name}: {len(shown)} check cells not folded, e.g. {shown[:2]}")
        if parsed.remote: failures.append(f"{name}: loads from the network: {parsed.remote[:3]}")
        checks += 7
        if bad := [t for t in parsed.math_text if "\\" in t]: failures.append(f"{name}: TeX left inside formulas: {bad[:3]}")
        if raw := raw_markdown(parsed): failures.append(f"{name}: raw Markdown shown: {raw[:3]}")
        if cut := cut_cells(page_html): failures.append(f"{name}: table cells cut at a '|': {cut[:3]}")
        if typed := printed_tables(page_html): failures.append(f"{name}: pipe tables printed as text: {typed[:2]}")
        if gone := missing_navigation(page_html, version): failures.append(f"{name}: no {', '.join(gone)}")
        if vague := [a for a in parsed.alts if a.strip().lower() in ("figure: a figure", "a figure", "figure")]:
            failures.append(f"{name}: {len(vague)} pictures whose alt text says nothing")
        if differ := docstrings_differ(page_html): failures.append(f"{name}: docstrings changed on the page: {differ[:3]}")
        if not name.startswith("api") and page_html.count('<div class="api-doc">') > page_html.count('class="api-more"') \
                + page_html.count('<div class="api-doc">') // 2:
            failures.append(f"{name}: most documented names do not link to their API entry")
        if tex := TEX.findall(" ".join(parsed.text)): failures.append(f"{name}: TeX source left in the page: {tex[:3]}")
    with tempfile.TemporaryDirectory() as shots:
        for page in pages_to_view():
            checks += 4
            if not page.exists(): failures.append(f"{page.name}: not built"); continue
            png = Path(shots) / f"{page.stem}.png"
            chromium(exe, page, f"--screenshot={png}", "--window-size=1280,900")
            if not png.exists() or blank(png): failures.append(f"{page.name}: the screenshot is blank")
            dom = Page(chromium(exe, page, "--dump-dom"))
            if dom.maths == 0: failures.append(f"{page.name}: no rendered maths (<math> or KaTeX) in the DOM")
            if tex := TEX.findall(" ".join(dom.text)): failures.append(f"{page.name}: TeX source left in the text: {tex[:3]}")
            if "Report an issue" in " ".join(dom.text): failures.append(f"{page.name}: a 'Report an issue' link")
            source = ROOT / "nbs" / f"{page.stem}.ipynb"
            paper = source.exists() and re.search(r"#\|\s*default_exp\s+papers\.", source.read_text())
            if paper and "guide_references.html#ref-" not in page.read_text():
                failures.append(f"{page.name}: a paper page that does not cite its paper (references)")
            print(f"test_site: {page.name}: {dom.maths} formulas rendered, {len(html[page.name].links)} links")
    failures += [f"the checker itself: {w}" for w in checks_fire()]
    for check, found in all_checks(SITE, exe).items():   # issue 51: what a reader can trust
        checks += 1
        if found: failures.append(f"{check}: {len(found)} found, e.g. {found[:3]}")
    per_module = empty_descriptions()
    unchecked = f" (not yet checked: {', '.join(UNCHECKED_MODULES)})" if UNCHECKED_MODULES else ""
    print(f"test_site: empty descriptions per module{unchecked}: "
          + ", ".join(f"{m.removeprefix('ldp_truth.')} {len(v)}" for m, v in per_module.items()))
    print(f"test_site: {described_share(per_module)}")
    for f in failures: print("FAILED", f)
    print(f"test_site: {checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
