# Two commands do everything on a machine with only python3 and pip:
#   make test   set up .venv, then ruff, mypy --strict and pytest (doctests included)
#   make demo   set up .venv, then run the space-shooter demo (headless without a display)
#   make docs   build the documentation site (docs/_build/html) and run its code blocks
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The developer switch that keeps stale kernel caches never reaches a make target.
unexport ARCADE_COLLIDE_KEEP_KERNELS

.PHONY: test test-slow lint typecheck demo docs bench bench-narrowphase bench-world bench-arcade bench-queries bench-swept bench-response bench-platformer bench-engines bench-examples bench-tiles screenshots clean soak

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	touch $(STAMP)

DOCS_STAMP := $(VENV)/.docs-installed
$(DOCS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test,bench,docs]"
	touch $(DOCS_STAMP)

# Warnings are errors; then the pages' code blocks run and every public name is checked
# for a reference entry (both also run in `make test`).
docs: $(DOCS_STAMP)
	ARCADE_HEADLESS=1 $(BIN)/python -m sphinx -W --keep-going -q -b html docs docs/_build/html
	ARCADE_HEADLESS=1 $(BIN)/python -m pytest -q tests/test_docs_pages.py tests/test_docs_reference.py

lint: $(STAMP)
	$(BIN)/ruff check arcade_collide tests examples benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy --strict arcade_collide

test: lint typecheck
	ARCADE_HEADLESS=1 $(BIN)/python -m pytest -q -m "not slow"

test-slow: $(STAMP)
	ARCADE_HEADLESS=1 $(BIN)/python -m pytest -q -m slow

bench: bench-narrowphase bench-world

bench-narrowphase: $(STAMP)
	$(BIN)/python benchmarks/bench_narrowphase.py

# One scene or a smoke run: BENCH_ARGS="--scene level" or BENCH_ARGS="--quick".
bench-world: $(STAMP)
	$(BIN)/python benchmarks/bench_world.py $(BENCH_ARGS)

bench-arcade: $(STAMP)
	$(BIN)/python benchmarks/bench_arcade.py $(BENCH_ARGS)

# Queries and rays: the world (ECS, then sprites) and the geometry layer's ray walk.
bench-queries: $(STAMP)
	$(BIN)/python benchmarks/bench_queries.py $(BENCH_ARGS)
	$(BIN)/python benchmarks/bench_queries.py --bridge $(BENCH_ARGS)
	$(BIN)/python benchmarks/bench_rays.py
	$(BIN)/python benchmarks/bench_los.py $(BENCH_ARGS)

# Swept detection: 1,000 fast bullets through 100,000 thin walls, swept against not swept
# and pymunk, and each engine's crossings against a sub-stepped reference.
bench-swept: $(STAMP)
	$(BIN)/python benchmarks/bench_swept.py $(BENCH_ARGS)

# Game physics: resting stability, 200 platformer bodies against Arcade's engine, the
# drop-in engines and the ported examples against Arcade's originals, Tiled layers.
bench-response: $(STAMP)
	$(BIN)/python benchmarks/bench_response.py $(BENCH_ARGS)

bench-platformer: $(STAMP)
	$(BIN)/python benchmarks/bench_platformer.py $(BENCH_ARGS)

bench-engines: $(STAMP)
	ARCADE_HEADLESS=1 $(BIN)/python benchmarks/bench_engines.py $(BENCH_ARGS)

bench-examples: $(STAMP)
	ARCADE_HEADLESS=1 $(BIN)/python benchmarks/bench_examples.py $(BENCH_ARGS)

bench-tiles: $(STAMP)
	ARCADE_HEADLESS=1 $(BIN)/python benchmarks/bench_tiles.py $(BENCH_ARGS)

# Long runs of the churn, small and walk-cycle scenes: memory and tick time must stay flat
# (SOAK_ARGS="--scene small --ticks N" for one scene, shorter).
soak: $(STAMP)
	$(BIN)/python benchmarks/soak.py $(SOAK_ARGS)

# Headless (EGL, software rendering) when asked to, or on Linux without a display.
HEADLESS := $(if $(ARCADE_HEADLESS),1,$(if $(filter Linux,$(shell uname -s)),$(if $(DISPLAY)$(WAYLAND_DISPLAY),,1),))
EXAMPLES := space_shooter breakout triangle_lab stress line_of_sight thin_walls

demo: $(STAMP)
ifeq ($(HEADLESS),1)
	ARCADE_HEADLESS=1 $(BIN)/python examples/space_shooter.py --screenshot build/demo_space_shooter.png
else
	$(BIN)/python examples/space_shooter.py
endif

screenshots: $(STAMP)
	for name in $(EXAMPLES); do \
		ARCADE_HEADLESS=1 $(BIN)/python examples/$$name.py --screenshot docs/images/$$name.png || exit 1; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis docs/_build
