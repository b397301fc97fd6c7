"""Write README.md from nbs/index.ipynb, offline (no Quarto needed).

nbdev's own `nbdev_readme` calls Quarto. Here nbdev's processors (the same ones the docs use) turn
`nbs/index.ipynb` into `_proc/index.ipynb` (directives applied, hidden cells removed), and nbconvert writes
that as Markdown; figures go to `README_files/`.
"""
from pathlib import Path
import re
import shutil

import nbformat
from nbconvert import MarkdownExporter
from nbdev.config import get_config
from nbdev.quarto import refresh_quarto_yml
from nbdev.serve import proc_nbs


def processed_index() -> Path:
    "Run nbdev's notebook processors over nbs/ and return the processed index notebook."
    refresh_quarto_yml()
    return proc_nbs(n_workers=1) / "index.ipynb"


def strip_front_matter(md: str) -> str:
    "Drop the Quarto front matter block nbdev adds at the top (title, description)."
    m = re.match(r"^---\n(.*?)\n---\n", md, flags=re.S)
    if not m: return md
    title = re.search(r"^title:\s*(.+)$", m.group(1), flags=re.M)
    desc = re.search(r"^description:\s*(.+)$", m.group(1), flags=re.M)
    head = (f"# {title.group(1).strip(chr(34))}\n\n" if title else "") + (f"> {desc.group(1).strip(chr(34))}\n" if desc else "")
    return head + md[m.end():]


def main() -> None:
    root = get_config().config_path
    nb = nbformat.read(processed_index(), as_version=4)
    md, resources = MarkdownExporter().from_notebook_node(nb, resources={"output_files_dir": "README_files"})
    figures = root / "README_files"
    shutil.rmtree(figures, ignore_errors=True)
    for name, data in resources.get("outputs", {}).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    (root / "README.md").write_text(strip_front_matter(md).strip() + "\n")
    print(f"README.md written ({len(md)} characters, {len(resources.get('outputs', {}))} figures)")


if __name__ == "__main__":
    main()
