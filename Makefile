# The book's two everyday commands are `make book` and `make test`; see README.md.
SHELL := /bin/bash
# Another interpreter or environment: `make test PYTHON=python3.12 VENV=.venv312`
# (.ci/run's second leg). TEST_ARGS adds pytest arguments.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard notebooks/[0-9][0-9]_*.ipynb))

LAB := lab
LAB_COPIES := $(patsubst notebooks/%,$(LAB)/%,$(NOTEBOOKS))
LEARNER_STAMP := $(VENV)/.learner-installed

.PHONY: book test test-browser test-platforms test-bare lab lab-tensorflow reset-lab notebooks lint \
	clean vendor-js format-js gpu-outputs gpu-wheels site-zip regen cases

# The Python releases the book's pins have wheels for (requires-python, README.md).
SUPPORTED := Python 3.11.5 to 3.13
SUPPORTED_CHECK := import sys; v = sys.version_info[:3]; \
	sys.exit(0 if (3, 11, 5) <= v < (3, 14) else "Python %d.%d.%d cannot run the book: it \
	supports $(SUPPORTED) (its pinned packages have no wheels for others). Name one with \
	PYTHON=, e.g. make lab PYTHON=python3.12" % v)
# The interpreter behind $(VENV) must be $(PYTHON): made by another one (an earlier
# PYTHON=, a failed first try), $(VENV) is removed here and made anew below.
PYTHON_ID = import sys; print(sys.base_prefix, sys.version)
ifneq ($(wildcard $(VENV)/pyvenv.cfg),)
WANTED_ID := $(shell $(PYTHON) -c '$(PYTHON_ID)' 2>/dev/null)
ifneq ($(WANTED_ID),)
ifneq ($(WANTED_ID),$(shell $(PY) -c '$(PYTHON_ID)' 2>/dev/null))
$(info $(VENV) was made by another Python than $(PYTHON): removing it to make it anew)
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS))),)  # not in a dry run (make -n)
$(shell rm -rf $(VENV))
endif
endif
endif
endif

$(PY):
	@$(PYTHON) -c '$(SUPPORTED_CHECK)'
	$(PYTHON) -m venv $(VENV)

# Reinstall only when requirements.txt or pyproject.toml changed. The authors' set holds
# the learner's (requirements-learner.txt is a subset of its pins), so it counts for both.
$(STAMP): requirements.txt pyproject.toml | $(PY)
	@$(PY) -c '$(SUPPORTED_CHECK)'
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP) $(LEARNER_STAMP)

# The learner's set (no TensorFlow, no authors' toolchain), with pip's progress shown.
$(LEARNER_STAMP): requirements-learner.txt pyproject.toml | $(PY)
	@$(PY) -c '$(SUPPORTED_CHECK)'
	@echo "Installing the learner's set into $(VENV) (about 1.3 GB with a CPU torch;"
	@echo "PyPI's default torch on Linux downloads about 2.5 GB more). This takes minutes."
	$(PY) -m pip install --progress-bar on -r requirements-learner.txt
	touch $(LEARNER_STAMP)

book: $(STAMP)
	$(VENV)/bin/jupyter-book build . --all --warningiserror --keep-going --quiet
	@echo "The book is at $(CURDIR)/_build/html/index.html"

# The built site as one zip that works opened from disk (tools/build/site_zip.py says how).
site-zip: book
	$(PY) tools/build/site_zip.py --html _build/html --out _build/site.zip

# The JavaScript linters (ESLint, Prettier, TypeScript's checkJs; package.json's
# devDependencies), installed from package-lock.json when it changed.
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund
	touch $(NODE_STAMP)

JS_FORMATTED := "gatherlab/browser/**/*.{mjs,css}" "tests/js/*.mjs" "book/static/*.{js,css}" \
	eslint.config.mjs

lint: $(STAMP) $(NODE_STAMP)
	$(VENV)/bin/ruff check gatherlab tests tools notebooks
	$(VENV)/bin/ruff format --check gatherlab tests tools
	$(VENV)/bin/mypy
	node_modules/.bin/eslint .
	node_modules/.bin/prettier --check $(JS_FORMATTED)
	node_modules/.bin/tsc -p tsconfig.json

# Prettier's layout for the browser code and its tests, in place.
format-js: $(NODE_STAMP)
	node_modules/.bin/prettier --write $(JS_FORMATTED)

# The explorers' browser code against cases generated from gatherlab and torch
# (tools/cases/agreement_cases.py, tools/cases/scatter_agreement.py), the in-page
# exercises and their evaluator (tools/cases/page_cases.py, tools/cases/evaluator_cases.py),
# with Node's own test runner; then Python and notebooks. `make cases` writes those case
# files into tests/js/generated/ (git-ignored), again only where gatherlab, tools/cases,
# torch or TensorFlow changed (tools/cases/generate.py). The suites that drive Chromium
# (and JupyterLab) on the built book are `make test-browser`, which .ci/run runs too.
BROWSER_TESTS = tests/test_browser.py tests/test_page_exercises.py tests/test_site.py \
	tests/test_jupyterlab.py
test: lint cases
	node --test tests/js/
	$(VENV)/bin/pytest -rs -m "not network" --nbval --nbval-current-env \
		--nbval-sanitize-with tests/sanitize.cfg tests $(NOTEBOOKS) \
		$(addprefix --ignore=,$(BROWSER_TESTS)) $(TEST_ARGS)

# The built book in Debian's Chromium: explorers, every exercise answered in the page,
# axe in both schemes, phones, the site's links, the zipped site, JupyterLab.
test-browser: $(STAMP) cases
	$(VENV)/bin/pytest -rs -m "not network" $(BROWSER_TESTS) $(TEST_ARGS)

# Asks PyPI whether requirements.txt installs on every supported system and Python
# (metadata only, a few minutes); .ci/run runs it.
test-platforms: $(STAMP)
	$(VENV)/bin/pytest -rs -m network tests/test_platforms.py

# JupyterLab on the learner's own copies in lab/ (git-ignored), each made from the stored
# chapter on first use and never overwritten after: the tracked chapters stay untouched.
# The copies are trusted, so their stored explorers render (a fresh clone's notebooks
# are untrusted: JupyterLab would show no saved widget or HTML output). Jupyter refuses
# to run as root unless told; containers often run as root.
lab: $(LEARNER_STAMP) $(LAB_COPIES)
	$(VENV)/bin/jupyter trust $(LAB_COPIES)
	$(VENV)/bin/jupyter lab $(LAB) $(LAB_ARGS) $(if $(filter 0,$(shell id -u)),--allow-root)

$(LAB)/%.ipynb: | notebooks/%.ipynb
	@mkdir -p $(LAB)
	cp notebooks/$*.ipynb $@

# Put a chapter of lab/ back as stored (your answers in it are lost):
# `make reset-lab CHAPTER=03` (or CHAPTER=3), or CHAPTER=all for every chapter. A tab
# that JupyterLab holds open still has the old copy, and saving it would write that back.
RESET = $(if $(filter all,$(CHAPTER)),$(NOTEBOOKS),$(wildcard \
	notebooks/$(shell echo '$(CHAPTER)' | sed 's/^[0-9]$$/0&/')*.ipynb))
reset-lab:
	@test -n "$(CHAPTER)" || { echo "Say which chapter: make reset-lab CHAPTER=03 (or CHAPTER=all)"; exit 2; }
	@test -n "$(RESET)" || { echo "No chapter notebooks/$(CHAPTER)*.ipynb"; exit 2; }
	@mkdir -p $(LAB)
	@set -e; for stored in $(RESET); do \
		cp "$$stored" $(LAB)/ && echo "restored $(LAB)/$${stored#notebooks/}"; done
	@echo "If JupyterLab has it open: File > Reload Notebook from Disk, or Revert when it"
	@echo "asks 'File Changed' (or close the tab without saving). Overwrite there, or"
	@echo "saving the open tab, would put your old copy back."

# TensorFlow for the learner's environment, at the book's pins (its cells then run).
lab-tensorflow: $(LEARNER_STAMP)
	$(PY) -m pip install --progress-bar on -c <(grep -v '^-e' requirements.txt) \
		-r <(grep -E '^tensorflow' requirements.txt)

# Every chapter top to bottom in a throw-away environment made as a hosted notebook has
# it (torch, numpy, matplotlib, ipykernel, no TensorFlow): chapter 1 in the clone, then
# each chapter copied alone into an empty folder, its first cell installing the package
# from the repository _config.yml names, served from this clone (tools/run/bare_env.py;
# .ci/run runs it).
test-bare: $(STAMP)
	$(PY) -m tools.run.bare_env

notebooks: $(STAMP)
	$(PY) tools/run/execute_notebooks.py $(NOTEBOOKS)

# On a machine with CUDA: run every chapter as `make notebooks` does, store only its gpu
# cells' outputs (nothing else changes), then compare them once more. A bare GPU machine
# with Python and torch only: `make gpu-wheels` here, then there
# `python3 tools/run/execute_notebooks.py --wheels .whl --gpu-only notebooks/NN_*.ipynb`.
gpu-outputs: $(STAMP)
	$(PY) tools/run/execute_notebooks.py --gpu-only $(NOTEBOOKS)
	$(PY) tools/run/execute_notebooks.py --check $(NOTEBOOKS)

gpu-wheels: | $(PY)
	$(PY) tools/run/execute_notebooks.py --download-wheels .whl

# Refresh the vendored axe-core in tests/js/vendor from package-lock.json (needs npm;
# `make test` does not). Bump a version in package.json, then `npm install
# --package-lock-only --ignore-scripts` and this.
vendor-js: | $(PY)
	npm ci --ignore-scripts --no-audit --no-fund
	$(PY) tools/build/vendor_js.py

# The case files the browser code is checked against, made from the package where what
# they are made from changed; `make regen` makes every one again.
cases: $(STAMP)
	$(PY) -m tools.cases.generate

regen: $(STAMP)
	$(PY) -m tools.cases.generate --force

clean:
	rm -rf _build
