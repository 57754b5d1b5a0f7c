#!/bin/sh
# tools/llama-gpu.sh [PHASE...] - llama.cpp's llama-bench on a machine with two
# GPUs (and no internet) through `mempath wrap` and `mempath ab`, the layout
# of tiered-memory and multi-GPU llama-bench reports (docs/design.md §11):
#
#   build  mempath (make), llama-bench for CUDA sm_90 only from the carried
#          source (third_party/llama-pack.tar.gz, made by tools/llama-pack.sh;
#          cmake, else llama.cpp's own Makefile), and two random-weight F16
#          models written with its gguf-py (tools/llama-model.py): 8 B
#          parameters (16 GB, both GPUs' memory bandwidth) and 162 M (CPU)
#   split  wrap -n 6 of llama-bench -sm layer,row across both GPUs (-ngl 99)
#   peer   ab of -sm row with peer access as llama.cpp uses it (A) and with
#          the CUDA runtime telling it that no peer access exists (B: an
#          LD_PRELOAD shim of cudaDeviceCanAccessPeer, so llama.cpp enables
#          none and cross-GPU copies are staged by the driver); ABA
#   ubatch the peer ab for prompts at -ub 128 and 512 (why no-peer can win pp)
#   thp    ab of THP madvise -> always -> madvise with --mmap 0 on the CPU
#          (CUDA_VISIBLE_DEVICES=, -ngl 0; the THP setting found is restored)
#
# Default: all four, in that order, each only if it fits in what is left of
# BUDGET_S (570 s: one device call of 10 minutes) by its estimate; a phase
# that does not fit is named as skipped and runs in the next call. Work
# (the builds, the models) stays in LLAMA_WORK (default /var/tmp/mempath-llama,
# disk-backed: a model on tmpfs would be shared memory, not a file), so a
# second call on a machine still warm skips the build. Everything measured
# goes to $OUT (the device's folder that comes back; default ./llama-gpu-out):
# log.txt, env.txt, the tables as Markdown and results.tar.gz (every JSON file,
# the fingerprints and raw samples). Never touches GPU clocks or power;
# NCCL_NVLS_ENABLE=0 (llama.cpp does not use NCCL; set anyway).
# The sizes: RUNS (6 runs a leg), LB_GPU ("-p 512 -n 128 -r 3"), LB_CPU
# ("-p 64 -n 32 -r 3 -t 16").
set -u
T0=$(date +%s)
top=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$top/llama-gpu-out}
work=${LLAMA_WORK:-/var/tmp/mempath-llama}
budget=${BUDGET_S:-570}
runs=${RUNS:-6}
lb_gpu=${LB_GPU:--p 512 -n 128 -r 3}
lb_cpu=${LB_CPU:--p 64 -n 32 -r 3 -t 16}
jobs=$(nproc 2>/dev/null || echo 8)
export NCCL_NVLS_ENABLE=0
mkdir -p "$OUT" "$work/results"
R=$work/results
mempath=$top/build/mempath
log() { echo "[llama-gpu $(date -u +%H:%M:%S) +$(($(date +%s) - T0))s] $*" | tee -a "$OUT/log.txt"; }
left() { echo $((budget - ($(date +%s) - T0))); }
# fits EST_S NAME: 0 when the phase's estimate fits in the time left
fits() {
	[ "$(left)" -ge "$1" ] && return 0
	log "SKIPPED $2: about $1 s needed, $(left) s left of $budget (run: tools/llama-gpu.sh $2)"
	return 1
}

# ---- build ------------------------------------------------------------------
deps() {
	export PATH=$PATH:/usr/local/cuda/bin
	[ -n "${deps_done:-}" ] && return 0
	deps_done=1
	for tool in cc make nvcc python3; do
		command -v $tool >/dev/null 2>&1 || log "missing: $tool"
	done
	py=""
	for cand in ${PYTHON:-} python3 /usr/bin/python3; do
		"$cand" -c 'import numpy' 2>/dev/null && py=$cand && break
	done
	[ -n "$py" ] || log "missing: a python3 with numpy (the models cannot be written)"
	# mempath's libraries (jansson, numa, sqlite3): the carried Debian packages, unpacked apart from /
	if [ ! -f /usr/include/jansson.h ] || [ ! -f /usr/include/numa.h ] || [ ! -f /usr/include/sqlite3.h ]; then
		root=$work/deps
		[ -f "$root/usr/include/jansson.h" ] || for d in "$top"/third_party/debs/*.deb; do
			[ -f "$d" ] && dpkg -x "$d" "$root"
		done
		lib=$root/usr/lib/x86_64-linux-gnu
		export C_INCLUDE_PATH=$root/usr/include LIBRARY_PATH=$lib LD_LIBRARY_PATH=$lib
		# the -dev packages' .so links point at the runtime files unpacked beside them
		log "libjansson/libnuma/libsqlite3 from third_party/debs unpacked in $root"
	fi
}

build_mempath() {
	[ -x "$mempath" ] && return 0
	(cd "$top" && make -j"$jobs" MPI=0 >"$work/mempath-build.log" 2>&1)
}

build_llama() {
	src=$work/llama.cpp
	if [ ! -d "$src" ]; then
		[ -f "$top/third_party/llama-pack.tar.gz" ] || { log "no third_party/llama-pack.tar.gz (carry third_party)"; return 1; }
		tar xzf "$top/third_party/llama-pack.tar.gz" -C "$work"
	fi
	if command -v cmake >/dev/null 2>&1; then
		gen=""
		command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
		bench=$work/build-cuda/bin/llama-bench
		[ -x "$bench" ] && return 0
		# sm_90 only; the CUDA runtime shared, so the peer phase's shim sees its calls
		# shellcheck disable=SC2086
		cmake -S "$src" -B "$work/build-cuda" $gen -DCMAKE_BUILD_TYPE=Release -DGGML_CUDA=ON \
			-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_RUNTIME_LIBRARY=Shared -DLLAMA_CURL=OFF \
			-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=OFF >"$work/llama-cmake.log" 2>&1 &&
			cmake --build "$work/build-cuda" --target llama-bench -j "$jobs" >"$work/llama-build.log" 2>&1
	else
		log "no cmake: llama.cpp's Makefile (LLAMA_MAKEFILE=1), sm_90"
		bench=$src/llama-bench
		[ -x "$bench" ] && return 0
		make -C "$src" LLAMA_MAKEFILE=1 GGML_CUDA=1 CUDA_DOCKER_ARCH=sm_90 -j"$jobs" llama-bench \
			>"$work/llama-build.log" 2>&1
	fi
}

write_models() {
	gguf=$work/llama.cpp/gguf-py
	# written under a temporary name, so a call stopped mid-write leaves no
	# truncated model that the next call would take as done
	for m in 8b:m8b 168m:m168; do
		[ -s "$work/${m#*:}.gguf" ] && continue
		"$py" "$top/tools/llama-model.py" --gguf-py "$gguf" --size "${m%%:*}" \
			-o "$work/${m#*:}.gguf.part" >"$work/model-${m%%:*}.log" 2>&1 &&
			mv "$work/${m#*:}.gguf.part" "$work/${m#*:}.gguf"
	done
}

find_bench() {
	bench=$work/build-cuda/bin/llama-bench
	[ -x "$bench" ] || bench=$work/llama.cpp/llama-bench
	[ -x "$bench" ]
}

phase_build() {
	t=$(date +%s)
	deps
	[ -d "$work/llama.cpp" ] || tar xzf "$top/third_party/llama-pack.tar.gz" -C "$work" || return 1
	# the models while llama.cpp compiles (python: one core of many)
	write_models &
	mpid=$!
	build_mempath &
	bpid=$!
	build_llama
	lrc=$?
	wait $bpid
	brc=$?
	wait $mpid
	log "build: mempath rc=$brc, llama-bench rc=$lrc ($(($(date +%s) - t)) s); models: $(cat "$work"/model-*.log 2>/dev/null | tr '\n' ' ')"
	[ $brc -eq 0 ] || { tail -n 20 "$work/mempath-build.log" | tee -a "$OUT/log.txt"; return 1; }
	[ $lrc -eq 0 ] || { tail -n 30 "$work/llama-build.log" | tee -a "$OUT/log.txt"; return 1; }
	find_bench && [ -s "$work/m8b.gguf" ] && [ -s "$work/m168.gguf" ]
}

# ---- the measurements ---------------------------------------------------------
env_facts() {
	{
		date -u
		uname -a
		nvidia-smi -L
		nvidia-smi --query-gpu=index,name,memory.total,clocks.max.sm,power.limit --format=csv
		nvidia-smi topo -m
		echo "llama-bench: $bench"
		ls -la "$work"/*.gguf
		stat -f -c 'models on: %T' "$work"
		cat /sys/kernel/mm/transparent_hugepage/enabled
		nproc
	} >"$OUT/env.txt" 2>&1
}

phase_split() {
	fits 150 split || return 0
	log "split: wrap -n $runs of -sm layer,row, 8B F16 on both GPUs"
	# shellcheck disable=SC2086
	"$mempath" wrap -n "$runs" --timeout 240 --label sm-layer-row -f md -o "$R/wrap-split.json" -- \
		"$bench" -m "$work/m8b.gguf" -ngl 99 -sm layer,row $lb_gpu -o json \
		>"$OUT/wrap-split.md" 2>>"$OUT/log.txt"
	log "split: rc=$?"
}

# make_shim: $work/libnopeer.so, the no-peer shim (0 when it built)
make_shim() {
	shim=$work/libnopeer.so
	cat >"$work/nopeer.c" <<'C'
/* LD_PRELOAD shim: the CUDA runtime answers that no device can access
 * another's memory, so llama.cpp enables no peer access and the driver
 * stages cross-device copies through the host. Logs its first answer. */
#include <stdio.h>
#include <stdlib.h>
int cudaDeviceCanAccessPeer(int *can, int dev, int peer)
{
	static int said;
	const char *logf = getenv("NOPEER_LOG");
	*can = 0;
	if (!said++ && logf) {
		FILE *f = fopen(logf, "a");
		if (f) {
			fprintf(f, "cudaDeviceCanAccessPeer(%d, %d) answered 0\n", dev, peer);
			fclose(f);
		}
	}
	return 0; /* cudaSuccess */
}
C
	cc -shared -fPIC -O2 -o "$shim" "$work/nopeer.c" || { log "the no-peer shim did not build"; return 1; }
}

phase_peer() {
	fits 210 peer || return 0
	make_shim || return 0
	rm -f "$R/nopeer.log" && rm -rf "$R/peer"
	log "peer: ab -sm row, peer access as llama.cpp uses it vs none (LD_PRELOAD shim)"
	# shellcheck disable=SC2086
	"$mempath" ab --label-a peer --label-b no-peer \
		--b-env "LD_PRELOAD=$shim" --b-env "NOPEER_LOG=$R/nopeer.log" -o "$R/peer" -- \
		wrap -n "$runs" --timeout 240 -- "$bench" -m "$work/m8b.gguf" -ngl 99 -sm row $lb_gpu -o json \
		>"$OUT/peer-compare.txt" 2>>"$OUT/log.txt"
	rc=$?
	if [ -s "$R/nopeer.log" ]; then
		log "peer: rc=$rc; the shim answered in the no-peer legs: $(head -n 1 "$R/nopeer.log")"
	else
		log "peer: rc=$rc; the shim was NEVER called: no-peer legs ran as the peer legs did"
	fi
	cp "$R/peer/compare.md" "$OUT/peer-compare.md" 2>/dev/null
}

# ubatch: the peer ab again for prompts only, at -ub 128 and 512. llama.cpp
# (b4748 ggml-cuda.cu, ggml_cuda_set_peer_access) enables peer access for
# ops on split weights with at most GGML_CUDA_PEER_MAX_BATCH_SIZE (128) rows
# and disables it above, synchronising every GPU at each switch; with -ub 512
# a prompt's layers disable it and its one-row output enables it again, so
# the switches cost what the no-peer shim never pays. At -ub 128 nothing
# switches: peer access should then win, or the switch is not the cause.
phase_ubatch() {
	fits 200 ubatch || return 0
	make_shim || return 0
	rm -rf "$R/ubatch"
	log "ubatch: ab -sm row -p 512 -n 0 -ub 128,512, peer vs none"
	"$mempath" ab --label-a peer --label-b no-peer \
		--b-env "LD_PRELOAD=$shim" -o "$R/ubatch" -- \
		wrap -n "$runs" --timeout 240 -- "$bench" -m "$work/m8b.gguf" -ngl 99 -sm row -p 512 -n 0 \
		-ub 128,512 -r 3 -o json >"$OUT/ubatch-compare.txt" 2>>"$OUT/log.txt"
	log "ubatch: rc=$?"
	cp "$R/ubatch/compare.md" "$OUT/ubatch-compare.md" 2>/dev/null
}

phase_thp() {
	fits 150 thp || return 0
	thp=/sys/kernel/mm/transparent_hugepage/enabled
	[ -w "$thp" ] || { log "thp: $thp not writable: skipped"; return 0; }
	orig=$(sed 's/.*\[\(.*\)\].*/\1/' "$thp")
	rm -rf "$R/thp"
	log "thp: ab madvise -> always -> madvise (found: $orig, restored after), --mmap 0, CPU only"
	"$mempath" ab --a "echo madvise > $thp" --b "echo always > $thp" --restore "echo $orig > $thp" \
		--expect-diff thp_enabled --label-a madvise --label-b always \
		--a-env CUDA_VISIBLE_DEVICES= --b-env CUDA_VISIBLE_DEVICES= -o "$R/thp" -- \
		wrap -n "$runs" --timeout 120 -- "$bench" -m "$work/m168.gguf" -ngl 0 --mmap 0 $lb_cpu \
		-o json >"$OUT/thp-compare.txt" 2>>"$OUT/log.txt"
	log "thp: rc=$?; now: $(cat "$thp")"
	cp "$R/thp/compare.md" "$OUT/thp-compare.md" 2>/dev/null
}

phases=${*:-build split peer thp}
log "phases: $phases; budget $budget s; $jobs CPUs; work in $work"
ok=1
for p in $phases; do
	case $p in
	build) phase_build || { log "build failed: no measurement"; ok=0; break; } ;;
	split | peer | ubatch | thp)
		if ! find_bench || [ ! -x "$mempath" ]; then
			phase_build || { ok=0; break; }
		fi
		[ -f "$OUT/env.txt" ] || env_facts
		deps
		"phase_$p"
		;;
	*) log "unknown phase $p (build split peer ubatch thp)" ;;
	esac
done
tar czf "$OUT/results.tar.gz" -C "$R" . 2>/dev/null
log "done in $(($(date +%s) - T0)) s; results: $(tar tzf "$OUT/results.tar.gz" 2>/dev/null | grep -c json) JSON files"
[ $ok -eq 1 ]
