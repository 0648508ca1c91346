# Each target bootstraps .venv itself, so a fresh clone needs nothing but python3.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench crosscheck clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	$(BIN)/python -m patience.solvers.warm || echo "make: the search kernels did not compile now; they compile on first use"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/patience deal black-hole --seed 1 --generator pysol -o /tmp/patience-demo-bh1.json
	$(BIN)/patience show /tmp/patience-demo-bh1.json --moves
	$(BIN)/patience solve /tmp/patience-demo-bh1.json --limit 10s
	$(BIN)/patience solve black-hole:2 --generator pysol --limit 10s -o /tmp/patience-demo-bh2-solution.json
	@echo "patience is installed in $(VENV)/bin: 'source $(VENV)/bin/activate' puts it on PATH (README: Tour)"

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py

# dfs, planning and Solvitaire on seeds 1..50 of every game with a Solvitaire preset, 10 s a solve; exit 1 on a
# conflict. Long (hours on 2 cores); builds the peers first when missing.
crosscheck: $(STAMP)
	test -x .peers/solvitaire/bin/solvitaire || bash benchmarks/peers.sh solvitaire
	$(BIN)/python benchmarks/bench_crosscheck.py -n 50 --limit 10

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
