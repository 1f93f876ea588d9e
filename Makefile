VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: serve test bench lint services chromium

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	touch $@

$(DEVSTAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[dev]'
	touch $@ $(STAMP)

serve: $(STAMP)
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

test: $(DEVSTAMP) chromium services
	$(VENV)/bin/ruff check coup tests
	$(VENV)/bin/mypy
	$(PY) -m pytest -q

bench: $(STAMP)
	$(VENV)/bin/coup bench

lint: $(DEVSTAMP)
	$(VENV)/bin/ruff format coup tests
	$(VENV)/bin/ruff check --fix coup tests
	$(VENV)/bin/mypy
