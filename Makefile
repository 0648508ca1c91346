# Each target bootstraps .venv itself, so a fresh clone needs nothing but python3.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/patience deal black-hole --seed 1 --generator pysol -o /tmp/patience-demo-bh1.json
	$(BIN)/patience show /tmp/patience-demo-bh1.json --moves
	$(BIN)/patience solve /tmp/patience-demo-bh1.json --limit 10s
	$(BIN)/patience solve black-hole:2 --generator pysol --limit 10s -o /tmp/patience-demo-bh2-solution.json

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
