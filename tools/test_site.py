"""Build the documentation site and check it in headless Chromium with the network off, as a reader offline sees it.

For the landing page, the privacy page and every paper page (`1*_*.html`; `03_inference.html` while there is none):
the screenshot is not blank, the maths is rendered (`<math>` or KaTeX elements in the DOM the browser built) and no TeX
source (`$…$`, `\\(…\\)`, `\\frac`) is left in the text. For every page of the site: every local link (`href`/`src`)
resolves to a file in `_docs/` (and its `#anchor` to an element of that page), nothing is loaded from the network,
and no TeX source is left in the HTML; no line of code or printed output runs past its box (measured in Chromium at
1280 px, folded cells opened); every picture has alt text; no check cell (`test_*`, `assert`) is shown unfolded on a
module page; no docstring shows `p^f` or `u_i` as typed. Every relative link of README.md names a file of the
repository. Each check is first run on pages known to be broken, to show that it can fail. Run by `make test`; where Chromium is not installed
it says so and exits 0.
"""
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit
import json
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

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
        self.no_alt = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"): self.ids.add(a["id"])
        if tag == "img" and not (a.get("alt") or "").strip(): self.no_alt.append((a.get("src") or "")[:60])
        if tag == "math" or "katex" in (a.get("class") or "").split(): self.maths += 1
        for key in ("href", "src"):
            if a.get(key) is not None: self.links.append(a[key])
        loads = (tag in ("script", "img", "iframe") and a.get("src")) or \
                (tag == "link" and "stylesheet" in (a.get("rel") or "") and a.get("href"))
        if loads and loads.startswith(("http:", "https:", "//")): self.remote.append(loads)
        if tag in self.SKIP: self.depth += 1

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.depth: self.depth -= 1

    def handle_data(self, data):
        if not self.depth: self.text.append(data)


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
  var over = [];
  document.querySelectorAll('pre').forEach(function (p) {
    if (p.scrollWidth > p.clientWidth + 1) {
      var lines = p.textContent.split('\\n');
      over.push(lines.reduce(function (a, b) { return b.length > a.length ? b : a; }, '').slice(0, 80));
    }
  });
  var out = document.createElement('pre'); out.id = 'overflow-report'; out.textContent = JSON.stringify(over);
  document.body.appendChild(out);
});</script>"""


def overflowing_code(exe: str, page: Path) -> list[str]:
    "The longest line of each <pre> of `page` wider than its box, as laid out by Chromium at 1280 px (details opened)."
    probe = page.with_name(f".probe_{page.name}")            # beside the page, so that its styles load
    probe.write_text(page.read_text().replace("</body>", MEASURE + "</body>"))
    try: dom = chromium(exe, probe, "--window-size=1280,900", "--virtual-time-budget=5000", "--dump-dom")
    finally: probe.unlink()
    m = re.search(r'<pre id="overflow-report">(.*?)</pre>', dom, flags=re.S)
    if m is None: raise RuntimeError(f"{page.name}: the overflow measurement did not run")
    return json.loads(unescape(m.group(1)))


SHOW_DOC = re.compile(r'<div class="cell-output cell-output-display cell-output-markdown">\s*<hr />(.*?)</div>\s*</div>',
                      flags=re.S)
TYPED_MATHS = re.compile(r"[\w)\]]\^|(?<![A-Za-z0-9_.])[A-Za-zα-ωΑ-Ω]_(?:\{|[A-Za-z0-9]{1,2}(?![A-Za-z0-9_]))")


def typed_maths(html: str) -> list[str]:
    "Docstring text (in nbdev's show_doc blocks, outside code) that shows `p^f` or `u_i` as typed instead of as maths."
    found = []
    for block in SHOW_DOC.findall(html):
        for doc in re.findall(r"<p><em>(.*?)</em></p>|<td[^>]*>(.*?)</td>", block, flags=re.S):
            text = re.sub(r"<[^>]+>", "", re.sub(r"<code[^>]*>.*?</code>", "", "".join(doc), flags=re.S))
            found += [unescape(text)[max(0, m.start() - 20):m.end() + 10] for m in TYPED_MATHS.finditer(unescape(text))]
    return found


CHECK_CALL = re.compile(r"\b(?:test_eq|test_fail|test_close|test_ne|test_is)\(|^\s*assert\b", flags=re.M)


def unfolded_checks(html: str) -> list[str]:
    "The first line of each code cell that checks something (`test_*`, `assert`) but is not folded under <details>."
    shown = re.sub(r"<details\b.*?</details>", "", html, flags=re.S)
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
    doc = '<div class="cell-output cell-output-display cell-output-markdown">\n<hr />\n<p><em>flip with p^f, u_i</em></p>\n</div>\n</div>'
    if len(typed_maths(doc)) != 2 or typed_maths(doc.replace("p^f, u_i", "p<sup>f</sup>, <code>n_i^2</code>")):
        wrong.append("typed maths in a docstring not seen (or seen in code)")
    cell = '<pre class="sourceCode python cell-code"><code>x = 1\ntest_eq(x, 1)</code></pre>'
    if unfolded_checks(cell) != ["x = 1"] or unfolded_checks(f"<details>{cell}</details>"): wrong.append("unfolded check not seen")
    with tempfile.TemporaryDirectory(dir=SITE) as d:
        wide = Path(d) / "wide.html"
        wide.write_text('<html><body><pre style="width:200px;overflow-x:auto;white-space:pre">' + "x" * 300 + "</pre></body></html>")
        if len(overflowing_code(exe, wide)) != 1: wrong.append("overflowing code not seen")
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
    papers = sorted(SITE.glob("1*_*.html")) or [SITE / "03_inference.html"]
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
    ids = {name: parsed.ids for name, parsed in html.items()}
    for name, parsed in html.items():
        checks += 7
        if dead := dead_links(SITE / name, parsed, ids): failures.append(f"{name}: {len(dead)} dead local links, e.g. {dead[:3]}")
        if parsed.no_alt: failures.append(f"{name}: {len(parsed.no_alt)} pictures without alt text")
        if over := overflowing_code(exe, SITE / name): failures.append(f"{name}: {len(over)} code lines run past their box, e.g. {over[:2]}")
        page_html = (SITE / name).read_text()
        if typed := typed_maths(page_html): failures.append(f"{name}: docstrings show typed maths: {typed[:3]}")
        if name != "index.html" and (shown := unfolded_checks(page_html)):
            failures.append(f"{name}: {len(shown)} check cells not folded, e.g. {shown[:2]}")
        if parsed.remote: failures.append(f"{name}: loads from the network: {parsed.remote[:3]}")
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
            print(f"test_site: {page.name}: {dom.maths} formulas rendered, {len(html[page.name].links)} links")
    for f in failures: print("FAILED", f)
    print(f"test_site: {checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
