# The whole set-up is `make reproduce` (the paper reproduction) and `make test`.
# Both create .venv and install the package with its dev extras when needed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: test test-slow lint docs reproduce studies benchmark benchmark-solver strip-notebooks clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,docs]'
	# Compile the exhaustive players' kernels now, not in the first game (cached per machine).
	$(BIN)/python -c 'from evo_mastermind import kernels; kernels.warm()'
	$(BIN)/python -c 'from evo_mastermind import sampling; sampling.warm()'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check evo_mastermind tests benchmarks notebooks docs
	$(BIN)/ruff format --check evo_mastermind tests benchmarks notebooks docs
	$(BIN)/mypy evo_mastermind tests benchmarks docs

test: lint
	$(BIN)/pytest

# The documentation site (docs/, mkdocs.yml) into site/; a broken link or reference fails it.
# The config and players references are generated at build time (docs/hooks.py).
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir site

test-slow: $(STAMP)
	$(BIN)/pytest -m slow

# The paper reproduction: every table's games under results/paper/<table>/ (resumable), its
# report and plots, and its verdicts against the published figures; the installed command does
# the same from any folder (`evo-mastermind reproduce [table2 ...]`).
reproduce: $(STAMP)
	$(BIN)/evo-mastermind reproduce

# The evolutionary studies beyond the paper (archive EA on (4,6), scaling to (8,12)): about
# an hour and a quarter on two cores; figures go to benchmarks/results/evolution.json.
studies: $(STAMP)
	$(BIN)/python -m benchmarks.bench_evolution

# Exhaustive players and game trees with the compiled kernels (about 5 minutes):
# figures go to benchmarks/results/engine.json.
benchmark: $(STAMP)
	$(BIN)/python -m benchmarks.bench_engine

# The same trees against Magruder's C++ solver, side by side, whole processes (about 5
# minutes): build the solver outside this repository first with benchmarks/build_solver.sh,
# then e.g. `make benchmark-solver SOLVER=/tmp/mm/bin`; figures go to results/solver.json.
benchmark-solver: $(STAMP)
	$(BIN)/python -m benchmarks.bench_solver --solver $(SOLVER)

# Notebooks are committed without outputs (small diffs): run this before committing one.
strip-notebooks: $(STAMP)
	for nb in notebooks/*.ipynb; do \
	  $(BIN)/python -c 'import sys, nbformat; nb = nbformat.read(sys.argv[1], as_version=4); \
	    code = [c for c in nb.cells if c.cell_type == "code"]; \
	    [c.update(outputs=[], execution_count=None, metadata={}) for c in code]; \
	    nb.metadata["language_info"] = {"name": "python"}; \
	    nbformat.write(nb, sys.argv[1])' $$nb || exit $$?; \
	done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache site .cache
