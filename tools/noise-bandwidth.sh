#!/bin/sh
# tools/noise-bandwidth.sh BIN [N] - which of the noise meter's signals sees a
# memory-bandwidth hog on the other CPU (docs/design.md §4.14, §5.18):
# cpu.latency sizes=64M pinned to CPU0, N times under each of four loads in a
# random order - none; a CPU hog pinned to CPU1 (a shell loop, what a build
# on the other CPU looks like to the meter); a memcpy hog pinned to CPU1
# (cpu.stream copy, one thread, 256M); both on CPU1 - and per run the
# latency, and what the meter recorded: other CPUs busy, memory PSI ("some"),
# its own chase (ns a hop), the CPU time the probe had, and per sample the
# probe's threads waiting for a CPU. Prints a Markdown table of the medians
# per load and, per signal, whether it separates the runs with the memcpy
# hog from those without any, and its rank correlation with the latency.
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
import glob, json, statistics, sys
out = sys.argv[1]
loads = ("none", "cpu", "mem", "both")
names = ("other CPUs busy", "memory PSI some", "meter's chase (ns a hop)",
         "probe waiting for a CPU", "CPUs the probe had")
rows = {}
for load in loads:
    for f in sorted(glob.glob(f"{out}/{load}-*.json")):
        p = json.load(open(f))["probes"][0]
        mean = p.get("noise", {}).get("mean", {})
        for m in p["metrics"]:
            if m["name"] != "load_latency":
                continue
            w = [x for x in (m.get("wait") or []) if x is not None]
            rows.setdefault(load, []).append((m["summary"]["median"], mean.get("other_cpus"),
                                               mean.get("psi_memory"), mean.get("mem_ns"),
                                               statistics.mean(w) if w else None,
                                               mean.get("own_cpus")))
def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else float("nan")
def ranks(v):  # ties share their mean rank
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    k = 0
    while k < len(order):
        e = k
        while e + 1 < len(order) and v[order[e + 1]] == v[order[k]]:
            e += 1
        for j in range(k, e + 1):
            r[order[j]] = (k + e) / 2
        k = e + 1
    return r
def spearman(x, y):
    if len(x) < 3:
        return float("nan")
    rx, ry = ranks(x), ranks(y)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return num / den if den else float("nan")
print()
print("| load | runs | latency 64M (ns) | " + " | ".join(names) + " |")
print("|---|---:|---:|" + "---:|" * len(names))
for load in loads:
    r = rows.get(load, [])
    cells = [f"{med([x[k] for x in r]):.3g}" for k in range(1, len(names) + 1)]
    print(f"| {load} | {len(r)} | {med([x[0] for x in r]):.1f} | " + " | ".join(cells) + " |")
print()
every = [x for load in loads for x in rows.get(load, [])]
for k, name in enumerate(names, start=1):
    none = [x[k] for x in rows.get("none", []) if x[k] is not None]
    mem = [x[k] for x in rows.get("mem", []) if x[k] is not None]
    pairs = [(x[0], x[k]) for x in every if x[k] is not None]
    if not none or not mem:
        print(f"- {name}: not recorded")
        continue
    sep = min(mem) > max(none) or max(mem) < min(none)
    rho = spearman([a for a, _ in pairs], [b for _, b in pairs])
    corr = (f"rank correlation with the latency over all {len(pairs)} runs {rho:+.2f}"
            if rho == rho else "the same in every run")
    print(f"- {name}: no hog {min(none):.3g}..{max(none):.3g}, memcpy hog {min(mem):.3g}.."
          f"{max(mem):.3g} ({'separates' if sep else 'overlaps'}); {corr}")
PY
