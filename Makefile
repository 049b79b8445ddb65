# The whole set-up is `make reproduce` (the paper reproduction) and `make test`.
# Both create .venv and install the package with its dev extras when needed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
WORKERS ?= 0

PAPER_TABLES := table2 table4 table5 table6
RUN := $(BIN)/evo-mastermind run --resume

.PHONY: test test-slow lint reproduce benchmark clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check evo_mastermind tests benchmarks
	$(BIN)/ruff format --check evo_mastermind tests benchmarks
	$(BIN)/mypy evo_mastermind tests benchmarks

test: lint
	$(BIN)/pytest

test-slow: $(STAMP)
	$(BIN)/pytest -m slow

# The paper reproduction: every table's games under results/paper/<table>/ (resumable).
reproduce: $(STAMP)
	for table in $(PAPER_TABLES); do \
	  $(RUN) configs/paper/$$table.yaml --out results/paper/$$table || exit $$?; \
	done

benchmark: $(STAMP)
	$(BIN)/python -m benchmarks.bench_engine

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
