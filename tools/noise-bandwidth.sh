#!/bin/sh
# tools/noise-bandwidth.sh BIN [N] - which of the noise meter's signals sees a
# memory-bandwidth hog on the other CPU (docs/design.md §4.14, §5.18):
# cpu.latency sizes=64M pinned to CPU0, N times under each of four loads in a
# random order - none; a CPU hog pinned to CPU1 (a shell loop, what a build
# on the other CPU looks like to the meter); a memcpy hog pinned to CPU1
# (cpu.stream copy, one thread, 256M); both on CPU1 - and per run the
# latency, and what the meter recorded: other CPUs busy, memory PSI ("some"),
# and its own chase (ns a hop). Prints a Markdown table of the medians per
# load and, per signal, whether it separates the memcpy hog from the CPU hog.
# Every hog is bounded by timeout and killed on exit. Writes OUT (default
# noise-bandwidth-<time>/).
set -u
bin=${1:?usage: noise-bandwidth.sh BIN [N]}
n=${2:-${N:-6}}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
out=${OUT:-noise-bandwidth-$(date +%Y%m%d-%H%M%S)}
if [ "$(nproc)" -lt 2 ] || ! command -v taskset >/dev/null; then
	echo "noise-bandwidth: skipped: needs 2 CPUs and taskset"
	exit 0
fi
mkdir -p "$out" || exit 1
hogs=""
stop_hogs() {
	for p in $hogs; do kill "$p" 2>/dev/null; done
	for p in $hogs; do wait "$p" 2>/dev/null; done
	hogs=""
}
trap 'stop_hogs' EXIT
trap 'exit 130' INT TERM

cpu_hog() {
	timeout 60 taskset -c 1 sh -c 'while :; do :; done' &
	hogs="$hogs $!"
}
mem_hog() {
	timeout 60 taskset -c 1 "$bin" probe cpu.stream threads=1 size=256M kernels=copy \
		--reps 100000 --quiet >/dev/null 2>&1 &
	hogs="$hogs $!"
}

echo "noise-bandwidth: $n runs a load, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
order=$(for i in $(seq 1 "$n"); do for l in none cpu mem both; do echo "$l $i"; done; done |
	awk 'BEGIN { srand(20261201) } { print rand() "\t" $0 }' | sort -n | cut -f2)
echo "$order" | while read -r load i; do
	case $load in
	cpu) cpu_hog ;;
	mem) mem_hog ;;
	both) cpu_hog; mem_hog ;;
	esac
	[ "$load" = none ] || sleep 1 # the hog running before the probe starts
	taskset -c 0 "$bin" probe cpu.latency sizes=64M pages=4k order=random --reps 10 \
		-o "$out/$load-$i.json" >/dev/null 2>&1
	stop_hogs
	echo "noise-bandwidth: $load $i done"
done

python3 - "$out" <<'PY'
import glob, json, os, statistics, sys
out = sys.argv[1]
loads = ("none", "cpu", "mem", "both")
rows = {}
for load in loads:
    for f in sorted(glob.glob(f"{out}/{load}-*.json")):
        p = json.load(open(f))["probes"][0]
        lat = [m["summary"]["median"] for m in p["metrics"] if m["name"] == "load_latency"]
        mean = p.get("noise", {}).get("mean", {})
        if lat:
            rows.setdefault(load, []).append((lat[0], mean.get("other_cpus"),
                                               mean.get("psi_memory"), mean.get("mem_ns")))
def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else float("nan")
print()
print("| load | runs | latency 64M (ns) | other CPUs busy | memory PSI some | meter's chase (ns a hop) |")
print("|---|---:|---:|---:|---:|---:|")
for load in loads:
    r = rows.get(load, [])
    print(f"| {load} | {len(r)} | {med([x[0] for x in r]):.1f} | {med([x[1] for x in r]):.2f} | "
          f"{med([x[2] for x in r]):.4f} | {med([x[3] for x in r]):.1f} |")
# does a signal tell the memcpy hog from the CPU hog, run by run?
print()
names = ("other CPUs busy", "memory PSI some", "meter's chase")
for k, name in enumerate(names, start=1):
    cpu = [x[k] for x in rows.get("cpu", []) + rows.get("none", []) if x[k] is not None]
    mem = [x[k] for x in rows.get("mem", []) + rows.get("both", []) if x[k] is not None]
    if not cpu or not mem:
        print(f"- {name}: not recorded")
        continue
    sep = min(mem) > max(cpu)
    print(f"- {name}: without a memcpy hog {min(cpu):.4g}..{max(cpu):.4g}, with one "
          f"{min(mem):.4g}..{max(mem):.4g}: {'separates' if sep else 'does not separate'}")
PY
