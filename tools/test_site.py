"""Build the documentation site and check it in headless Chromium with the network off, as a reader offline sees it.

For the landing page, the privacy page and every paper page (`1*_*.html`; `03_inference.html` while there is none):
the screenshot is not blank, the maths is rendered (`<math>` or KaTeX elements in the DOM the browser built) and no TeX
source (`$…$`, `\\(…\\)`, `\\frac`) is left in the text. For every page of the site: every local link (`href`/`src`)
resolves to a file in `_docs/` (and its `#anchor` to an element of that page), nothing is loaded from the network,
and no TeX source is left in the HTML; every relative link of README.md names a file of the repository. Each check is
first run on pages known to be broken, to show that it can fail. Run by `make test`; where Chromium is not installed
it says so and exits 0.
"""
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit
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
    "What a page holds: its links, its ids, its remote resources, its maths and the text outside code and maths."
    SKIP = {"code", "pre", "script", "style", "math", "title"}

    def __init__(self, html: str):
        super().__init__()
        self.links, self.ids, self.remote, self.text, self.maths, self.depth = [], set(), [], [], 0, 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"): self.ids.add(a["id"])
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


def blank(png: Path) -> bool:
    "A screenshot with (almost) no variation: a blank or single-colour page."
    return float(np.asarray(Image.open(png).convert("L"), dtype=float).std()) < 5


def detectors_fire() -> list[str]:
    "The checks above, run on pages known to be broken: each must report its fault (else it could never fail)."
    wrong = []
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
    failures, checks = [f"the checker itself: {w}" for w in detectors_fire()], 2
    if dead := dead_readme_links(ROOT / "README.md"): failures.append(f"README.md: dead relative links {dead[:3]}")
    html = {p.name: Page(p.read_text()) for p in sorted(SITE.glob("*.html"))}
    ids = {name: parsed.ids for name, parsed in html.items()}
    for name, parsed in html.items():
        checks += 3
        if dead := dead_links(SITE / name, parsed, ids): failures.append(f"{name}: {len(dead)} dead local links, e.g. {dead[:3]}")
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
