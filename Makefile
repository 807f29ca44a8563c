# Two commands: `make run` starts the companion, `make test` runs every test.
# The first call of either creates .venv (with --system-site-packages so that on a Raspberry Pi
# the apt-installed Picamera2 is visible) and installs the project into it.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: run test bench browser clean help

help:
	@echo "make run    - start the companion on PORT (default 8000), data in COMPANION_DATA (default ./data)"
	@echo "make test   - run every test (unit, API, crash, end-to-end in headless Chromium)"
	@echo "make bench  - vision benchmark: our counter vs a naive baseline on 500 synthetic frames"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv --system-site-packages $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $@

run: $(STAMP)
	$(PY) -m companion serve

browser:
	@scripts/ensure-chromium

test: $(STAMP) browser
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m benchmarks.vision

clean:
	rm -rf $(VENV) .pytest_cache
