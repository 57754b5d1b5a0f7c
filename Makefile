# mempath - one Makefile. `make` builds build/mempath; `make run` installs
# missing build dependencies (Debian, as root), builds and runs the quick suite;
# `make test` runs unit, CLI and registry tests, then again under ASan+UBSan.

CC      ?= gcc
NVCC    ?= $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
# GPU=1 when nvcc was found; `make GPU=0` builds the same binary without CUDA.
GPU     ?= $(if $(NVCC),1,0)
BUILD   ?= build
GIT_HASH := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
VERSION := 0.1.0

WARN    := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
# CFLAGS is the user's (optimisation, sanitizers); BASE_CFLAGS always applies.
CFLAGS  ?= -O2 -g
BASE_CFLAGS := -std=gnu11 -D_GNU_SOURCE $(WARN) -pthread -fno-strict-aliasing \
	   -DMEMPATH_VERSION='"$(VERSION)"' -DMEMPATH_GIT='"$(GIT_HASH)"'
LDLIBS  := -ljansson -lnuma -lm -pthread -ldl -lrt
NVFLAGS ?= -O3 -std=c++17 -gencode=arch=compute_80,code=sm_80 \
	   -gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_90,code=compute_90

CORE_SRC   := $(wildcard src/core/*.c)
CMD_SRC    := $(wildcard src/cmd/*.c)
PROBE_SRC  := $(wildcard src/probes/*.c)
REPORT_SRC := $(wildcard src/report/*.c)
ifeq ($(GPU),1)
GPU_SRC    := $(filter-out src/gpu/none.c,$(wildcard src/gpu/*.c))
CU_SRC     := $(wildcard src/gpu/kernels/*.cu)
LDLIBS     += -L$(CUDA_HOME)/lib64 -lcudart_static -lstdc++
BASE_CFLAGS += -I$(CUDA_HOME)/include -DMEMPATH_GPU=1
else
GPU_SRC    := src/gpu/none.c
CU_SRC     :=
endif
LIB_SRC := $(CORE_SRC) $(PROBE_SRC) $(REPORT_SRC) $(GPU_SRC) $(CMD_SRC)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(CU_SRC:%.cu=$(BUILD)/%.o)

BIN := $(BUILD)/mempath

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all run test test-plain test-asan bench deps check-style format clean fuzz

all: $(BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libmempath.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(BUILD)/src/main.o $(BUILD)/libmempath.a
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libmempath.a
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -Isrc -o $@ $< $(BUILD)/libmempath.a $(LDLIBS) -lcmocka

deps:
	@sh tools/deps.sh

run: deps
	@$(MAKE) --no-print-directory all
	$(BIN) run --suite quick

# Unit + CLI + registry tests; then the same under ASan+UBSan in build-asan/.
test: deps
	@$(MAKE) --no-print-directory test-plain
	@$(MAKE) --no-print-directory test-asan

test-plain: $(BIN) $(UNIT_BIN)
	@sh tests/run.sh $(BUILD)

test-asan:
	@$(MAKE) --no-print-directory BUILD=build-asan GPU=0 \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		build-asan/mempath $(patsubst $(BUILD)/%,build-asan/%,$(UNIT_BIN))
	@MEMPATH_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1:handle_segv=0 sh tests/run.sh build-asan

bench: $(BIN)
	@sh tools/bench.sh $(BIN)

check-style:
	@clang-format --dry-run --Werror $(shell git ls-files 'src/*.c' 'src/*.h' 'tests/unit/*.c') \
		&& echo "check-style: ok"

format:
	clang-format -i $(shell git ls-files 'src/*.c' 'src/*.h' 'tests/unit/*.c')

clean:
	rm -rf build build-asan

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/main.d
