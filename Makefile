# The book's two everyday commands are `make book` and `make test`; see README.md.
SHELL := /bin/bash
# Another interpreter or environment: `make test PYTHON=python3.12 VENV=.venv312`
# (.ci/run's second leg). TEST_ARGS adds pytest arguments.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard notebooks/[0-9][0-9]_*.ipynb))

.PHONY: book test test-platforms lab notebooks lint clean vendor-js gpu-outputs gpu-wheels regen

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when requirements.txt or pyproject.toml changed.
$(STAMP): requirements.txt pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

book: $(STAMP)
	$(VENV)/bin/jupyter-book build . --all --warningiserror --keep-going --quiet
	@echo "The book is at $(CURDIR)/_build/html/index.html"

lint: $(STAMP)
	$(VENV)/bin/ruff check gatherlab tests tools notebooks
	$(VENV)/bin/ruff format --check gatherlab tests tools
	$(VENV)/bin/mypy

# The explorers' browser code against cases generated from gatherlab and torch
# (tests/agreement_cases.py) and the in-page exercise checks (tools/page_cases.py),
# with Node's own test runner; then Python and notebooks.
test: lint
	node --test tests/js/
	$(VENV)/bin/pytest -rs -m "not network" --nbval --nbval-current-env \
		--nbval-sanitize-with tests/sanitize.cfg tests $(NOTEBOOKS) $(TEST_ARGS)

# Asks PyPI whether requirements.txt installs on every supported system and Python
# (metadata only, a few minutes); .ci/run runs it.
test-platforms: $(STAMP)
	$(VENV)/bin/pytest -rs -m network tests/test_platforms.py

# The shipped notebooks are trusted first, so their stored explorers render (a fresh
# clone's notebooks are untrusted: JupyterLab would show no saved widget or HTML output).
# Jupyter refuses to run as root unless told; containers often run as root.
lab: $(STAMP)
	$(VENV)/bin/jupyter trust $(NOTEBOOKS)
	$(VENV)/bin/jupyter lab notebooks $(LAB_ARGS) $(if $(filter 0,$(shell id -u)),--allow-root)

notebooks: $(STAMP)
	$(PY) tools/execute_notebooks.py $(NOTEBOOKS)

# On a machine with CUDA: run every chapter's gpu cells, store their outputs in place
# (nothing else changes), then compare them once more. A bare GPU machine without this
# environment uses `make gpu-wheels` here and tools/gpu_device_run.sh there.
gpu-outputs: $(STAMP)
	$(PY) tools/gpu_outputs.py $(NOTEBOOKS)
	$(PY) tools/gpu_outputs.py --check $(NOTEBOOKS)

gpu-wheels: | $(PY)
	$(PY) tools/gpu_outputs.py --download-wheels .whl

# Refresh the vendored axe-core in tests/js/vendor from package-lock.json (needs npm;
# `make test` does not). Bump a version in package.json, then `npm install
# --package-lock-only --ignore-scripts` and this.
vendor-js: | $(PY)
	npm ci --ignore-scripts --no-audit --no-fund
	$(PY) tools/vendor_js.py

# Regenerate the stored cases the browser code is checked against, after changing an
# exercise, the feedback's words or the explorers' rules (the tests say when).
regen: $(STAMP)
	$(PY) tools/page_cases.py
	$(PY) -m tests.agreement_cases

clean:
	rm -rf _build
