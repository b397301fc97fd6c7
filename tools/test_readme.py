"""Run the README's Python code blocks in order in a fresh interpreter, as a reader who copies them one by one would.

Every ```python block of README.md (written from nbs/index.ipynb by tools/make_readme.py) is run, in the order it
appears, in one new Python process started from the repository's root, with nothing imported beforehand: a name that
the README uses but only a hidden cell of the notebook defines fails here. The checker is first shown to fail on a
README whose second block uses a name no block defines. Run by `make test`.
"""
from pathlib import Path
import os
import re
import subprocess
import sys
import tempfile

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", flags=re.M | re.S)
RUNNER = """
import linecache, sys, traceback
blocks = {blocks!r}
for i, code in enumerate(blocks, 1):
    name = f"README block {{i}}"
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)   # tracebacks show the block's lines
    try: exec(compile(code, name, "exec"), globals())
    except BaseException:
        print(f"README block {{i}} of {{len(blocks)}} failed:\\n{{code}}", file=sys.stderr)
        traceback.print_exc()
        sys.exit(1)
print(f"test_readme: {{len(blocks)}} Python blocks of the README ran in order in a fresh interpreter")
"""


def python_blocks(markdown: str) -> list[str]:
    "The code of each ```python block, in order."
    return BLOCK.findall(markdown)


def run_blocks(blocks: list[str], timeout: int = 1200) -> subprocess.CompletedProcess:
    "Run `blocks` in order in a new Python process (cwd: the repository, matplotlib without a display)."
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(RUNNER.format(blocks=blocks))
    env = {**os.environ, "MPLBACKEND": "Agg"}
    try: return subprocess.run([sys.executable, f.name], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    finally: Path(f.name).unlink()


def main() -> int:
    broken = run_blocks(python_blocks("```python\nx = 1\n```\n\ntext\n\n```python\nprint(x + y)\n```\n"))
    if broken.returncode == 0 or "README block 2 of 2 failed" not in broken.stderr:
        print("FAILED the checker itself: a block using an undefined name was not caught")
        return 1
    blocks = python_blocks((ROOT / "README.md").read_text())
    if not blocks:
        print("FAILED README.md has no ```python block")
        return 1
    run = run_blocks(blocks)
    print(run.stdout.strip())
    if run.returncode:
        print("FAILED", run.stderr.strip()[-3000:])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
