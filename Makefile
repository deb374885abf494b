# The book's two everyday commands are `make book` and `make test`; see README.md.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard notebooks/[0-9][0-9]_*.ipynb))

.PHONY: book test lab notebooks lint clean vendor-js gpu-outputs gpu-wheels

$(PY):
	python3 -m venv $(VENV)

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
# (tests/agreement_cases.py) and the in-page exercise checks (tests/page_cases.py),
# with Node's own test runner; then Python and notebooks.
test: lint
	node --test tests/js/
	$(VENV)/bin/pytest -rs --nbval --nbval-current-env --nbval-sanitize-with tests/sanitize.cfg \
		tests $(NOTEBOOKS)

# Jupyter refuses to run as root unless told; containers often run as root.
lab: $(STAMP)
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

clean:
	rm -rf _build
