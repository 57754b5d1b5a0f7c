#!/bin/sh
# docs/results/receipts-h200/run.sh - the receipts and counters (docs/design.md
# §4.17, §4.18, §5.13) on the one-H200 machine, run from the repository root
# with OUT the results folder:
#   OUT=/tmp/out sh docs/results/receipts-h200/run.sh
# It builds mempath (GPU=1 where nvcc is found, MPI=0; the libraries from
# third_party/debs unpacked into /opt/dd, as the other H200 scripts do), then:
#   1. gpu.copy pinned H2D and D2H at 256M (COPY_ARGS: more of its options):
#      the link receipt (the link's bytes, NVML's throughput counter
#      integrated, over each window beside the bytes counted with their TLP
#      framing; held within 5%);
#   2. cpu.stream size=256M (a 768 MiB working set): the DRAM receipt, which
#      must fail naming the working set and the 300 MiB L3;
#   3. gpu.first_touch managed: the counters recorded around its windows,
#      CUPTI's unified-memory counters among them (§4.20; tests/cli/t2001
#      asserts them);
#   4. the counters' overhead bench (tools/bench-counters.sh), with tracefs;
#   5. a THP A/B in 4 rounds of cpu.first_touch with --title, and findings of
#      it; THP is put back to what it was before, whatever happens.
# Each step's verdict is one line in $OUT/summary.txt (PASS/FAIL/INFO).
# STEPS picks the steps (default "1 2 3 4 5"; e.g. STEPS="1 2 3", then
# STEPS="4 5", to stay within a 10-minute call).
set -u
T0=$(date +%s)
R=${OUT:?OUT: the results folder}
mkdir -p "$R"
log() { echo "[+$(($(date +%s) - T0))s] $*" | tee -a "$R/log.txt"; }
say() { echo "$*" | tee -a "$R/summary.txt"; }
if [ -d third_party/debs ]; then
	mkdir -p /opt/dd
	for f in third_party/debs/*.deb; do dpkg -x "$f" /opt/dd; done
	L=/opt/dd/usr/lib/x86_64-linux-gnu
	export C_INCLUDE_PATH=/opt/dd/usr/include LIBRARY_PATH=$L LD_LIBRARY_PATH=$L
fi
export PATH="$PATH:/usr/local/cuda/bin" # nvcc: the GPU build
log "build"
make -j16 MPI=0 >"$R/build.log" 2>&1 || { tail -20 "$R/build.log"; exit 1; }
M=build/mempath
STEPS=${STEPS:-1 2 3 4 5}
step() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }
# tracefs for the tracepoint counts, in this script's own mount namespace when
# it can have one (nothing outside it is touched)
if [ -z "${RECEIPTS_NS:-}" ] && command -v unshare >/dev/null 2>&1 &&
	unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing' 2>/dev/null; then
	log "re-running in a mount namespace with tracefs"
	exec unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing && RECEIPTS_NS=1 exec sh "$0"' \
		"$0"
fi
"$M" sysinfo >"$R/sysinfo.txt" 2>&1
# receipt STATE EVIDENCE of metric NAME with label K=V in results file F
receipts() {
	python3 - "$@" <<'PY'
import json, sys
f, name, k, v = sys.argv[1:5]
for p in json.load(open(f))["probes"]:
    print("sources:", "; ".join("%s %s%s" % (s["source"], s["state"], (": " + s["why"]) if "why" in s else "")
                                  for s in p.get("counter_sources", [])))
    for m in p["metrics"]:
        if m["name"] == name and m["labels"].get(k) == v:
            for r in m.get("receipts", []):
                print("%s | %s | %s | %s" % (m["labels"], r["assumes"], r["state"], r["evidence"]))
            moved = m.get("counters", {}).get("moved", {})
            print("  counters moved:", ", ".join("%s %s" % (c, moved[c]) for c in sorted(moved) if c.startswith(("gpu", "trace", "irq:TLB", "irq:3")))[:2000])
PY
}

if step 1; then
log "1. gpu.copy pinned 256M"
# shellcheck disable=SC2086 # COPY_ARGS are words (e.g. --window-ms 1000)
"$M" probe gpu.copy sizes=256M mems=pinned dirs=h2d,d2h ${COPY_ARGS:-} -o "$R/copy.json" >"$R/copy.txt" 2>&1
receipts "$R/copy.json" copy_bw dir h2d >"$R/copy-receipts.txt" 2>&1
receipts "$R/copy.json" copy_bw dir d2h >>"$R/copy-receipts.txt" 2>&1
cat "$R/copy-receipts.txt"
if grep -q "copy: the link carried the bytes counted (within 5%) | held" "$R/copy-receipts.txt" &&
	! grep -q "| failed |" "$R/copy-receipts.txt"; then
	say "PASS 1: pinned copies' link bytes within 5% of the bytes counted ($(grep -o 'gpu0:pcie_[rt]x_[a-z_]*bytes [0-9.]*x' "$R/copy-receipts.txt" | tr '\n' ' '))"
else
	say "FAIL 1: link receipt: $(grep '|' "$R/copy-receipts.txt" | tr '\n' ' ')"
fi
fi

if step 2; then
log "2. cpu.stream size=256M"
"$M" probe cpu.stream size=256M -o "$R/stream.json" >"$R/stream.txt" 2>&1
if grep -q '^   receipt failed: bandwidth .*: working set 768 MiB is [0-9.]*x the [0-9]* MiB LLC$' "$R/stream.txt"; then
	say "PASS 2: $(grep -m1 '^   receipt failed: bandwidth' "$R/stream.txt" | sed 's/^ *//')"
else
	say "FAIL 2: no failed DRAM receipt naming 768 MiB and the LLC: $(tail -3 "$R/stream.txt" | tr '\n' ' ')"
fi
fi

if step 3; then
log "3. gpu.first_touch managed"
"$M" probe gpu.first_touch variants=managed size=2G -o "$R/first-touch.json" >"$R/first-touch.txt" 2>&1
python3 - "$R/first-touch.json" >"$R/first-touch-counters.txt" 2>&1 <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["probes"][0]
print("status:", p["status"], p.get("reason") or "")
for s in p.get("counter_sources", []):
    print("source", s)
for m in p["metrics"]:
    moved = m.get("counters", {}).get("moved", {})
    print(m["name"], m["labels"], {k: v for k, v in moved.items() if k.startswith(("gpu", "irq:", "trace:", "cupti:"))})
PY
cat "$R/first-touch-counters.txt"
say "INFO 3: gpu.first_touch managed: $(grep -o "'source': 'cupti'[^}]*" "$R/first-touch-counters.txt"); the GPU page faults, migrated bytes, PCIe bytes and nvidia interrupt lines around its windows are in first-touch-counters.txt"
fi

if step 4; then
log "4. counters' overhead"
BENCH_OUT="$R/counters-overhead.md" BENCH_COUNTERS_ROUNDS=6 \
	BENCH_COUNTERS_STREAM="threads=max size=1G pages=thp kernels=copy,triad stores=temporal" \
	sh tools/bench-counters.sh "$M" >"$R/bench.log" 2>&1
say "INFO 4: $(grep -h '^| cpu\.[a-z]* | [a-z_]* | .*%' "$R/counters-overhead.md" | cut -d'|' -f2-8 | tr '\n' ';')"
fi

if step 5; then
log "5. THP A/B in rounds, findings"
thp=/sys/kernel/mm/transparent_hugepage/enabled
was=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $thp)
"$M" ab --rounds 4 --title "THP always: first touch of 1 GiB" --expect-diff thp_enabled \
	--a "echo madvise > $thp" --b "echo always > $thp" --restore "echo $was > $thp" -o "$R/ab-thp" -- \
	probe cpu.first_touch size=1G pages=default touch=write --reps 16 >"$R/ab-thp.txt" 2>&1
echo "$was" >$thp
"$M" findings "$R/ab-thp" -o "$R/findings.md" && "$M" findings "$R/ab-thp" --format html -o "$R/findings.html"
say "INFO 5: THP restored to $(cat $thp); $(grep -m1 '^mechanism: cpu.first_touch touch_rate' "$R/ab-thp.txt" || echo 'no mechanism line for touch_rate')"
fi
log "done"
