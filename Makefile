VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev
# the compiled rules core and learning kernel (setup.py: mypyc and their C files), rebuilt
# when one of their sources changes
CORE := $(VENV)/.core
RULES_SOURCES := $(wildcard coup/rules/*.py coup/rules/*.c coup/envs/kernel/*.py coup/envs/kernel/*.c)
# make test expects the compiled core where a C compiler is
EXPECT_COMPILED := $(if $(shell command -v cc || command -v gcc),1,0)

.PHONY: serve test bench lint services chromium core sanitize lighthouse nginx

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
	@$(PY) -c "import coup.rules.core as c; print('coup.rules:', c.CORE, '-', c.WHY)"
	@$(PY) -c "import coup.envs.kernel as k, coup.envs.kernel.c_writer as w; print('coup.envs.kernel:', k.KERNEL, '-', k.WHY, '- observations:', 'the C writer' if w.WRITER else 'joined blocks')"

serve: $(STAMP) $(CORE)
	$(VENV)/bin/coup serve

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium) >/dev/null \
	  || echo "warning: could not install Debian's chromium; browser tests will be skipped"; }

# Debian's nginx, for the test that runs docs/deploy.md's nginx block
# (tests/scale/test_scale_rolling_restart.py; skipped with the reason where this fails)
nginx:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { \
	  (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx) >/dev/null \
	  || echo "warning: could not install nginx; the rolling-restart test will be skipped"; }

services:
	@pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null || \
	  pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start || true
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || \
	  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true

test: $(DEVSTAMP) core chromium nginx services
	$(VENV)/bin/ruff check coup tools tests setup.py
	$(VENV)/bin/mypy
	# two workers, each taking whole test files (a file's fixtures stay in one process);
	# then the tests that time something, with nothing running beside them
	COUP_EXPECT_COMPILED=$(EXPECT_COMPILED) $(PY) -m pytest -q -n 2 --dist loadfile -m "not alone"
	COUP_EXPECT_COMPILED=$(EXPECT_COMPILED) $(PY) -m pytest -q -m alone
	# the core as users without a compiler get it: the rules, records, bots and learning
	# environments again on the pure-Python modules
	COUP_PURE=1 $(PY) -m pytest -q -n 2 -p no:cacheprovider tests/rules tests/bots tests/envs \
	  tests/cli/test_replay_cli.py

# The hand-written C (the generator, the observation writer) built with AddressSanitizer and
# UndefinedBehaviorSanitizer into a copy of the tree beside the compiled modules, and its
# tests run there: any finding stops the run. The Python host is not instrumented, so the
# sanitizers' runtime is preloaded and Python allocates with malloc (so that a buffer's
# bounds are the sanitizer's too); leaks are not looked for (the interpreter keeps some
# memory to its end by design).
SANITIZE_DIR := build/sanitize
C_SOURCES := coup/rules/_rng.c coup/envs/kernel/_observe.c
SANITIZERS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
sanitize: $(DEVSTAMP) core
	rm -rf $(SANITIZE_DIR) && mkdir -p $(SANITIZE_DIR)
	tar -c --exclude=__pycache__ coup tests docs pyproject.toml | tar -x -C $(SANITIZE_DIR)
	include=$$($(PY) -c "import sysconfig; print(sysconfig.get_paths()['include'])"); \
	suffix=$$($(PY) -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"); \
	for source in $(C_SOURCES); do \
	  digest=$$(sha256sum $$source | cut -d' ' -f1); \
	  cc -shared -fPIC -g -O1 -Wall -Wextra -Werror $(SANITIZERS) -I$$include \
	    -DCOUP_C_SOURCE="\"$$digest\"" -o $(SANITIZE_DIR)/$${source%.c}$$suffix $$source \
	    || exit 1; \
	done
	cd $(SANITIZE_DIR) && $(SANITIZED) $(abspath $(PY)) -c "$$SANITIZED_CHECK"
	cd $(SANITIZE_DIR) && $(SANITIZED) COUP_EXPECT_COMPILED=1 $(abspath $(PY)) -m pytest -q \
	  -p no:cacheprovider tests/envs/test_envs_observation_writer.py \
	  tests/envs/test_envs_observation.py tests/rules/test_rules_generator.py

SANITIZED = LD_PRELOAD=$$(cc -print-file-name=libasan.so) PYTHONMALLOC=malloc \
	ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 PYTHONPATH=.
# the copy's C modules are the ones used, with the sanitizers' runtime loaded
define SANITIZED_CHECK
import os, coup.envs.kernel._observe as o, coup.rules._rng as r
import coup.envs.kernel.c_writer as w, coup.rules.rng as g
here = os.getcwd()
assert w.WRITER is not None and g._SHUFFLE_IN_C is not None, 'the C modules are not used'
assert o.__file__.startswith(here) and r.__file__.startswith(here), (o.__file__, r.__file__)
assert 'libasan' in open('/proc/self/maps').read(), 'no sanitizer runtime'
print('sanitized:', os.path.relpath(o.__file__), os.path.relpath(r.__file__))
endef
export SANITIZED_CHECK

bench: $(STAMP) core
	$(VENV)/bin/coup bench

# Lighthouse from the npm registry, into a git-ignored folder (not part of make test: it
# needs the registry once and takes a minute); docs/web.md quotes its figures.
# LIGHTHOUSE_ARGS: the tool's options, e.g. "--check" or "--cpu-slowdown auto"
LIGHTHOUSE_VERSION := 13.5.0
LIGHTHOUSE := .lighthouse/node_modules/.bin/lighthouse
LIGHTHOUSE_ARGS ?=
$(LIGHTHOUSE):
	npm install --no-audit --no-fund --prefix .lighthouse lighthouse@$(LIGHTHOUSE_VERSION)

lighthouse: $(STAMP) core chromium $(LIGHTHOUSE)
	CHROME_PATH=$$(command -v chromium) $(PY) -m tools.bench.lighthouse --lighthouse $(LIGHTHOUSE) $(LIGHTHOUSE_ARGS)

lint: $(DEVSTAMP)
	$(VENV)/bin/ruff format coup tools tests setup.py
	$(VENV)/bin/ruff check --fix coup tools tests setup.py
	$(VENV)/bin/mypy
