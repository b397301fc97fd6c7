"""Build the documentation site offline: nbdev's processors write `_proc/`, then Quarto (if installed) or smalldocs renders it.

`nbdev_docs` needs Quarto, which cannot be downloaded here. The steps below are the ones it runs, called as Python
functions; the site lands in `_docs/` (index.html is the landing page, one page per notebook).
"""
from pathlib import Path
import shutil
import subprocess
import sys

from nbdev.config import get_config
from nbdev.doclinks import _build_modidx
from nbdev.quarto import nbdev_sidebar, refresh_quarto_yml
from nbdev.serve import proc_nbs


def process_notebooks() -> Path:
    "Refresh the Quarto config, the symbol index and the sidebar; process every notebook into `_proc/`."
    refresh_quarto_yml()
    _build_modidx()
    nbdev_sidebar(force=True)
    return proc_nbs(n_workers=1, force=True)


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


def main() -> None:
    root = get_config().config_path
    out = root / "_docs"
    render(process_notebooks(), out)
    pages = sorted(p.name for p in out.glob("*.html"))
    print(f"site written to {out} ({len(pages)} pages: {', '.join(pages)})")


if __name__ == "__main__":
    main()
