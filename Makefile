# ldp_truth: the two commands a new user needs are `make run` and `make test`.
# Each creates .venv and installs what it needs on first use (PyPI only, nothing else is downloaded).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run

.PHONY: run test export bench readme docs clean

$(STAMP): setup.py settings.ini
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(RUN_STAMP)

# what `make run` needs: the library and its report (numpy, scipy, pandas, matplotlib, tqdm, numba), not the dev
# and docs stack that `make test` adds
$(RUN_STAMP): setup.py settings.ini
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

## run: the main job, the privacy–utility report (every LDP mechanism × aggregator on every dataset found, without and with privacy: tables, trade-off figures, per-worker budgets) -> report/; finished fits are kept in report.cache/, so an interrupted run resumes and a repeated one fits nothing
run: $(RUN_STAMP)
	$(BIN)/ldp-truth report --out report

## test: no library line over 100 characters, every notebook's tests (slow cells skipped; `make test FLAGS=slow`
## runs those too), the README's code blocks in order in a fresh interpreter, then the docs site in headless
## Chromium with the network off (skipped, with a message, where Chromium is not installed)
test: $(STAMP)
	$(BIN)/python tools/test_style.py
	cd nbs && ../$(BIN)/nbdev_test --n_workers 2 --timing $(if $(FLAGS),--flags "$(FLAGS)")
	$(BIN)/python tools/test_readme.py
	$(BIN)/python tools/test_site.py

## export: write the library from the notebooks
export: $(STAMP)
	$(BIN)/nbdev_export

## bench: crowd-kit vs ldp_truth speed and memory (several minutes)
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_inference.py

## readme: README.md from nbs/index.ipynb
readme: $(STAMP)
	$(BIN)/python tools/make_readme.py

## docs: the documentation site -> _docs/ (Quarto if installed, else smalldocs; offline): open _docs/index.html
docs: $(STAMP)
	$(BIN)/python tools/make_docs.py

clean:
	rm -rf _proc _docs report report.cache
