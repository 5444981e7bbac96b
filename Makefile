# The two commands of the README: `make demo` and `make test`. Each creates .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean

$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[train,dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/rulings-anon pipeline --config demo

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n auto --maxprocesses 4 --dist loadfile

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_placeholders.py
	$(BIN)/python benchmarks/bench_placeholders_loco.py
	$(BIN)/python -m rulings_anon.interactive.benchmark
	$(BIN)/python benchmarks/bench_hostile_inputs.py
	$(BIN)/python benchmarks/bench_beam.py
	$(BIN)/python benchmarks/bench_speed.py

clean:
	rm -rf $(VENV) runs build *.egg-info
