# make demo: the local cloud with the plugin, in the foreground.  make test: every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed

.PHONY: install demo test lint conventions releasenotes docs jstest unit packaging integration \
	browser screenshots tour messages bench soak clean

install: $(INSTALLED)

$(INSTALLED): bindep.txt constraints.txt requirements-devcloud.txt test-requirements.txt setup.cfg \
		runner/pyproject.toml notify/pyproject.toml package.json package-lock.json
	sh devcloud/install-system-packages.sh
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -c constraints.txt -r requirements-devcloud.txt \
		-r test-requirements.txt -e ./runner[mistral,cli] -e ./notify[zaqar-signal] -e .
	# heat-agents' elements (hooks, 55-heat-config, heat-config-notify): its sdist only.
	$(BIN)/python -m devcloud.servers fetch
	@command -v npm >/dev/null || { echo "ESLint and Karma need Node.js 20 or newer and npm"; exit 1; }
	npm ci --no-audit --no-fund --silent
	touch $@

demo: install
	$(BIN)/python -m devcloud

# The integration and browser tests share one local cloud, started once by the first test
# that needs it, but for the modules marked second_cloud, which share a second one
# (build/testcloud-services, ports from 22000) beside it: those that stop services (which
# would fail the others' tests), change users, or wait minutes on Mistral. The unit tests (pytest-xdist, a process per core)
# and the packaging tests, which need no cloud, run beside them too; their output follows.
test: install lint conventions
	@mkdir -p build; \
	$(BIN)/python -m pytest -n auto tests/unit > build/unit-tests.log 2>&1 & unit=$$!; \
	$(BIN)/python -m pytest tests/packaging > build/packaging-tests.log 2>&1 & packaging=$$!; \
	TESTCLOUD_DIR=$(CURDIR)/build/testcloud-services TESTCLOUD_PORT_BASE=22000 \
		$(BIN)/python -m pytest --durations=10 -m second_cloud tests/integration \
		> build/services-tests.log 2>&1 & services=$$!; \
	$(BIN)/python -m pytest --durations=25 -m 'not second_cloud' tests/integration \
		tests/browser; others=$$?; \
	wait $$services; services_status=$$?; \
	wait $$unit; unit_status=$$?; wait $$packaging; packaging_status=$$?; \
	cat build/services-tests.log build/unit-tests.log build/packaging-tests.log; \
	test $$others -eq 0 && test $$services_status -eq 0 && test $$unit_status -eq 0 \
		&& test $$packaging_status -eq 0

# The pre-commit hooks (.pre-commit-config.yaml) over every file: no trailing whitespace,
# OpenStack's Python style (flake8 with hacking, configured in .flake8), and ESLint over the
# plugin's scripts (eslint.config.js, pinned by package-lock.json).
lint: install
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/pre-commit run --all-files

# OpenStack's conventions, each a few seconds: the release notes (reno lint, and their pages
# built), the documentation (Sphinx, warnings are errors; the command-line reference is made
# from the commands), and the scripts' Jasmine specs in headless Chromium (Karma, with a
# coverage threshold; karma.conf.js).
conventions: releasenotes docs jstest

releasenotes: install
	$(BIN)/reno lint
	$(BIN)/sphinx-build -a -E -W -q -d releasenotes/build/doctrees -b html releasenotes/source \
		releasenotes/build/html

docs: install
	$(BIN)/sphinx-build -a -E -W --keep-going -q -d doc/build/doctrees -b html doc/source \
		doc/build/html

jstest: install
	npm test

# The message catalogue templates (heat_deploy_dashboard/locale/*.pot) from every string marked
# for translation; the unit tests fail on a catalogue that is not current.
messages: install
	PYBABEL=$(BIN)/pybabel sh tools/extract_messages.sh

unit: install
	$(BIN)/python -m pytest -n auto tests/unit

# Both wheels (the plugin's and runner/'s) in a clean venv (build/packaging): pip check, and
# every panel rendered; and the runner's alone with [mistral]: no Horizon, its actions load.
packaging: install
	$(BIN)/python -m pytest tests/packaging

integration: install
	$(BIN)/python -m pytest tests/integration

browser: install
	$(BIN)/python -m pytest tests/browser

# The README's pictures, from the demo data, on a test cloud of their own.
screenshots: install
	$(BIN)/python -m tests.browser.screenshots doc/source/_static/images

# Every page of every panel in Chromium, a PNG each (build/tour), and a list of what looked wrong.
tour: install
	$(BIN)/python -m tests.browser.tour build/tour

# The benchmarks, on a fresh local cloud of their own: bench/RESULTS.md and bench/results.json.
bench: install
	$(BIN)/python -m bench

# Half an hour on a fresh cloud of its own, a service killed every two minutes (soak/).
soak: install
	$(BIN)/python -m soak

clean:
	rm -rf build $(VENV)
