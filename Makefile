# mempath - one Makefile. `make` builds build/mempath; `make run` installs
# missing build dependencies (Debian, as root), builds and runs the quick suite;
# `make test` runs unit, CLI and registry tests, then again under ASan+UBSan.
# MPI support (`mempath fleet`) is built where mpicc is found; `make MPI=0`.
# `make install` (PREFIX, DESTDIR) installs the binary, man page and completions.

CC      ?= gcc
NVCC    ?= $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
# NVCC_LAUNCHER: a command put before nvcc (.ci/run sets ccache, a compiler
# cache kept between runs on one machine; C compiles find ccache on PATH).
NVCC_LAUNCHER ?=
# GPU=1 when nvcc was found; `make GPU=0` builds the same binary without a GPU backend.
GPU     ?= $(if $(NVCC),1,0)
BUILD   ?= build
comma   := ,
GIT_HASH := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
VERSION := 0.1.0

# The reference values' folder compiled in as the last fallback (after
# --refs, $MEMPATH_REFS and the folders beside the binary): the checkout's
# data/ here; tools/deb.sh passes the installed /usr/share/mempath/data.
DATA_DIR ?= $(CURDIR)/data
WARN    := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
# CFLAGS is the user's (optimisation, sanitizers); BASE_CFLAGS always applies.
CFLAGS  ?= -O2 -g
BASE_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Isrc $(WARN) -pthread -fno-strict-aliasing \
	   -DMEMPATH_VERSION='"$(VERSION)"' -DMEMPATH_GIT='"$(GIT_HASH)"' \
	   -DMEMPATH_DATA='"$(DATA_DIR)"'
LDLIBS  := -ljansson -lnuma -lsqlite3 -lm -pthread -ldl -lrt

# Every folder under src/ but gpu/ is plain C built into the library; docs/design.md
# lists the folders and the one direction their includes run (make check-layers).
HOST_SRC   := $(filter-out src/main.c src/gpu/%,$(wildcard src/*.c src/*/*.c))
# The GPU backend, chosen at build time (docs/adding-a-backend.md): cuda with
# GPU=1 (nvcc found), none with GPU=0 (gpu_backend() returns NULL and every GPU
# probe skips); GPU_BACKEND=fake is the host-memory backend of the tests. One
# row per backend: its folder, whose backend.mk names its sources
# (GPU_BACKEND_SRC, GPU_DEVICE_SRC), their rules and its libraries (GPU_LDLIBS).
# backends.c and um.c (plain C: the sums of CUPTI's unified-memory records,
# unit-tested everywhere) are in every build.
GPU_BACKEND ?= $(if $(filter 1,$(GPU)),cuda,none)
GPU_DIR_cuda := src/gpu/cuda
GPU_DIR_fake := tests/gpu_fake
GPU_DIR_discovery := tests/gpu_discovery
GPU_SRC    := src/gpu/backends.c src/gpu/um.c
CU_SRC     :=
ifneq ($(GPU_BACKEND),none)
ifeq ($(GPU_DIR_$(GPU_BACKEND)),)
$(error GPU_BACKEND=$(GPU_BACKEND): no such backend (cuda, fake, discovery or none))
endif
include $(GPU_DIR_$(GPU_BACKEND))/backend.mk
GPU_SRC    += $(GPU_BACKEND_SRC)
CU_SRC     := $(GPU_DEVICE_SRC)
LDLIBS     += $(GPU_LDLIBS)
$(BUILD)/src/gpu/backends.o: BASE_CFLAGS += -DMEMPATH_GPU=1 \
	-DMEMPATH_GPU_TABLE=gpu_backend_$(GPU_BACKEND)
endif
# backends.o names the backend: rebuilt when GPU_BACKEND changes.
$(BUILD)/gpu-backend: FORCE
	@mkdir -p $(BUILD)
	@echo '$(GPU_BACKEND)' | cmp -s - $@ || echo '$(GPU_BACKEND)' >$@
$(BUILD)/src/gpu/backends.o: $(BUILD)/gpu-backend
# MPI=1 when an MPI C wrapper was found (Debian's openmpi, or the Open MPI an
# NVIDIA image keeps under /usr/local/mpi or /opt/hpcx); `make MPI=0` builds
# without it. Only src/exec/mpi_impl.c includes <mpi.h>: it is compiled with
# the wrapper's flags, and the binary links its libraries with an rpath so it
# runs where the library is not on the loader's path.
MPICC   ?= $(shell command -v mpicc 2>/dev/null || for p in /usr/local/mpi/bin/mpicc \
	     /opt/hpcx/ompi/bin/mpicc /usr/lib64/openmpi/bin/mpicc; do \
	     test -x $$p && echo $$p && break; done)
MPI     ?= $(if $(MPICC),1,0)
ifeq ($(MPI),1)
# Open MPI says --showme, MPICH -show; keep the -I -L -l -Wl words of either.
MPI_WORDS  := $(shell { $(MPICC) --showme 2>/dev/null || $(MPICC) -show 2>/dev/null; } | \
		tr ' ' '\n' | grep -E '^-(I|L|l|Wl|pthread)')
# MPI_RPATH=0 leaves the rpath out (the .deb: Debian's libmpi is on the
# loader's path, and policy forbids one).
MPI_RPATH  ?= 1
MPI_LIBS   := $(filter -L% -l% -Wl%,$(MPI_WORDS)) \
	      $(if $(filter 1,$(MPI_RPATH)),$(patsubst -L%,-Wl$(comma)-rpath$(comma)%,$(filter -L%,$(MPI_WORDS))))
LDLIBS     += $(MPI_LIBS)
$(BUILD)/src/exec/mpis.o: BASE_CFLAGS += -DMEMPATH_MPI=1
$(BUILD)/src/exec/mpi_impl.o: BASE_CFLAGS += $(filter -I%,$(MPI_WORDS))
else
# no MPI: mpi_get() returns NULL and `mempath fleet` says how to do without,
# and why there is none (MPI=0 asked for, or no mpicc found)
HOST_SRC   := $(filter-out src/exec/mpi_impl.c,$(HOST_SRC))
$(BUILD)/src/exec/mpis.o: BASE_CFLAGS += -DMEMPATH_NO_MPI_WHY='"$(if $(MPICC),make MPI=0 though mpicc is $(MPICC),no mpicc when it was built)"'
endif
# Only mpis.o says whether MPI is built in (the other objects are the same
# either way, so tools/deb.sh links its MPI build from the other's objects):
# rebuilt when MPI changes.
$(BUILD)/mpi-mode: FORCE
	@mkdir -p $(BUILD)
	@echo '$(MPI)' | cmp -s - $@ || echo '$(MPI)' >$@
$(BUILD)/src/exec/mpis.o: $(BUILD)/mpi-mode
LIB_SRC := $(HOST_SRC) $(GPU_SRC)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(patsubst %,$(BUILD)/%.o,$(basename $(CU_SRC)))

BIN := $(BUILD)/mempath

# The objects that record the commit (MEMPATH_GIT) are rebuilt when it
# changes, so a results file never names a commit older than its binary's.
.DEFAULT_GOAL := all
GIT_STAMP := $(BUILD)/git-hash
GIT_USERS := $(patsubst %.c,$(BUILD)/%.o,$(shell grep -l MEMPATH_GIT src/*.c src/*/*.c))
$(GIT_STAMP): FORCE
	@mkdir -p $(BUILD)
	@echo '$(GIT_HASH)' | cmp -s - $@ || echo '$(GIT_HASH)' >$@
$(GIT_USERS): $(GIT_STAMP)
.PHONY: FORCE
FORCE:

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

# Quiet by default, as kbuild: one short line a step ("  CC      src/x.c");
# `make V=1` prints the commands themselves.
V ?= 0
ifeq ($(V),1)
Q :=
say = :
else
Q := @
say = printf '  %-7s %s\n'
endif

PREFIX  ?= /usr/local
DESTDIR ?=

.PHONY: all run test test-plain test-unit test-asan test-topology test-study test-llama bench bench-rounds bench-gpu deps check-style check-layers check-size format clean fuzz \
	install uninstall deb test-deb test-image

all: $(BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(say) CC $<
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libmempath.a: $(LIB_OBJ)
	@rm -f $@
	@$(say) AR $@
	$(Q)ar rcs $@ $^

$(BIN): $(BUILD)/src/main.o $(BUILD)/libmempath.a
	@$(say) LD $@
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS)

# $(BUILD)/mempath-fake and mempath-discovery: the test backends
# (tests/gpu_fake/: host memory; tests/gpu_discovery/: PCI devices, nothing
# measured) linked with this build's host objects, so t2002 runs the GPU
# probes' logic without a GPU and t2004 a backend of discovery alone, for the
# cost of a few objects (make test-plain builds them).
TEST_BACKENDS := fake discovery
$(BUILD)/tests/gpu_%/backends.o: src/gpu/backends.c
	@mkdir -p $(dir $@)
	@$(say) CC $@
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -DMEMPATH_GPU=1 -DMEMPATH_GPU_TABLE=gpu_backend_$* \
		-MMD -MP -c $< -o $@
define test_backend
$(BUILD)/mempath-$(1): $(BUILD)/src/main.o $(HOST_SRC:%.c=$(BUILD)/%.o) $(BUILD)/src/gpu/um.o \
		       $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/gpu_$(1)/*.c)) \
		       $(BUILD)/tests/gpu_$(1)/backends.o
	@$$(say) LD $$@
	$$(Q)$$(CC) $$(BASE_CFLAGS) $$(CFLAGS) -o $$@ $$^ $$(LDLIBS)
-include $(patsubst %.c,$(BUILD)/%.d,$(wildcard tests/gpu_$(1)/*.c)) $(BUILD)/tests/gpu_$(1)/backends.d
endef
$(foreach b,$(TEST_BACKENDS),$(eval $(call test_backend,$(b))))

# every unit test is linked with tests/unit/cases.c, which runs or skips its
# cases by name (MEMPATH_ONLY_TESTS, MEMPATH_SKIP_TESTS; tests/README.md)
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/tests/unit/cases.o $(BUILD)/libmempath.a
	@mkdir -p $(dir $@)
	@$(say) LD $@
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/tests/unit/cases.o $(BUILD)/libmempath.a \
		$(LDLIBS) -lcmocka -Wl,--wrap=_cmocka_run_group_tests

deps:
	@sh tools/deps.sh

# The binary, mempath(1) and the bash and zsh completions (written by the
# binary from its tables) under $(DESTDIR)$(PREFIX).
install: $(BIN)
	@sh tools/install.sh $(BIN) "$(DESTDIR)" "$(PREFIX)"

# Debian packages in build-deb/: mempath_$(VERSION)_ARCH.deb (built without
# MPI) and, where an MPI C wrapper is found, mempath-mpi (the same program
# with MPI, for `fleet`); tools/deb.sh says why two. test-deb installs them
# into a clean bookworm chroot (made once, cached under /var/cache/mempath).
deb:
	@sh tools/deb.sh build-deb

test-deb: deb
	@sh tests/pkg/t9000-deb-chroot.sh build-deb; rc=$$?; \
	if [ $$rc -eq 77 ]; then echo "test-deb: skipped (the reason is above)"; exit 0; fi; \
	[ $$rc -eq 0 ] && echo "test-deb: pass"; exit $$rc

# The container image of tools/image.sh built from those packages with no
# registry, then `mempath doctor` and `mempath check --textfile` run in it
# with podman (tests/pkg/t9001-image.sh, docs/kubernetes.md). Skipped, saying
# why, where podman, debootstrap or root is missing.
test-image: deb
	@sh tests/pkg/t9001-image.sh build-deb; rc=$$?; \
	if [ $$rc -eq 77 ]; then echo "test-image: skipped (the reason is above)"; exit 0; fi; \
	[ $$rc -eq 0 ] && echo "test-image: pass"; exit $$rc

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/mempath" "$(DESTDIR)$(PREFIX)/share/man/man1/mempath.1" \
		"$(DESTDIR)$(PREFIX)/share/bash-completion/completions/mempath" \
		"$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_mempath" \
		"$(DESTDIR)$(PREFIX)/share/doc/mempath/LICENSE"
	rm -rf "$(DESTDIR)$(PREFIX)/share/mempath"

# RUN_OUT: the results file; the run ends with the two commands that read it.
RUN_OUT ?= mempath-quick-$(shell date +%Y%m%d-%H%M%S).json
run: deps
	@$(MAKE) --no-print-directory all
	$(BIN) run --suite quick -o $(RUN_OUT)
	@# each figure judged: by reference or limit where there is one, else its spread
	@echo; $(BIN) check --brief $(RUN_OUT) || [ $$? -eq 1 ]
	@# the traps that explain the numbers; exit 1 only means a warning was found
	$(BIN) doctor || [ $$? -eq 1 ]
	@echo
	@echo "next: is this normal for its kind of machine?   $(BIN) check $(RUN_OUT)"
	@echo "      busy figures, measured again when quiet:  $(BIN) check --again-quiet 600 -o $(RUN_OUT:.json=-again.json) $(RUN_OUT)"
	@echo "      the plots, in one page:                    $(BIN) report $(RUN_OUT) --format html -o $(RUN_OUT:.json=.html)"

# Unit + CLI + registry tests; the same under ASan+UBSan in build-asan/;
# the topology lab and its study across kernels (each skipped, saying why,
# where it cannot run). The stages run side by side, each whether or not
# another failed, the tests marked alone with nothing of ours beside them;
# the last lines say what each ran, passed, failed and skipped, and its
# time (tests/stages.sh). `make -j2 test` (.ci/run) builds in parallel too.
test: deps
	@sh tests/stages.sh '$(MAKE)' \
		'plain|test-plain|$(BUILD)/ ($(CC)): build, check-layers, check-size, every unit and CLI test' \
		'sanitizers|test-asan|build-asan/ ($(ASAN_CC), ASan+UBSan): the unit tests, the CLI tests marked sanitizers' \
		'topology|test-topology|the QEMU lab, tests/lab/topologies' \
		'study|test-study|the lab study across two kernels, tests/lab/study.plan'

test-plain: $(BIN) $(UNIT_BIN) $(TEST_BACKENDS:%=$(BUILD)/mempath-%)
	@# the fuzz targets are only linked by `make fuzz` (clang); compile-check them here so
	@# an API change cannot leave them broken
	@$(CC) $(BASE_CFLAGS) -fsyntax-only tests/fuzz/*.c
	@$(MAKE) --no-print-directory check-layers check-size
	@sh tests/run.sh $(BUILD)

# The unit tests alone (the CLI tests run in test-plain and test-asan): for
# a second compiler, whose build and warnings are what differ.
test-unit: $(BIN) $(UNIT_BIN)
	@$(CC) $(BASE_CFLAGS) -fsyntax-only tests/fuzz/*.c
	@sh tests/run.sh $(BUILD) unit

# MPI=0 under ASan: Open MPI keeps what MPI_Init allocated until exit, which
# LeakSanitizer would report in every rank; the fleet's own code runs here
# through fleet merge, report and check (the MPI tests skip, saying why).
# ASAN_CC picks the compiler of this pass: CI sets clang, so one build gives
# both the sanitizers and the second compiler's warnings (-Werror).
ASAN_CC ?= $(CC)
# The CLI tests of this pass: those marked `# test: sanitizers`, which reach
# the C lines the unit tests do not (tools/sanitize-pick.sh picks them);
# ASAN_TESTS=all runs every one.
ASAN_TESTS ?= sanitizers
test-asan:
	@$(MAKE) --no-print-directory BUILD=build-asan GPU=0 MPI=0 CC=$(ASAN_CC) \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		build-asan/mempath $(patsubst $(BUILD)/%,build-asan/%,$(UNIT_BIN))
	@MEMPATH_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1:handle_segv=0 sh tests/run.sh build-asan $(ASAN_TESTS)

# The topology lab (tests/lab/, docs/topology.md): each topology of
# tests/lab/topologies/ booted as a QEMU guest under TCG with a kernel
# (LAB_KERNEL, default the newest /boot/vmlinuz-*; LAB_MODULES its modules)
# and an initramfs of a MPI=0 GPU=0 build (build-lab/), the checks' results
# asserted here; LAB_TOPOLOGIES picks some; LAB_MEMPATH a MPI=0 GPU=0 binary
# built already in place of build-lab/ (.ci/run: make deb's). Skipped, saying
# why, without qemu-system-x86_64, a readable kernel, busybox-static or numactl.
LAB_KERNEL ?=
LAB_MODULES ?=
LAB_TOPOLOGIES ?=
LAB_MEMPATH ?=
test-topology:
	@LAB_MEMPATH='$(LAB_MEMPATH)' sh tests/lab/lab.sh $(if $(LAB_KERNEL),--kernel $(LAB_KERNEL)) \
		$(if $(LAB_MODULES),--modules $(LAB_MODULES)) $(LAB_TOPOLOGIES) || [ $$? -eq 77 ]

# The lab's study across kernels (tests/lab/study.sh, docs/topology.md): the
# plan tests/lab/study.plan on the tiered machine, one guest boot per kernel
# it asks for (Debian's 6.1 and 6.12 under LAB_KERNELS, default /; CI's
# deps unpack them, tools/deps.sh), LAB_MEMPATH as for test-topology;
# STUDY_ARGS more of study.sh's options (CI: --legs, --no-modswap).
# Skipped, saying why, without both kernels or what the lab needs.
LAB_KERNELS ?= /
STUDY_ARGS ?=
test-study:
	@LAB_MEMPATH='$(LAB_MEMPATH)' sh tests/lab/study.sh --kernels $(LAB_KERNELS) $(STUDY_ARGS) || [ $$? -eq 77 ]

# The real llama-bench: built (CPU only) from LLAMA_SRC, a llama.cpp source
# tree, into $(BUILD)/llama, then run through wrap (every output format, what
# backs the model) and ab (--mmap 1 vs 0 as per-leg args). Skipped, saying
# why, without LLAMA_SRC, cmake or numpy; not part of `make test`, which reads
# the recorded outputs in tests/data/llama/.
LLAMA_SRC ?=
test-llama: $(BIN)
	@sh tests/llama/run.sh "$(LLAMA_SRC)" $(BUILD)

# bench-rounds: verdicts on this busy machine under four loads (root: it flips
# THP and puts it back); BENCH_ROUNDS_K trials of each design, kind and load
# (4: 192 trials).
BENCH_ROUNDS_K ?= 4
bench: $(BIN)
	@sh tools/bench.sh $(BIN)
	@sh tools/bench-counters.sh $(BIN)
	@sh tools/bench-compare.sh $(BIN)
	@sh tools/bench-fleet.sh $(BIN)
	@sh tools/bench-history.sh $(BIN)
	@sh tools/bench-rounds.sh $(BIN) $(BENCH_ROUNDS_K)

bench-rounds: $(BIN)
	@sh tools/bench-rounds.sh $(BIN) $(BENCH_ROUNDS_K)

# GPU latencies beside nvbandwidth's latency tests (NVBANDWIDTH or one on PATH).
bench-gpu: $(BIN)
	@sh tools/bench-gpu.sh $(BIN)

# Includes and calls point one way, from commands down to the results model
# (tools/layers); no two modules reach each other.
check-layers: $(BIN)
	@sh tools/check-layers.sh src $(BUILD)/src

# No source file over 600 lines, no function over 150.
check-size:
	@sh tools/check-size.sh src

check-style:
	@clang-format --dry-run --Werror $(shell git ls-files 'src/*.c' 'src/*.h' 'tests/unit/*.c') \
		&& echo "check-style: ok"

format:
	clang-format -i $(shell git ls-files 'src/*.c' 'src/*.h' 'tests/unit/*.c')

# libFuzzer targets (tests/fuzz/fuzz_*.c) built with clang against the library
# compiled with coverage and ASan+UBSan in build-fuzz/, each run for
# FUZZ_SECONDS; not part of `make test`. Corpora grow in build-fuzz/corpus/,
# seeded from tests/data/*.json (tests/fuzz/seeds-* for opt, workload and
# args); crashes are written to build-fuzz/.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := results compare opt workload args
FUZZ_CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
		-fno-sanitize-recover=undefined

fuzz:
	@$(MAKE) --no-print-directory BUILD=build-fuzz GPU=0 MPI=0 CC=$(FUZZ_CC) CFLAGS="$(FUZZ_CFLAGS)" \
		$(FUZZ_TARGETS:%=build-fuzz/fuzz_%)
	@mkdir -p build-fuzz/seeds-json && cp tests/data/*.json build-fuzz/seeds-json/
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p build-fuzz/corpus/$$t || exit 1; \
		case $$t in opt) seeds=tests/fuzz/seeds-opt;; workload) seeds=tests/fuzz/seeds-workload;; args) seeds=tests/fuzz/seeds-args;; *) seeds=build-fuzz/seeds-json;; esac; \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
		(cd build-fuzz && ./fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-close_fd_mask=3 -dict=../tests/fuzz/$$t.dict -artifact_prefix=crash-$$t- \
			corpus/$$t ../$$seeds) || exit 1; \
	done

# Only `make fuzz` builds these, with clang and the fuzzing flags above.
$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(BUILD)/libmempath.a
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(BUILD)/libmempath.a $(LDLIBS)

clean:
	rm -rf build build-asan build-fuzz

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/main.d $(BUILD)/tests/unit/cases.d
.SECONDARY: $(BUILD)/tests/unit/cases.o
