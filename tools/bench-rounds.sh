#!/bin/sh
# tools/bench-rounds.sh BIN [K] - verdicts on a busy machine, measured here
# (docs/design.md §4.14, §5.10-§5.13, §5.18, §5.19), in the design of issue
# 24's trial: A/A trials and trials of two known effects, each judged as one
# A/B/A', as fixed rounds (--rounds $ROUNDS) and as auto rounds, under four
# loads, all in a random order (seed SEED), K trials of every design, kind
# and load. The kinds:
#   aa-lat     A/A: cpu.latency sizes=256K,64M (4k pages, random order)
#   aa-stream  A/A: cpu.stream threads=1 size=700M kernels=read,triad (3 arrays
#              of 700M: the working set must be 4x the LLC for its receipt,
#              and this VM reports an LLC of 480M; size=32M is VOID here)
#   thp        THP madvise -> always: first touch of memory that does not ask
#              for huge pages (cpu.first_touch pages=default touch_rate): a WIN
#   lat        THP madvise -> never: a chase of 32 MiB on MADV_HUGEPAGE memory
#              (cpu.latency sizes=32M pages=thp load_latency): a LOSS
# The loads: none; a CPU hog pinned to CPU0 switched on mid-trial (at 30-70%
# of the trial, until its end); a memcpy hog (cpu.stream copy, 256M, one
# thread) pinned to CPU1 on for 35% of the trial at a random point; the same
# hog 10 s on, 10 s off from a random phase. Every ab runs pinned to CPU0.
# Before and after the trials each effect is measured on its own
# (EFFECT_PAIRS alternating runs of each variant each time, EFFECT_REPS
# samples a run, no load of ours): the CI of a found effect should hold it,
# and is counted as well where it meets the effect's own 95% interval. The
# figure a trial's CI is held against is the one measured in runs as long
# as a trial's legs (3 samples) where there is one: THP's first touch rises
# over a run (8.4 to 10.2 GiB/s over 20 samples on the dev VM), so runs of
# 20 read a larger effect than legs of 3 do. EFFECTS_ONLY=1 measures the
# effects into OUT (tagged EFFECT_WHEN, default "extra") and analyses what
# OUT holds, running no trials. Prints per design and load, and per design:
# trials, metrics judged, false WIN/LOSS (A/A, trusted), trials abstained
# (exit 3), effects found (trusted WIN or LOSS of the target metric) and
# those whose CI holds the effect measured on its own (its point; its
# interval), and the mean wall time a trial; per kind: the mean wall time
# of the A/A trials of each design, and whether a THP trial's geomean lies
# in its touch rate's CI.
#
# Needs root and a writable /sys/kernel/mm/transparent_hugepage/enabled; it
# puts back what it found there and stops every hog on exit (each hog is
# also bounded by timeout). Environment: OUT (default bench-rounds-<time>/),
# SEED, ROUNDS (5), MAX_ROUNDS (auto: 12, ab's default), DESIGNS, KINDS, LOADS
# (subsets), STREAM_SIZE (700M), DEADLINE (seconds: no trial begun after it;
# 0 none), EFFECT_PAIRS (4), EFFECT_REPS (20), EFFECTS_ONLY, EFFECT_WHEN; K_<design>_<kind> or K_<kind> (a dash written _) the trials of
# each load for that design and kind, else K.
set -u
bin=${1:?usage: bench-rounds.sh BIN [K]}
k=${2:-${K:-2}}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
thp=/sys/kernel/mm/transparent_hugepage/enabled
out=${OUT:-bench-rounds-$(date +%Y%m%d-%H%M%S)}
seed=${SEED:-20261201}
rounds=${ROUNDS:-5}
max_rounds=${MAX_ROUNDS:-12}
designs=${DESIGNS:-aba rounds auto}
kinds=${KINDS:-aa-lat aa-stream thp lat}
loads=${LOADS:-none cpu0 mem35 mem10}
deadline=${DEADLINE:-0}
effect_pairs=${EFFECT_PAIRS:-4}
effect_reps=${EFFECT_REPS:-20}
effects_only=${EFFECTS_ONLY:-0}
if [ "$(id -u)" != 0 ] || [ ! -w $thp ] || [ "$(nproc)" -lt 2 ] || ! command -v taskset >/dev/null; then
	echo "bench-rounds: skipped: needs root, a writable $thp, 2 CPUs and taskset"
	exit 0
fi
was=$(sed 's/.*\[\(.*\)\].*/\1/' $thp)
loader=""
stop_load() {
	[ -n "$loader" ] && kill "$loader" 2>/dev/null && wait "$loader" 2>/dev/null
	loader=""
	if [ -f "$out/hog.pids" ]; then
		for p in $(cat "$out/hog.pids"); do kill "$p" 2>/dev/null; done
		rm -f "$out/hog.pids"
	fi
}
restore() {
	stop_load
	echo "$was" >$thp
	echo "bench-rounds: $thp put back to $(cat $thp)"
}
trap 'restore' EXIT
trap 'exit 130' INT TERM
mkdir -p "$out" || exit 1
t_start=$(date +%s)
echo "bench-rounds: $k trials of each of: designs $designs; kinds $kinds; loads $loads; into $out/"
echo "bench-rounds: machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), THP $was, $(date -u +%Y-%m-%dT%H:%MZ)"

leg_cmd() {
	case $1 in
	aa-lat) echo "probe cpu.latency sizes=256K,64M pages=4k order=random" ;;
	aa-stream) echo "probe cpu.stream threads=1 size=${STREAM_SIZE:-700M} kernels=read,triad stores=temporal pages=4k" ;;
	thp) echo "probe cpu.first_touch size=64M pages=default touch=write" ;;
	lat) echo "probe cpu.latency sizes=32M pages=thp order=random" ;;
	esac
}
knob_b() {
	case $1 in thp) echo always ;; lat) echo never ;; *) echo "" ;; esac
}

# Each effect on its own: A B A B ... runs, no hog of ours; WHEN is before
# or after (the trials), or EFFECT_WHEN; the file names say it, the samples
# a run and the pair.
effect() {
	kind=$1 when=$2 b=$(knob_b "$1")
	for i in $(seq 1 "$effect_pairs"); do
		for v in madvise "$b"; do
			echo "$v" >$thp
			# shellcheck disable=SC2046
			taskset -c 0 "$bin" $(leg_cmd "$kind") --reps "$effect_reps" --quiet \
				-o "$out/effect-$kind-${when}_r${effect_reps}_p$i-$v.json" >/dev/null 2>&1
		done
	done
	echo "$was" >$thp
}
if [ "$effects_only" = 1 ]; then
	for kind in $kinds; do
		case $kind in thp | lat) effect "$kind" "${EFFECT_WHEN:-extra}" ;; esac
	done
else
	for kind in $kinds; do
		case $kind in thp | lat) effect "$kind" before ;; esac
	done
fi

hog_mem() { # seconds
	timeout "$1" taskset -c 1 "$bin" probe cpu.stream threads=1 size=256M kernels=copy \
		--reps 100000 --quiet >/dev/null 2>&1 &
	echo $! >>"$out/hog.pids"
	wait $!
}
# load NAME SPAN R: the load of one trial, in the background; R in 0..1
load() {
	case $1 in
	cpu0)
		sleep "$(awk -v s="$2" -v r="$3" 'BEGIN { printf "%.1f", s * (0.3 + 0.4 * r) }')"
		timeout 600 taskset -c 0 sh -c 'while :; do :; done' &
		echo $! >>"$out/hog.pids"
		wait $!
		;;
	mem35)
		sleep "$(awk -v s="$2" -v r="$3" 'BEGIN { printf "%.1f", s * 0.65 * r }')"
		hog_mem "$(awk -v s="$2" 'BEGIN { printf "%.1f", s * 0.35 }')"
		;;
	mem10)
		[ "$(awk -v r="$3" 'BEGIN { print (r < 0.5) }')" = 1 ] && sleep 10
		for _ in $(seq 1 30); do # at most 600 s
			hog_mem 10
			sleep 10
		done
		;;
	esac
}

# trial DESIGN KIND LOAD I R
trial() {
	design=$1 kind=$2 ld=$3 i=$4 r=$5
	dir=$out/$design-$kind-$ld-$i
	case $design in
	aba) plan="--legs ABA" reps=10 ;;
	rounds) plan="--rounds $rounds" reps=$((3 * rounds)) ;;
	auto) plan="--rounds auto --max-rounds $max_rounds" reps=12 ;;
	esac
	b=$(knob_b "$kind")
	if [ -n "$b" ]; then
		set -- --a "echo madvise > $thp" --b "echo $b > $thp" --expect-diff thp_enabled
	else
		set -- --a true --b true
	fi
	span=$(cat "$out/span-$design-$kind" 2>/dev/null || echo 15)
	t0=$(date +%s.%N)
	if [ "$ld" != none ]; then
		load "$ld" "$span" "$r" &
		loader=$!
		echo "$loader" >>"$out/hog.pids"
	fi
	# shellcheck disable=SC2086,SC2046
	taskset -c 0 "$bin" ab "$@" $plan -o "$dir" -- $(leg_cmd "$kind") --reps $reps \
		>"$dir.out" 2>"$dir.err"
	echo $? >"$dir.rc"
	stop_load
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", b - a }' >"$dir.wall"
	# the span of the design and kind: the mean of its trials so far
	cat "$out"/"$design-$kind"-*.wall | awk '{ s += $1; n++ } END { printf "%.1f\n", s / n }' \
		>"$out/span-$design-$kind"
	echo "bench-rounds: $design $kind $ld $i: exit $(cat "$dir.rc"), $(cat "$dir.wall") s"
}

# the trials of each load for design $1 and kind $2
trials_of() {
	v=$(echo "$2" | tr - _)
	eval "echo \${K_$1_$v:-\${K_$v:-$k}}"
}
plan=$(for d in $designs; do for kd in $kinds; do for ld in $loads; do
	for i in $(seq 1 "$(trials_of "$d" "$kd")"); do echo "$d $kd $ld $i"; done
done; done; done | awk -v s="$seed" 'BEGIN { srand(s) } { print rand() "\t" rand() "\t" $0 }' |
	sort -n | cut -f2-)
[ "$effects_only" = 1 ] && plan=""
echo "$plan" | while IFS="	" read -r r line; do
	[ -n "$line" ] || continue
	# shellcheck disable=SC2086
	set -- $line
	if [ "$deadline" -gt 0 ] && [ $(($(date +%s) - t_start)) -ge "$deadline" ]; then
		echo "bench-rounds: deadline of $deadline s reached: no more trials"
		break
	fi
	trial "$1" "$2" "$3" "$4" "$r"
done
[ "$effects_only" = 1 ] || for kind in $kinds; do
	case $kind in thp | lat) effect "$kind" after ;; esac
done
echo "bench-rounds: trials and effects done, $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$out" "$was" <<'PY'
import glob, json, math, os, statistics, sys
out = sys.argv[1]
def target(kind, m):
    if kind == "thp":
        return m["metric"] == "touch_rate" and m["labels"].get("pages") == "default"
    if kind == "lat":
        return m["metric"] == "load_latency" and m["labels"].get("size") == "32M"
    return False
def med(f, kind):
    d = json.load(open(f))
    for p in d["probes"]:
        for m in p["metrics"]:
            if target(kind, {"metric": m["name"], "labels": m.get("labels", {})}):
                return m["summary"]["median"]
    return None
T95 = {1: 12.71, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
       10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131}
def interval(ratios):
    lr = [math.log(x) for x in ratios]
    m = statistics.mean(lr); s = statistics.stdev(lr) / math.sqrt(len(lr))
    t = T95.get(len(lr) - 1, 2.0)
    return (math.exp(m) - 1, math.exp(m - t * s) - 1, math.exp(m + t * s) - 1, len(ratios))
effect = {}
for kind in ("thp", "lat"):
    groups = {}
    for f in sorted(glob.glob(f"{out}/effect-{kind}-*.json")):
        v = med(f, kind)
        tag, variant = os.path.basename(f)[len(f"effect-{kind}-"):-len(".json")].split("-", 1)
        when, reps, pair = tag.rsplit("_", 2)
        if v is not None:
            groups.setdefault((when, int(reps[1:])), {}).setdefault(pair, {})["a" if variant == "madvise" else "b"] = v
    ratios = {g: [p["b"] / p["a"] for p in pairs.values() if "a" in p and "b" in p] for g, pairs in groups.items()}
    for (when, reps), r in sorted(ratios.items()):
        if len(r) >= 2:
            e, lo, hi, n = interval(r)
            at = f"{when} the trials" if not when.startswith("under") else f"beside the operator's load ({when})"
            print(f"effect measured on its own, {kind}, {at}, runs of {reps} samples: {100 * e:+.1f}% [{100 * lo:+.1f}, {100 * hi:+.1f}] (95% t interval of {n} A/B pairs)")
    # runs tagged under... ran beside a load of the operator's (EFFECT_WHEN=underhog
    # with a hog started by hand): reported, never what a trial is held against
    legs = [x for (w, reps), r in ratios.items() if reps == 3 and not w.startswith("under") for x in r]
    long = [x for (w, reps), r in ratios.items() if reps != 3 and not w.startswith("under") for x in r]
    ref, what = (legs, "runs of 3 samples, as a trial's legs") if len(legs) >= 2 else (long, "every pair")
    if len(ref) >= 2:
        effect[kind] = interval(ref)
        e, lo, hi, n = effect[kind]
        print(f"  held against: {100 * e:+.1f}% [{100 * lo:+.1f}, {100 * hi:+.1f}] ({what}, {n} pairs)")
cells = {}
kinds = {}
falses = []
for rc in sorted(glob.glob(f"{out}/*.rc")):
    base = rc[:-3]
    name = os.path.basename(base)
    parts = name.split("-")
    design, load, i = parts[0], parts[-2], parts[-1]
    kind = "-".join(parts[1:-2])
    code = int(open(rc).read().strip() or 1)
    wall = float(open(base + ".wall").read())
    c = cells.setdefault((design, load), dict(trials=0, judged=0, false=0, abst=0, found=0, of=0, holds=0, meets=0, walls=[], failed=0))
    kc = kinds.setdefault((design, kind), dict(trials=0, walls=[], found=0, of=0, holds=0, meets=0, geo=0, geo_of=0, verdicts={}, changes=[]))
    c["trials"] += 1
    kc["trials"] += 1
    c["walls"].append(wall)
    kc["walls"].append(wall)
    c["abst"] += code == 3
    p = f"{base}/compare.json"
    if not os.path.exists(p):
        c["failed"] += 1
        continue
    d = json.load(open(p))
    trusted = d["summary"]["trusted"] and code != 3
    if kind in ("thp", "lat"):
        c["of"] += 1
        kc["of"] += 1
    for m in d["metrics"]:
        if m["control"] or m["better"] == "none":
            continue
        if target(kind, m):
            lo, hi = m["ci95"]
            want = "win" if kind == "thp" else "loss"
            if trusted and m["verdict"] == want:
                c["found"] += 1
                kc["found"] += 1
                kc["changes"].append(m["change"])
                e = effect.get(kind)
                if e and lo is not None and hi is not None:
                    c["holds"] += lo <= e[0] <= hi
                    kc["holds"] += lo <= e[0] <= hi
                    c["meets"] += lo <= e[2] and e[1] <= hi
                    kc["meets"] += lo <= e[2] and e[1] <= hi
            g = d["summary"].get("geomean")
            if kind == "thp" and trusted and g is not None and lo is not None and hi is not None:
                kc["geo_of"] += 1
                kc["geo"] += lo <= g - 1 <= hi
            continue
        if kind.startswith("aa"):
            v = m["verdict"] if trusted else "untrusted"
            kc["verdicts"][v] = kc["verdicts"].get(v, 0) + 1
            if not trusted or m["verdict"] not in ("win", "loss", "nowin", "same"):
                continue
            c["judged"] += 1
            if m["verdict"] in ("win", "loss"):
                c["false"] += 1
                falses.append(f"{name}: {m['metric']} {m['labels']} {m['verdict']} {100 * m['change']:+.1f}% [{100 * m['ci95'][0]:+.1f}, {100 * m['ci95'][1]:+.1f}]")
def row(label, cs):
    t = sum(c["trials"] for c in cs); j = sum(c["judged"] for c in cs); f = sum(c["false"] for c in cs)
    a = sum(c["abst"] for c in cs); fo = sum(c["found"] for c in cs); of = sum(c["of"] for c in cs)
    h = sum(c["holds"] for c in cs); me = sum(c["meets"] for c in cs)
    w = [x for c in cs for x in c["walls"]]; bad = sum(c["failed"] for c in cs)
    rate = f"{f} ({100.0 * f / j:.1f}/100)" if j else "-"
    ab = f"{a} ({100.0 * a / t:.0f}%)" if t else "-"
    print(f"| {label} | {t} | {j} | {rate} | {ab} | {fo}/{of} | {h}/{fo} | {me}/{fo} | {statistics.mean(w):.0f} |" + (f" {bad} without a comparison" if bad else ""))
hdr = "| {} | trials | judged (A/A) | false WIN/LOSS | abstained (exit 3) | effect found / of | CI holds the effect | CI meets its interval | s/trial |"
sep = "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
designs = [x for x in ("aba", "rounds", "auto") if any(d == x for d, _ in cells)]
print()
print(hdr.format("design"))
print(sep)
for design in designs:
    row(design, [c for (d, l), c in cells.items() if d == design])
print()
print(hdr.format("design, load"))
print(sep)
for design in designs:
    for load in ("none", "cpu0", "mem35", "mem10"):
        if (design, load) in cells:
            row(f"{design}, {load}", [cells[(design, load)]])
print()
print("| design, kind | trials | s/trial | found / of | CI holds | CI meets | mean change found | THP geomean in the touch rate's CI | A/A verdicts |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
for design in designs:
    for kind in ("aa-lat", "aa-stream", "thp", "lat"):
        kc = kinds.get((design, kind))
        if not kc:
            continue
        ch = f"{100 * statistics.mean(kc['changes']):+.1f}%" if kc["changes"] else "-"
        geo = f"{kc['geo']}/{kc['geo_of']}" if kind == "thp" else "-"
        found = f"{kc['found']}/{kc['of']}" if kc["of"] else "-"
        hm = (f"{kc['holds']}/{kc['found']}", f"{kc['meets']}/{kc['found']}") if kc["of"] else ("-", "-")
        vs = ", ".join(f"{n} {v}" for v, n in sorted(kc["verdicts"].items())) or "-"
        print(f"| {design}, {kind} | {kc['trials']} | {statistics.mean(kc['walls']):.1f} | {found} | {hm[0]} | {hm[1]} | {ch} | {geo} | {vs} |")
aa = [k for k in ("aa-lat", "aa-stream") if ("auto", k) in kinds and ("rounds", k) in kinds]
if aa:
    n = {k: kinds[("auto", k)]["trials"] for k in aa}
    auto_w = sum(n[k] * statistics.mean(kinds[("auto", k)]["walls"]) for k in aa) / sum(n.values())
    rounds_w = sum(n[k] * statistics.mean(kinds[("rounds", k)]["walls"]) for k in aa) / sum(n.values())
    print(f"\nA/A wall time a trial, auto's mix of kinds: auto {auto_w:.1f} s, rounds {rounds_w:.1f} s (ROUNDS rounds), ratio {auto_w / rounds_w:.2f}")
print("\nfalse WIN/LOSS in trusted A/A comparisons: " + ("none" if not falses else ""))
for f in falses:
    print("  " + f)
PY
