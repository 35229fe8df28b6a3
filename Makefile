# kifucam: the two entry points (make demo, make test) and the longer jobs.
# Every target first installs what is missing (scripts/bootstrap.sh), then builds.
JOBS ?= $(shell nproc)
SHARED ?= $(abspath ../shared)
export KIFUCAM_SHARED := $(SHARED)

.PHONY: all demo test build build-asan bench fuzz lint clean train install

all: build

build:
	@scripts/bootstrap.sh build
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
	@cmake --build build -j $(JOBS)

build-asan:
	@scripts/bootstrap.sh test
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DKIFUCAM_SANITIZE=ON >/dev/null
	@cmake --build build-asan -j $(JOBS)

# make install [PREFIX=/usr/local] [DESTDIR=/staging]: the Release build's kifucam and
# kifucam-render into PREFIX/bin, the man page kifucam(1), the bash completion and the
# documentation (CMake's install rules; DESTDIR is honoured by cmake --install).
PREFIX ?= /usr/local
install: build
	@cmake --install build --prefix "$(PREFIX)"

demo: build
	@scripts/demo.sh build

test: build-asan
	@cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --output-on-failure -j $(JOBS) --timeout 600

bench: build
	@scripts/bootstrap.sh bench
	@scripts/bench.sh build

fuzz:
	@scripts/bootstrap.sh test
	@CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKIFUCAM_FUZZ=ON -DKIFUCAM_TESTS=OFF >/dev/null
	@cmake --build build-fuzz -j $(JOBS)
	@scripts/fuzz.sh build-fuzz $(or $(FUZZ_SECONDS),600)

lint:
	@scripts/bootstrap.sh lint
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
	@scripts/lint.sh build

# The learned point reader (issue 18): renders and the roboflow-stones photos -> the
# weights in vision/model/ and the held-out figures (train/README.md). Hours, not minutes.
train: build
	@scripts/bootstrap.sh train
	@scripts/train.sh build

# The five held-out fold models alone (steps 1-4 of make train: the readers and the stone
# finders) and their figure on roboflow-stones; vision/model/ is left as it is. About
# 1 h 55 min on 2 cores from nothing (2026-12-07, a fresh machine with benches running
# beside it: renders, photos, the base and five fold readers about an hour, five finders
# about 11 minutes each; the sixth finder, the one of every photo, is make train's alone).
.PHONY: train-folds
train-folds: build
	@scripts/bootstrap.sh train
	@TRAIN_FOLDS_ONLY=1 scripts/train.sh build

clean:
	rm -rf build build-asan build-fuzz

# The long run (issue 10, not part of `make test`): an hour of generated footage of the
# whole demo game recorded in the Release build (speed, peak memory, RSS over time), then
# a shorter part under the sanitizers (build-asan). Figures: bench/longrun.md.
.PHONY: longrun
longrun: build build-asan
	@bash scripts/longrun.sh build build-asan
