VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev
# the compiled rules core (setup.py: mypyc and one C file) and the environments' C copy of
# arrays, rebuilt when one of their sources changes
CORE := $(VENV)/.core
RULES_SOURCES := $(wildcard coup/rules/*.py coup/rules/*.c coup/envs/*.c)
# make test expects the compiled core where a C compiler is
EXPECT_COMPILED := $(if $(shell command -v cc || command -v gcc),1,0)

.PHONY: serve test bench lint services chromium core lighthouse

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(STAMP): pyproject.toml setup.py | $(PY)
	$(PY) -m pip install -q -e .
	touch $@ $(CORE)

$(DEVSTAMP): pyproject.toml setup.py | $(PY)
	$(PY) -m pip install -q -e '.[dev]'
	touch $@ $(STAMP) $(CORE)

$(CORE): $(RULES_SOURCES) | $(STAMP)
	$(PY) -m pip install -q --no-deps -e .
	touch $@

core: $(CORE)
	@$(PY) -c "import coup.rules.core as c, coup.rules.writer as w; print('coup.rules:', c.CORE, '-', c.WHY, '- observations:', 'the C writer' if w.WRITER else 'joined blocks')"
	@$(PY) -c "import coup.envs.arrays as a; print('coup.envs: arrays copied by', 'the C copy' if a.FAST_COPY else 'ndarray.copy')" 2>/dev/null || true

serve: $(STAMP) $(CORE)
	$(VENV)/bin/coup serve

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium) >/dev/null \
	  || echo "warning: could not install Debian's chromium; browser tests will be skipped"; }

services:
	@pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null || \
	  pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start || true
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || \
	  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true

test: $(DEVSTAMP) core chromium services
	$(VENV)/bin/ruff check coup tools tests setup.py
	$(VENV)/bin/mypy
	COUP_EXPECT_COMPILED=$(EXPECT_COMPILED) $(PY) -m pytest -q
	# the rules and records again on the pure-Python core
	COUP_PURE=1 $(PY) -m pytest -q -p no:cacheprovider tests/rules tests/cli/test_replay_cli.py

bench: $(STAMP) core
	$(VENV)/bin/coup bench

# Lighthouse from the npm registry, into a git-ignored folder (not part of make test: it
# needs the registry once and takes a minute); docs/web.md quotes its figures
LIGHTHOUSE_VERSION := 13.5.0
LIGHTHOUSE := .lighthouse/node_modules/.bin/lighthouse
$(LIGHTHOUSE):
	npm install --no-audit --no-fund --prefix .lighthouse lighthouse@$(LIGHTHOUSE_VERSION)

lighthouse: $(STAMP) core chromium $(LIGHTHOUSE)
	CHROME_PATH=$$(command -v chromium) $(PY) -m tools.bench.lighthouse --lighthouse $(LIGHTHOUSE)

lint: $(DEVSTAMP)
	$(VENV)/bin/ruff format coup tools tests setup.py
	$(VENV)/bin/ruff check --fix coup tools tests setup.py
	$(VENV)/bin/mypy
