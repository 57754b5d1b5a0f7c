#!/bin/sh
# docs/results/wrap-gpu-h200/run.sh - a wrapped CUDA program's own GPU memory
# as `mempath wrap` reads it from NVML (per process, sampled with the other
# samples; the device's used memory before and after each run), against
# nvidia-smi --query-compute-apps sampled beside it. For the one-H200
# machine; no internet needed. Builds mempath (make) and hold.cu (nvcc:
# cudaMalloc 3 GiB, cudaMemset, hold 2 s, exit), then
#   wrap -n 3 --sample-ms 200 -v -- hold 3 2000
# while a loop records nvidia-smi's per-process used memory every 0.2 s.
# Passes when each run's gpu_mem_peak is within 5% of nvidia-smi's largest
# reading for that run's pid, and what the run left (after - before) is
# within 64 MiB of 0. Writes to $OUT (default ./wrap-gpu-out): log.txt,
# build.log, wrap.json, wrap.txt, wrap.err, smi.csv, smi-gpu.csv, check.txt.
# LLAMA=1 also wraps llama-bench -ngl 99 -p 512 -n 128 -r 3 (the 8 B model)
# and compares the same way: llama-bench and the models from LLAMA_WORK
# (default /var/tmp/mempath-llama) where tools/llama-gpu.sh built them, else
# built now by `tools/llama-gpu.sh build` from third_party/llama-pack.tar.gz
# (carry it: tools/llama-pack.sh makes it).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
OUT=${OUT:-$PWD/wrap-gpu-out}
work=${WORK:-/var/tmp/mempath-wrap-gpu}
mkdir -p "$OUT" "$work"
log() { echo "[wrap-gpu $(date -u +%H:%M:%S)] $*" | tee -a "$OUT/log.txt"; }
die() {
	log "FAILED: $*"
	exit 1
}
log "host $(hostname), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1)"
make -C "$top" -j"$(nproc)" >"$OUT/build.log" 2>&1 || die "make (see build.log)"
mempath=$top/build/mempath
nvcc -O2 -o "$work/hold" "$here/hold.cu" >>"$OUT/build.log" 2>&1 || die "nvcc hold.cu"
command -v python3 >/dev/null 2>&1 || die "no python3 to compare with"

# smi: every 0.2 s, "time, pid, used MiB" per compute process; the device's
# used memory too
smi_loop() {
	while :; do
		t=$(date +%s.%N)
		nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits |
			sed "s/^/$t, /" >>"$OUT/smi.csv"
		nvidia-smi --query-gpu=index,memory.used --format=csv,noheader,nounits |
			sed "s/^/$t, /" >>"$OUT/smi-gpu.csv"
		sleep 0.2
	done
}

# wrapped NAME CMD...: wrap -n 3 of CMD with smi sampled beside it, then the
# comparison into check.txt; returns its verdict
wrapped() {
	name=$1
	shift
	: >"$OUT/smi.csv"
	: >"$OUT/smi-gpu.csv"
	smi_loop &
	loop=$!
	"$mempath" wrap -n 3 --sample-ms 200 -v -o "$OUT/$name.json" -- "$@" \
		>"$OUT/$name.txt" 2>"$OUT/$name.err"
	rc=$?
	kill "$loop"
	wait "$loop" 2>/dev/null
	cp "$OUT/smi.csv" "$OUT/$name-smi.csv"
	cp "$OUT/smi-gpu.csv" "$OUT/$name-smi-gpu.csv"
	log "$name: wrap exited $rc"
	python3 - "$OUT/$name.json" "$OUT/$name-smi.csv" "$OUT/$name.err" <<'PY' | tee -a "$OUT/check.txt"
import json, re, sys
res = json.load(open(sys.argv[1]))
p = res["probes"][0]
smi = {}
for line in open(sys.argv[2]):
    f = [x.strip() for x in line.split(",")]
    if len(f) == 3 and f[1].isdigit() and f[2].isdigit():
        smi[int(f[1])] = max(smi.get(int(f[1]), 0), int(f[2]))
# the pids in run order: hold prints its own; else every pid smi saw, in order
pids = [int(x) for x in re.findall(r"hold pid (\d+)", open(sys.argv[3]).read())]
if not pids:
    pids = list(smi)
its = [i for i in p["extra"]["iterations"] if not i["warmup"]]
print("gpu reading:", json.dumps(p["extra"].get("gpu", "read")))
ok = True
for k, it in enumerate(its):
    dev = (it.get("gpu") or {}).get("0", {})
    mine = dev.get("procs_peak_bytes")
    left = None
    if "used_after_bytes" in dev and "used_before_bytes" in dev:
        left = (dev["used_after_bytes"] - dev["used_before_bytes"]) / 2**20
    ref = smi.get(pids[k]) if k < len(pids) else (max(smi.values()) if smi else None)
    mib = mine / 2**20 if mine is not None else None
    good = mib is not None and ref and abs(mib - ref) <= 0.05 * ref
    good = good and left is not None and abs(left) <= 64
    ok &= bool(good)
    print("run %d: wrap gpu_mem_peak %s MiB, nvidia-smi max %s MiB (pid %s), device used "
          "%s -> %s MiB (left %s MiB), %d NVML samples: %s" % (
          k + 1, "%.0f" % mib if mib is not None else "none", ref,
          pids[k] if k < len(pids) else "?",
          "%.0f" % (dev.get("used_before_bytes", 0) / 2**20),
          "%.0f" % (dev.get("used_after_bytes", 0) / 2**20),
          "%.0f" % left if left is not None else "none", it.get("gpu_samples", 0),
          "ok" if good else "NOT within 5% / left not 0"))
print("verdict:", "pass" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
}

log "before: $(nvidia-smi --query-gpu=index,memory.used --format=csv,noheader | tr '\n' ' ')"
wrapped hold "$work/hold" 3 2000
v=$?
if [ "${LLAMA:-0}" = 1 ]; then
	lw=${LLAMA_WORK:-/var/tmp/mempath-llama}
	# the CMake build's, else the Makefile build's
	find_bench() {
		bench=$lw/build-cuda/bin/llama-bench
		[ -x "$bench" ] || bench=$lw/llama.cpp/llama-bench
	}
	find_bench
	if [ ! -x "$bench" ] && [ -s "$top/third_party/llama-pack.tar.gz" ]; then
		log "llama: building llama-bench and the models (tools/llama-gpu.sh build)"
		LLAMA_WORK=$lw OUT=$OUT/llama-build sh "$top/tools/llama-gpu.sh" build >>"$OUT/log.txt" 2>&1
		find_bench
	fi
	model=$lw/m8b.gguf
	[ -s "$model" ] || model=$(ls "$lw"/*.gguf 2>/dev/null | head -n 1)
	if [ -x "$bench" ] && [ -n "$model" ]; then
		wrapped llama "$bench" -m "$model" -ngl 99 -p 512 -n 128 -r 3 -o json || v=1
	else
		log "llama: no llama-bench or model under $lw (run tools/llama-gpu.sh build with the pack carried first)"
	fi
fi
log "after: $(nvidia-smi --query-gpu=index,memory.used --format=csv,noheader | tr '\n' ' ')"
log "verdict: $([ $v -eq 0 ] && echo pass || echo FAIL) (check.txt)"
exit $v
