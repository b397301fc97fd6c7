"""Write README.md from nbs/index.ipynb, offline (no Quarto needed).

nbdev's own `nbdev_readme` calls Quarto. Here nbdev's processors (the same ones the docs use) turn
`nbs/index.ipynb` into `_proc/index.ipynb` (directives applied, hidden cells removed), and nbconvert writes
that as Markdown; figures go to `README_files/`. A cell marked `#| echo: false` shows only its output, as on the
site, and a link to a symbol's documentation goes to the notebook that documents it (`nbs/05_privacy.ipynb`): the
`doc_host` of settings.ini is not a site that exists.
"""
from pathlib import Path
import re
import shutil

import nbformat
import yaml
from nbconvert import MarkdownExporter
from nbdev.config import get_config

from make_docs import process_notebooks   # the same processing the docs site gets (tools/ is on sys.path when run as a script)


def strip_front_matter(md: str) -> str:
    "Replace the Quarto front matter nbdev adds at the top (title, description) by a Markdown title and summary."
    m = re.match(r"^---\n(.*?)\n---\n", md, flags=re.S)
    if not m: return md
    meta = yaml.safe_load(m.group(1)) or {}
    head = (f"# {meta['title']}\n\n" if "title" in meta else "") + (f"> {meta['description']}\n" if "description" in meta else "")
    return head + md[m.end():]


def notebook_links_from_root(md: str) -> str:
    "Links to sibling notebooks (`00_data.ipynb`) as seen from the repository's root (`nbs/00_data.ipynb`)."
    return re.sub(r"\]\(([\w-]+\.ipynb)\)", r"](nbs/\1)", md)


def hide_echo_false(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    "Mark the source of each `#| echo: false` cell as removed, so that only its output is written, as on the site."
    for cell in nb.cells:
        if cell.cell_type == "code" and re.search(r"^#\|\s*echo:\s*false\s*$", cell.source, flags=re.M):
            cell.metadata["transient"] = {"remove_source": True}
    return nb


def symbol_links_to_notebooks(md: str, doc_url: str, nbs: Path) -> str:
    "Links to nbdev's pages under `doc_url` (`privacy.html#audit`) → the notebook from the root (`nbs/05_privacy.ipynb`)."
    notebooks = {re.sub(r"^\d+[a-z]?_", "", p.stem) + ".html": f"nbs/{p.name}" for p in nbs.glob("*.ipynb")}
    def local(m: re.Match) -> str:
        if m.group(1) not in notebooks: raise ValueError(f"README links to {m.group(0)}, documented by no notebook")
        return f"]({notebooks[m.group(1)]})"
    return re.sub(rf"\]\({re.escape(doc_url)}/([\w.-]+\.html)(?:#[^)]*)?\)", local, md)


def main() -> None:
    cfg = get_config()
    root, doc_url = cfg.config_path, (cfg.doc_host.rstrip("/") + "/" + cfg.doc_baseurl.strip("/")).rstrip("/")
    nb = hide_echo_false(nbformat.read(process_notebooks() / "index.ipynb", as_version=4))
    nb.metadata["language_info"] = {"name": "python"}   # so that code blocks are fenced as ```python
    md, resources = MarkdownExporter().from_notebook_node(nb, resources={"output_files_dir": "README_files"})
    figures = root / "README_files"
    shutil.rmtree(figures, ignore_errors=True)
    for name, data in resources.get("outputs", {}).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    md = symbol_links_to_notebooks(notebook_links_from_root(strip_front_matter(md)), doc_url, cfg.nbs_path)
    (root / "README.md").write_text(md.strip() + "\n")
    print(f"README.md written ({len(md)} characters, {len(resources.get('outputs', {}))} figures)")


if __name__ == "__main__":
    main()
