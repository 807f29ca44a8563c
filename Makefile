# Two commands: `make run` starts the companion, `make test` runs every test.
# The first call of either creates .venv (with --system-site-packages so that on a Raspberry Pi
# the apt-installed Picamera2 is visible) and installs the project into it: `make run` (and
# scripts/install-service, through `make install`) only what the companion runs on; `make test`
# adds the test tools (pytest, hypothesis, schemathesis, Playwright — Playwright has no wheels
# for 32-bit ARM, and none of them belongs on a Pi's SD card).
# Two stamps say what is installed: .installed-stamp (runtime) and .installed-test-stamp (test
# tools); each is redone when pyproject.toml or the install plan changes.
#
# Where numpy and OpenCV come from is decided per machine by scripts/install_plan.py:
#   Raspberry Pi OS (Bookworm, Trixie): from apt (python3-numpy, python3-opencv), numpy pinned
#     to apt's version, so no second numpy can shadow the one Picamera2 was built against;
#   anywhere else: from PyPI (the project's "opencv" extra).
# OS_RELEASE_FILE (default /etc/os-release) and COMPANION_INSTALL=system|pypi change the decision.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
TEST_STAMP := $(VENV)/.installed-test-stamp
PLAN   := $(PYTHON) scripts/install_plan.py
# What pip installs: the project with the plan's extras (".[opencv]" off the Pi, "." on it),
# and for the tests the same plus the test tools.
RUNTIME_SPEC := $(shell $(PLAN) spec)
TEST_SPEC    := $(shell $(PLAN) spec test)
export OS_RELEASE_FILE COMPANION_INSTALL RPI_ISSUE_FILE DEVICE_MODEL_FILE
# A quiet first run: pip says only errors (make PIP_FLAGS= shows everything) and does not ask
# for a newer pip.
PIP_FLAGS ?= --quiet --quiet
export PIP_DISABLE_PIP_VERSION_CHECK = 1

.PHONY: run test bench browser clean help install install-test

help:
	@echo "make run    - start the companion on PORT (default 8000), data in COMPANION_DATA (default ./data)"
	@echo "make install - only build .venv with what the companion runs on (scripts/install-service uses it)"
	@echo "make test   - run every test (unit, API, crash, end-to-end in headless Chromium)"
	@echo "make bench  - vision benchmark: our counter vs a naive baseline, 500 synthetic frames, every real photo set, under drift, with other sample boxes, behind another tray, on trays of a saturated colour and with the cubes' sides in view"
	@$(PLAN) check | head -n 1

$(STAMP): pyproject.toml scripts/install_plan.py companion/hw/osinfo.py
	@$(PLAN) check
	@echo "Installing the companion into $(VENV) (first run or pyproject.toml changed; a few minutes)..."
	@$(PYTHON) -m venv --system-site-packages $(VENV)
	@$(PY) -m pip install $(PIP_FLAGS) --upgrade pip
	@$(PLAN) purge $(VENV)
	@$(PLAN) constraints > $(VENV)/constraints.txt
	@$(PY) -m pip install $(PIP_FLAGS) --constraint $(VENV)/constraints.txt -e '$(RUNTIME_SPEC)'
	@echo "Installed."
	@touch $@

$(TEST_STAMP): $(STAMP)
	@echo "Adding the test tools to $(VENV)..."
	@$(PY) -m pip install $(PIP_FLAGS) --constraint $(VENV)/constraints.txt -e '$(TEST_SPEC)'
	@touch $@

# Every install, fresh or not: apt's numpy/OpenCV must load (else the one command that fixes
# it), and no numpy/OpenCV wheel may sit in the environment to shadow them (a stale stamp is
# not needed for that: a `pip install` by hand can put one there any day).
install: $(STAMP)
	@$(PLAN) check >/dev/null
	@$(PLAN) purge $(VENV)

install-test: install $(TEST_STAMP)

run: install
	@$(PY) -m companion serve

browser:
	@scripts/ensure-chromium

test: install-test browser
	$(PY) -m pytest

bench: install
	$(PY) -m benchmarks.vision --drift --boxes --calibrations --surfaces --coloured --perspective --lens

clean:
	rm -rf $(VENV) .pytest_cache
