# Vedette: `make run` serves on http://127.0.0.1:8000 (embedded SQLite by default); `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test test-fast lint lint-imports typecheck bench clean browser-deps proxy-deps

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/vedette migrate
	$(BIN)/vedette serve

# Debian's chromium for the browser tests (never a downloaded browser).
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "chromium missing: apt-get install chromium" >&2; fi; }

# Debian's HAProxy for the deployed shape's test (tests/server/test_proxy.py; deploy/haproxy.cfg, docs/deployment.md).
proxy-deps:
	@command -v haproxy >/dev/null 2>&1 || test -x /usr/sbin/haproxy || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null; \
	  else echo "haproxy missing: apt-get install haproxy" >&2; fi; }

# Imports flow one way first (the contracts in pyproject.toml, drawn in docs/architecture.md), ruff's checks and
# the rules core's strict typing (mypy; seconds each), then every test.
# Two workers (pytest-xdist), each test module on one: on the 2-core machines the suite took 7.6 min serially
# and 5.1 min in two workers (23 min serially on a VM 2.6 times slower). The slow suites stay in.
test: install browser-deps proxy-deps
	$(BIN)/lint-imports
	$(BIN)/ruff check server tests bench
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

test-fast: install
	$(BIN)/python -m pytest -q -m "not slow"

lint: install
	$(BIN)/ruff check server tests bench

lint-imports: install
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy

# The rules benchmark; the server one takes options: bench/bench_server.py --db postgres --games 200 --think 2
bench: install
	$(BIN)/python bench/bench_rules.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache vedette.db tests/artifacts
