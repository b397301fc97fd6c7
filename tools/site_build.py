"""What `tools/make_docs.py` generates rather than copies: run guide pages, the CLI reference, search, API extras.

- **The guide pages are run when the site is built.** nbdev runs only the cells that `show_doc` needs, so a guide
  page (no exported code) showed no output at all. `execute_pages` runs every code cell of the landing page and of
  the guides that show code (`EXECUTED`) in one fresh IPython shell per page, in `nbs/`, with the notebook's hidden
  cells too, and writes the outputs into the processed copy (matched by cell id). Chosen over checking saved outputs
  in `make test`: an output that is computed when the page is built cannot go stale, nothing has to be compared
  number by number (timings, unseeded draws), and it costs a few seconds. A cell that raises stops the build.
- **The CLI reference is the parser.** `cli_reference` writes one section per sub-command of
  `ldp_truth.cli._parser()`: its description, its usage line and every argument with its help (as `--help` expands
  it), default and choices. `mechanism_table` replaces the hand-written table of the CLI chapter.
- **Search ranks pages first, lists a method once and reads `ε` as `epsilon`.** The API reference writes an
  inherited method once, in its base class's entry; `search_index` drops repeated texts, gives each entry a rank
  (a page, a section of a page, an API entry), and adds the names of the Greek letters an entry uses as keywords;
  `SEARCH_PATCH` makes the search box sort by that rank and translate `ε` in a query.
"""
import argparse
import html
import json
import re
from pathlib import Path

EXECUTED = ("index", "guide_start", "guide_mechanism", "guide_aggregator", "guide_examples")
SKIP_EVAL = re.compile(r"^#\|\s*eval\s*:\s*false", flags=re.M | re.I)


def run_notebook(nb: Path) -> dict[str, list]:
    "Every code cell of `nb` run in order in a fresh shell, in the notebook's folder: cell id → its outputs."
    from execnb.shell import CaptureShell
    import os
    shell, outputs, here = CaptureShell(), {}, os.getcwd()
    os.chdir(nb.parent)
    try:
        shell.run("import matplotlib\nmatplotlib.use('Agg')")
        for cell in json.loads(nb.read_text())["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] != "code" or not src.strip() or SKIP_EVAL.search(src): continue
            outs = shell.run(src)
            if shell.exc: raise RuntimeError(f"{nb.name}: cell {cell.get('id')} raised {shell.exc!r}:\n{src[:400]}")
            outputs[cell.get("id")] = [dict(o) for o in outs]
    finally:
        os.chdir(here)
    return outputs


def execute_pages(proc: Path, nbs: Path, names=EXECUTED) -> int:
    "Run the guide pages' cells and put their outputs in the processed notebooks in `proc`; the cells run."
    ran = 0
    for name in names:
        target = proc / f"{name}.ipynb"
        if not target.exists(): continue
        outputs = run_notebook(nbs / f"{name}.ipynb")
        nb = json.loads(target.read_text())
        for cell in nb["cells"]:
            if cell["cell_type"] == "code" and cell.get("id") in outputs:
                cell["outputs"] = outputs[cell["id"]]; ran += 1
        target.write_text(json.dumps(nb, ensure_ascii=False, default=str))
    return ran


# ---- the command-line reference

def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    "The sub-command parsers of `parser`, by name, in the order `--help` lists them."
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def arg_help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    "An argument's help as `--help` prints it (`%(default)s` expanded), on one line."
    text = parser._get_formatter()._expand_help(action) if action.help else ""
    return " ".join(text.split())


def arg_name(action: argparse.Action) -> str:
    "How an argument is written: `--epsilon EPSILON`, `-o, --out OUT`, or a positional's metavar."
    if not action.option_strings: return action.metavar or action.dest
    value = "" if action.nargs == 0 else " " + (action.metavar or action.dest.upper())
    return ", ".join(action.option_strings) + value


def arguments(parser: argparse.ArgumentParser) -> list[dict]:
    "Every argument of `parser` but `--help`: name, help, default (as text, '' for none), choices."
    rows = []
    for a in parser._actions:
        if isinstance(a, (argparse._HelpAction, argparse._SubParsersAction)): continue
        default = "" if a.default in (None, argparse.SUPPRESS) or a.nargs == 0 else repr(a.default)
        rows.append({"name": arg_name(a), "help": arg_help(parser, a), "default": default,
                     "choices": ", ".join(map(str, a.choices)) if a.choices else ""})
    return rows


def code_spans(text: str) -> str:
    "Help text as HTML: escaped, its `code` spans and `$VARIABLES` as code (a `$` is no formula here)."
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))
    return re.sub(r"(?<![\w>])(\$[A-Z_][A-Z0-9_]*)", r"<code>\1</code>", text)


def args_table(rows: list[dict]) -> str:
    "The arguments of one command as one HTML table (one line, so Markdown leaves it alone)."
    head = "<tr><th>argument</th><th>what it is</th><th>default</th><th>choices</th></tr>"
    body = "".join(f'<tr><td><code>{html.escape(r["name"])}</code></td><td>{code_spans(r["help"])}</td>'
                   f'<td>{html.escape(r["default"])}</td><td>{html.escape(r["choices"])}</td></tr>'
                   for r in rows)
    return f'<div class="table-scroll"><table class="cli-args">{head}{body}</table></div>'


def usage(parser: argparse.ArgumentParser) -> str:
    "The usage line `--help` prints, without its 'usage: ' prefix."
    return " ".join(parser.format_usage().split())[len("usage: "):]


def cli_reference(parser: argparse.ArgumentParser) -> str:
    "The Markdown of the command-line reference page: every sub-command, every argument, from the parser."
    subs = subcommands(parser)
    lines = ["---", 'title: "Command-line reference"', 'description: "Every `ldp-truth` sub-command and '
             'argument, generated from the parser that `--help` prints."', "---", "",
             f'<p class="cli-doc">{code_spans(parser.description or "")}</p>', "",
             "Generated from `ldp_truth.cli._parser()` when the site is built, so it says what `ldp-truth "
             "--help` says. Examples of each command are in the [CLI chapter](07_cli.ipynb).", "",
             f"```sh\n{usage(parser)}\n```", "", args_table(arguments(parser)), ""]
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    summary = {a.dest: a.help or "" for a in sub._choices_actions}
    lines += ["| command | what it does |", "|---|---|"]
    lines += [f"| [`{n}`](#{n}) | {flags(summary.get(n, '')).replace('|', '/')} |" for n in subs] + [""]
    for name, sp in subs.items():
        lines += [f"## `ldp-truth {name}` {{#{name}}}", "",
                  f'<p class="cli-doc">{code_spans(sp.description or summary.get(name, ""))}</p>', "",
                  f"```sh\n{usage(sp)}\n```", "", args_table(arguments(sp)), ""]
    return "\n".join(lines)


def mechanism_table() -> str:
    "The CLI's mechanisms from the registry and the parser: name, answers, class, channel, `--epsilon`, `--a`."
    from ldp_truth.cli import _parser
    from ldp_truth.registry import MECHANISMS
    spec = subcommands(_parser())["spec"]
    helps = {a.dest: arg_help(spec, a) for a in spec._actions}
    rows = [f"| `{e.cli}` | {e.kind} | `{mechanism_class(e).__name__}` | "
            f"{'yes' if e.channel else 'no'} | {first_sentence(mechanism_class(e).__doc__)} |"
            for e in MECHANISMS.values()]
    return "\n".join(["| `--mechanism` | answers | class | a channel for `infer` | what it is |",
                      "|---|---|---|---|---|", *rows, "",
                      f"`--epsilon`: {flags(helps.get('epsilon', ''))}. "
                      f"`--a`: {flags(helps.get('a', ''))}. Every argument "
                      "of every command: the [command-line reference](cli_reference.md)."])


def flags(text: str) -> str:
    "Help text for Markdown: its `--flags` as code (else typography makes `--domain` a dash)."
    return re.sub(r"(?<![\w`-])(--[\w-]+)", r"`\1`", text)


def mechanism_class(entry) -> type:
    "The mechanism class a registry entry builds (the class its factory names)."
    import ldp_truth.mechanisms as mechanisms
    names = [n for n in entry.at.__code__.co_names if n in mechanisms.__all__]
    return getattr(mechanisms, names[0])


def first_sentence(doc: str | None) -> str:
    "The first clause of a docstring (to its first `.`, `;`, `:` or parenthesis), `|` escaped for a table."
    text = " ".join((doc or "").split())
    return re.split(r"(?<!et al)(?<!Alg)[.;]\s|:\s|\s\(", text)[0].rstrip(".").replace("|", "\\|")


HAND_MECHANISM_TABLE = re.compile(r"^\| mechanism \| answers \| parameters \|.*?(?=\n\n|\Z)|^<!-- mechanisms -->$",
                                  flags=re.S | re.M)


def replace_cli_table(proc: Path) -> bool:
    "In the processed CLI chapter, the hand-written mechanism table (or `<!-- mechanisms -->`) made the generated one."
    path = proc / "07_cli.ipynb"
    if not path.exists(): return False
    nb, found = json.loads(path.read_text()), False
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and HAND_MECHANISM_TABLE.search(src):
            cell["source"] = HAND_MECHANISM_TABLE.sub(lambda m: mechanism_table(), src); found = True
    path.write_text(json.dumps(nb, ensure_ascii=False))
    return found


# ---- search

GREEK = {"ε": "epsilon", "δ": "delta", "λ": "lambda", "σ": "sigma", "θ": "theta", "α": "alpha", "β": "beta"}


def search_index(entries: list[dict]) -> list[dict]:
    "The search index, each text once, each entry ranked (0 page, 1 section, 2 API entry) and keyworded."
    out, seen = [], set()
    for e in entries:
        key = (e["section"], e["text"]) if e["href"].startswith("api_") else (e["href"], e["text"])
        if key in seen: continue
        seen.add(key)
        text = e["title"] + " " + e["section"] + " " + e["text"]
        rank = 2 if e["href"].startswith("api") else 0 if not e["section"] else 1
        words = " ".join(sorted({name for letter, name in GREEK.items() if letter in text}))
        out.append({**e, "rank": rank, "keywords": words})
    return out


SEARCH_PATCH = (
    ('keys: [{ name: "title", weight: 2 }, { name: "section", weight: 2 }, { name: "text", weight: 1 }],',
     'keys: [{ name: "title", weight: 2 }, { name: "section", weight: 2 }, { name: "text", weight: 1 },'
     ' { name: "keywords", weight: 1 }], includeScore: true,'),
    ('const q = input.value.trim();',
     'const q = input.value.trim().replace(/[εδλσθαβ]/g, (c) => ({ "ε": "epsilon", "δ": "delta", '
     '"λ": "lambda", "σ": "sigma", "θ": "theta", "α": "alpha", "β": "beta" }[c]));'),
    ('const hits = fuse ? fuse.search(q, { limit }).map((h) => h.item)',
     'const hits = fuse ? fuse.search(q).sort((a, b) => (a.item.rank || 0) - (b.item.rank || 0) || '
     'a.score - b.score).slice(0, limit).map((h) => h.item)'),
)


def patch_search(js: str) -> str:
    "smalldocs' search script sorting by rank and reading Greek letters by name; raises if the script changed."
    for old, new in SEARCH_PATCH:
        if old not in js: raise RuntimeError(f"smalldocs.js changed; update SEARCH_PATCH: {old[:60]}")
        js = js.replace(old, new)
    return js
