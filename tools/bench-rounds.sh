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
# 20 read a larger effect than legs of 3 do. Each effect is measured on its
# own under each planted hog too, held on through its pairs (EFFECT_UNDER:
# cpu0, mem, build; default those of LOADS), and a found effect's CI is
# also held against the effect in its rounds' conditions: the mean over its
# rounds of the quiet figure (a round under 0.25 other CPUs busy) or the
# figure under its trial's hog (the column "CI holds its rounds'
# conditions"). EFFECTS_ONLY=1 measures the
# effects into OUT (tagged EFFECT_WHEN, default "extra") and analyses what
# OUT holds, running no trials. Prints per design and load, and per design:
# trials, metrics judged, false WIN/LOSS (A/A, trusted), trials abstained
# (exit 3), effects found (trusted WIN or LOSS of the target metric) and
# those whose CI holds the effect measured on its own (its point; its
# interval), and the mean wall time a trial; per kind: the mean wall time
# of the A/A trials of each design, and whether a THP trial's geomean lies
# in its touch rate's CI.
#
# The held-out half (HELDOUT=1, issue 46): at the start the seed draws, from
# the registry as it is (`mempath list`), every CPU probe that runs here
# pinned to one CPU (a pilot of one sample says so) as an A/A kind
# ho-aa-PROBE at its quick sizes (`probe P --quick`), and HELDOUT_EFFECTS
# (2) known THP effects of the candidates below, each at a size the seed
# draws, measured on their own like thp and lat: ho-ft (first touch of
# default pages, madvise -> always, a WIN), ho-la (a chase on default pages,
# madvise -> always, a WIN), ho-ln (a chase on MADV_HUGEPAGE memory, madvise
# -> never, a LOSS). (First touch of MADV_HUGEPAGE memory under never is no
# candidate: its receipt, thp_backed 0 MiB, voids the metric in B, rightly.) $OUT/kinds.tsv records what was drawn: kind,
# command, B's knob, target metric and label, the direction. K_HELDOUT the
# trials of each held-out kind and load (1).
# The design typed is the default design as a user types it: `ab --a A --b B
# -o DIR -- COMMAND` with the probe's own --reps (rounds auto, each leg sized
# by ab), bounded only by --max-rounds MAX_ROUNDS. The fifth load, build: a
# build of this tree (make -j2 GPU=0 MPI=0 into a directory of its own,
# again and again) from 0-30% of the trial to its end, the shape of another
# engineer's make test. The design study4 (issue 38) is typed with four
# variants, all the same (`ab --variant v1:true ... --variant v4:true`), for
# the A/A kinds only: its three comparisons against the baseline, judged at
# the family's level, count as three. The design legs8 is --legs ABABABAB
# (each leg one process of --reps 6): four legs a side, the fewest with
# which --legs may say WIN or LOSS.
# Needs root and a writable /sys/kernel/mm/transparent_hugepage/enabled; it
# puts back what it found there and stops every hog on exit (each hog is
# also bounded by timeout). Environment: OUT (default bench-rounds-<time>/),
# SEED, ROUNDS (5), MAX_ROUNDS (auto: 12, ab's default), DESIGNS, KINDS, LOADS
# (subsets), STREAM_SIZE (700M), DEADLINE (seconds: no trial begun after it;
# 0 none), EFFECT_PAIRS (4), EFFECT_REPS (20), EFFECTS_ONLY, EFFECT_WHEN,
# EFFECT_UNDER;
# K_<design>_<kind>, K_<design> or K_<kind> (any other character written _)
# the trials of each load for that design and kind, else K (K_HELDOUT for a
# held-out kind); BUDGET: --budget of the typed design's ab (none).
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
loads=${LOADS:-none cpu0 mem35 mem10 build}
heldout=${HELDOUT:-0}
top=$(cd "$(dirname "$0")/.." && pwd)
deadline=${DEADLINE:-0}
effect_pairs=${EFFECT_PAIRS:-4}
effect_reps=${EFFECT_REPS:-20}
effects_only=${EFFECTS_ONLY:-0}
if [ "$(id -u)" != 0 ] || [ ! -w $thp ] || [ "$(nproc)" -lt 2 ] || ! command -v taskset >/dev/null; then
	echo "bench-rounds: skipped: needs root, a writable $thp, 2 CPUs and taskset"
	exit 0
fi
was=$(sed 's/.*\[\(.*\)\].*/\1/' $thp)
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
loader=""
stop_load() {
	[ -n "$loader" ] && kill "$loader" 2>/dev/null && wait "$loader" 2>/dev/null
	loader=""
	if [ -f "$out/hog.pids" ]; then
		for p in $(cat "$out/hog.pids"); do kill "$p" 2>/dev/null; done
		rm -f "$out/hog.pids"
	fi
	if [ -f "$out/hog.pgids" ]; then
		for p in $(cat "$out/hog.pgids"); do kill -- "-$p" 2>/dev/null; done
		rm -f "$out/hog.pgids"
	fi
}
restore() {
	stop_load
	echo "$was" >$thp
	echo "bench-rounds: $thp put back to $(cat $thp)"
}
trap 'restore' EXIT
trap 'exit 130' INT TERM
t_start=$(date +%s)
echo "bench-rounds: $k trials of each of: designs $designs; kinds $kinds; loads $loads; into $out/"
echo "bench-rounds: machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), THP $was, $(date -u +%Y-%m-%dT%H:%MZ)"

# kinds.tsv: kind, leg command, B's THP knob (- for an A/A), target metric,
# its label (key=value), want (win, loss; - for an A/A)
tab="	"
{
	echo "aa-lat${tab}probe cpu.latency sizes=256K,64M pages=4k order=random${tab}-${tab}-${tab}-${tab}-"
	echo "aa-stream${tab}probe cpu.stream threads=1 size=${STREAM_SIZE:-700M} kernels=read,triad stores=temporal pages=4k${tab}-${tab}-${tab}-${tab}-"
	echo "thp${tab}probe cpu.first_touch size=64M pages=default touch=write${tab}always${tab}touch_rate${tab}pages=default${tab}win"
	echo "lat${tab}probe cpu.latency sizes=32M pages=thp order=random${tab}never${tab}load_latency${tab}size=32M${tab}loss"
} >"$out/kinds.tsv"
if [ "$heldout" = 1 ]; then
	# every CPU probe of the registry that runs here pinned to CPU0
	for p in $("$bin" list | awk '$2 ~ /cpu/ { print $1 }'); do
		taskset -c 0 "$bin" probe "$p" --quick --reps 1 --warmups 0 --quiet -o "$out/pilot-$p.json" \
			>/dev/null 2>&1
		if grep -q '"status": "ok"' "$out/pilot-$p.json" 2>/dev/null; then
			printf 'ho-aa-%s\tprobe %s --quick\t-\t-\t-\t-\n' "$p" "$p" >>"$out/kinds.tsv"
		else
			echo "bench-rounds: held out: $p does not run here pinned to one CPU (pilot: $(grep -o '"reason": "[^"]*"' "$out/pilot-$p.json" 2>/dev/null | head -1))"
		fi
	done
	awk -v s="$seed" -v n="${HELDOUT_EFFECTS:-2}" 'BEGIN {
		srand(s + 1)
		c[1] = "ho-ft\tprobe cpu.first_touch size=%s pages=default touch=write\talways\ttouch_rate\tpages=default\twin"
		c[2] = "ho-la\tprobe cpu.latency sizes=%s pages=default order=random\talways\tload_latency\tsize=%s\twin"
		c[3] = "ho-ln\tprobe cpu.latency sizes=%s pages=thp order=random\tnever\tload_latency\tsize=%s\tloss"
		split("32M 64M 128M", fs, " "); split("16M 32M 64M", ls, " ")
		for (i = 1; i <= 3; i++) r[i] = rand()
		for (k = 1; k <= n && k <= 3; k++) {
			b = 0
			for (i = 1; i <= 3; i++) if (!(i in used) && (!b || r[i] < r[b])) b = i
			used[b] = 1
			z = b == 1 ? fs[1 + int(rand() * 3)] : ls[1 + int(rand() * 3)]
			printf c[b] "\n", z, z
		}
	}' >>"$out/kinds.tsv"
	kinds="$kinds $(awk -F'\t' '$1 ~ /^ho-/ { printf "%s ", $1 }' "$out/kinds.tsv")"
	echo "bench-rounds: held out (seed $seed): $(awk -F'\t' '$1 ~ /^ho-/ { printf "%s: %s; ", $1, $2 }' "$out/kinds.tsv")"
fi
col() { # col KIND N: field N of KIND's row
	awk -F'\t' -v k="$1" -v n="$2" '$1 == k { print $n; exit }' "$out/kinds.tsv"
}
leg_cmd() {
	col "$1" 2
}
knob_b() {
	b=$(col "$1" 3)
	[ "$b" = - ] || echo "$b"
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
		[ -n "$(knob_b "$kind")" ] && effect "$kind" "${EFFECT_WHEN:-extra}"
	done
else
	for kind in $kinds; do
		[ -n "$(knob_b "$kind")" ] && effect "$kind" before
	done
fi

# hog_on NAME [SECONDS]: a hog in the background ($! its process; stop_load
# ends it), for at most SECONDS (600): cpu0 a CPU hog pinned to CPU0, mem a
# memcpy hog (cpu.stream copy, 256M, one thread) pinned to CPU1, build a
# build of this tree again and again in its own process group (setsid;
# timeout leads it), so that the compilers of the make go with it
hog_on() {
	case $1 in
	cpu0) timeout "${2:-600}" taskset -c 0 sh -c 'while :; do :; done' & ;;
	mem) timeout "${2:-600}" taskset -c 1 "$bin" probe cpu.stream threads=1 size=256M kernels=copy \
		--reps 100000 --quiet >/dev/null 2>&1 & ;;
	build) setsid timeout "${2:-600}" sh -c 'while :; do rm -rf "$1"; make -s -C "$2" -j2 GPU=0 MPI=0 BUILD="$1" all >/dev/null 2>&1; done' \
		sh "$out/build-load" "$top" &
		echo $! >>"$out/hog.pgids"
		return ;;
	esac
	echo $! >>"$out/hog.pids"
}
hog_mem() { # seconds
	hog_on mem "$1"
	wait $!
}
# load NAME SPAN R: the load of one trial, in the background; R in 0..1
load() {
	case $1 in
	cpu0)
		sleep "$(awk -v s="$2" -v r="$3" 'BEGIN { printf "%.1f", s * (0.3 + 0.4 * r) }')"
		hog_on cpu0
		wait $!
		;;
	mem35)
		sleep "$(awk -v s="$2" -v r="$3" 'BEGIN { printf "%.1f", s * 0.65 * r }')"
		hog_mem "$(awk -v s="$2" 'BEGIN { printf "%.1f", s * 0.35 }')"
		;;
	build)
		sleep "$(awk -v s="$2" -v r="$3" 'BEGIN { printf "%.1f", s * 0.3 * r }')"
		hog_on build
		wait $!
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

# Each effect on its own under each planted load held on through its pairs
# (EFFECT_UNDER, default: the loads of this bench but none; mem35 and mem10
# are one hog, "mem"), tagged load-<hog>: a trial's CI is held against the
# mean over its rounds of the effect in each round's condition (quiet, or
# its trial's hog), from the rounds' own loads (other CPUs busy, 0.25 the
# line: docs/design.md §4.14).
under=$(for l in $loads; do case $l in cpu0 | build) echo "$l" ;; mem*) echo mem ;; esac; done | sort -u)
[ "$effects_only" = 1 ] || for h in ${EFFECT_UNDER-$under}; do
	hog_on "$h"
	sleep 2
	for kind in $kinds; do
		[ -n "$(knob_b "$kind")" ] && effect "$kind" "load-$h"
	done
	stop_load
	echo "bench-rounds: effects under $h measured, load $(cut -d' ' -f1-3 /proc/loadavg)"
done

# trial DESIGN KIND LOAD I R
trial() {
	design=$1 kind=$2 ld=$3 i=$4 r=$5
	dir=$out/$design-$kind-$ld-$i
	case $design in
	aba) plan="--legs ABA" reps=10 ;;
	legs8) plan="--legs ABABABAB" reps=6 ;; # 4 legs a side: the least that may judge
	rounds) plan="--rounds $rounds" reps=$((3 * rounds)) ;;
	auto) plan="--rounds auto --max-rounds $max_rounds" reps=12 ;;
	typed | study4) plan="--max-rounds $max_rounds${BUDGET:+ --budget $BUDGET}" reps="" ;;
	esac
	b=$(knob_b "$kind")
	if [ "$design" = study4 ]; then
		set -- --variant v1:true --variant v2:true --variant v3:true --variant v4:true
	elif [ -n "$b" ]; then
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
	taskset -c 0 "$bin" ab "$@" $plan -o "$dir" -- $(leg_cmd "$kind") ${reps:+--reps $reps} \
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
	v=$(echo "$2" | tr -c 'a-zA-Z0-9\n' _)
	case $2 in ho-*) d=${K_HELDOUT:-1} ;; *) d=$k ;; esac
	eval "echo \${K_$1_$v:-\${K_$1:-\${K_$v:-$d}}}"
}
plan=$(for d in $designs; do for kd in $kinds; do for ld in $loads; do
	# a study of four variants: A/A/A/A only
	[ "$d" = study4 ] && [ -n "$(knob_b "$kd")" ] && continue
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
	[ -n "$(knob_b "$kind")" ] && effect "$kind" after
done
echo "bench-rounds: trials and effects done, $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$out" "$was" <<'PY'
import glob, json, math, os, statistics, sys
out = sys.argv[1]
table = {}
for line in open(f"{out}/kinds.tsv"):
    f = line.rstrip("\n").split("\t")
    if len(f) == 6:
        table[f[0]] = dict(cmd=f[1], b=f[2], metric=f[3], label=f[4], want=f[5])
def is_effect(kind):
    return kind in table and table[kind]["want"] != "-"
def target(kind, m):
    t = table.get(kind)
    if not t or t["want"] == "-":
        return False
    k, v = t["label"].split("=", 1)
    return m["metric"] == t["metric"] and m["labels"].get(k) == v
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
under = {}  # kind -> hog -> the effect measured on its own under that hog
for kind in [k for k in table if is_effect(k)]:
    groups = {}
    for f in sorted(glob.glob(f"{out}/effect-{kind}-*.json")):
        v = med(f, kind)
        tag, variant = os.path.basename(f)[len(f"effect-{kind}-"):-len(".json")].rsplit("-", 1)
        when, reps, pair = tag.rsplit("_", 2)
        if v is not None:
            groups.setdefault((when, int(reps[1:])), {}).setdefault(pair, {})["a" if variant == "madvise" else "b"] = v
    ratios = {g: [p["b"] / p["a"] for p in pairs.values() if "a" in p and "b" in p] for g, pairs in groups.items()}
    for (when, reps), r in sorted(ratios.items()):
        if len(r) >= 2:
            e, lo, hi, n = interval(r)
            at = (f"beside the operator's load ({when})" if when.startswith("under")
                  else f"under the hog {when[5:]} held on" if when.startswith("load-") else f"{when} the trials")
            print(f"effect measured on its own, {kind} ({table[kind]['cmd']}, madvise -> {table[kind]['b']}), {at}, runs of {reps} samples: {100 * e:+.1f}% [{100 * lo:+.1f}, {100 * hi:+.1f}] (95% t interval of {n} A/B pairs)")
    for (w, reps), r in ratios.items():
        if w.startswith("load-") and len(r) >= 2:
            under.setdefault(kind, {})[w[5:]] = interval(r)
    legs = [x for (w, reps), r in ratios.items() if reps == 3 and not w.startswith(("under", "load-")) for x in r]
    long = [x for (w, reps), r in ratios.items() if reps != 3 and not w.startswith(("under", "load-")) for x in r]
    ref, what = (legs, "runs of 3 samples, as a trial's legs") if len(legs) >= 2 else (long, "every pair")
    if len(ref) >= 2:
        effect[kind] = interval(ref)
        e, lo, hi, n = effect[kind]
        print(f"  held against: {100 * e:+.1f}% [{100 * lo:+.1f}, {100 * hi:+.1f}] ({what}, {n} pairs)")
def size_class(kind):
    e = effect.get(kind)
    if not e:
        return "?"
    return "large" if abs(e[0]) >= 0.4 else "small"
def in_conditions(kind, load, h):
    """The effect a trial's rounds were under: the mean log ratio over its
    rounds of the effect measured on its own quiet (a round under 0.25
    other CPUs busy) or under its trial's hog; None where a reference or a
    round's load is missing."""
    hog = "mem" if load.startswith("mem") else load
    rounds = (h or {}).get("rounds") or []
    if load == "none":
        return effect[kind][0] if kind in effect else None
    refs = under.get(kind, {})
    if kind not in effect or hog not in refs or not rounds or any(r.get("busy") is None for r in rounds):
        return None
    lr = [math.log(1 + (refs[hog][0] if r["busy"] >= 0.25 else effect[kind][0])) for r in rounds]
    return math.exp(sum(lr) / len(lr)) - 1
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
    c = cells.setdefault((design, load), dict(trials=0, judged=0, false=0, abst=0, found=0, of=0, holds=0, meets=0, walls=[], failed=0, aa=0, noans=0, knobs=0, het=0, het_of=0, budget=0))
    kc = kinds.setdefault((design, kind), dict(trials=0, walls=[], found=0, of=0, holds=0, meets=0, verdicts={}, changes=[], wrong=0, het=0, across=0, cond=0, cond_of=0))
    c["trials"] += 1
    kc["trials"] += 1
    c["walls"].append(wall)
    kc["walls"].append(wall)
    c["abst"] += code == 3
    p = f"{base}/compare.json"
    # a study's (study4): its three comparisons against the baseline, each
    # judged at the family's level (Holm), counted as three comparisons
    study = f"{base}/study.json"
    if not os.path.exists(p) and os.path.exists(study):
        p = study
    if not os.path.exists(p):
        c["failed"] += 1
        # stopped at the --budget BUDGET of the bench: counted apart
        over = "--budget" in open(base + ".err", errors="replace").read()
        c["budget"] += over
        if not is_effect(kind):
            c["aa"] += 1
            c["noans"] += not over
        continue
    d = json.load(open(p))
    parts_of = [x["comparison"] for x in d["comparisons"]] if p == study else [d]
    if is_effect(kind):
        c["of"] += 1
        kc["of"] += 1
    judged_here = 0
    for d, m in [(d, m) for d in parts_of for m in d["metrics"]]:
        trusted = d["summary"]["trusted"] and code != 3
        if m["control"] or m["better"] == "none":
            continue
        if target(kind, m):
            lo, hi = m["ci95"]
            want = table[kind]["want"]
            h = m.get("heterogeneity") or {}
            if h.get("depends_on_load"):
                kc["het"] += 1
            elif h.get("heterogeneous"):  # the rounds differ, their loads do not say why
                kc["across"] += 1
            if trusted and m["verdict"] in ("win", "loss") and m["verdict"] != want:
                kc["wrong"] += 1
            if trusted and m["verdict"] == want:
                c["found"] += 1
                kc["found"] += 1
                kc["changes"].append(m["change"])
                c["het_of"] += 1
                c["het"] += bool(h.get("depends_on_load"))
                cond = in_conditions(kind, load, h)
                if cond is not None and lo is not None and hi is not None:
                    kc["cond_of"] += 1
                    kc["cond"] += lo <= cond <= hi
                e = effect.get(kind)
                if e and lo is not None and hi is not None:
                    c["holds"] += lo <= e[0] <= hi
                    kc["holds"] += lo <= e[0] <= hi
                    c["meets"] += lo <= e[2] and e[1] <= hi
                    kc["meets"] += lo <= e[2] and e[1] <= hi
            continue
        if not is_effect(kind):
            v = m["verdict"] if trusted else "untrusted"
            kc["verdicts"][v] = kc["verdicts"].get(v, 0) + 1
            if not trusted or m["verdict"] not in ("win", "loss", "nowin", "same"):
                continue
            c["judged"] += 1
            judged_here += 1
            if m["verdict"] in ("win", "loss"):
                c["false"] += 1
                falses.append(f"{name}: {m['metric']} {m['labels']} {m['verdict']} {100 * m['change']:+.1f}% [{100 * m['ci95'][0]:+.1f}, {100 * m['ci95'][1]:+.1f}]")
    if not is_effect(kind):
        c["aa"] += 1
        if judged_here == 0:
            # no answer: knob changes by others (the legs' knobs differ in
            # an A/A) are counted apart
            if any(x.get("knobs_differ") for x in parts_of):
                c["knobs"] += 1
            else:
                c["noans"] += 1
def row(label, cs):
    t = sum(c["trials"] for c in cs); j = sum(c["judged"] for c in cs); f = sum(c["false"] for c in cs)
    a = sum(c["abst"] for c in cs); fo = sum(c["found"] for c in cs); of = sum(c["of"] for c in cs)
    h = sum(c["holds"] for c in cs); me = sum(c["meets"] for c in cs)
    w = [x for c in cs for x in c["walls"]]; bad = sum(c["failed"] for c in cs)
    aa = sum(c["aa"] for c in cs); na = sum(c["noans"] for c in cs); kn = sum(c["knobs"] for c in cs)
    bu = sum(c["budget"] for c in cs)
    rate = f"{f} ({100.0 * f / j:.1f}/100)" if j else "-"
    ab = f"{a} ({100.0 * a / t:.0f}%)" if t else "-"
    nas = f"{na}/{aa} ({100.0 * na / aa:.0f}%), {kn} knob" if aa else "-"
    bad = f"{bad} (of them {bu} at the bench's --budget)" if bu else bad
    print(f"| {label} | {t} | {j} | {rate} | {nas} | {ab} | {fo}/{of} | {h}/{fo} | {me}/{fo} | {statistics.mean(w):.0f} |" + (f" {bad} without a comparison" if bad else ""))
hdr = "| {} | trials | judged (A/A) | false WIN/LOSS | A/A without an answer (knob changes, the bench's budget apart) | abstained (exit 3) | effect found / of | CI holds the effect | CI meets its interval | s/trial |"
sep = "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
designs = [x for x in ("typed", "study4", "aba", "legs8", "rounds", "auto") if any(d == x for d, _ in cells)]
loads = ("none", "cpu0", "mem35", "mem10", "build")
print()
print(hdr.format("design"))
print(sep)
for design in designs:
    row(design, [c for (d, l), c in cells.items() if d == design])
print()
print(hdr.format("design, load"))
print(sep)
for design in designs:
    for load in loads:
        if (design, load) in cells:
            row(f"{design}, {load}", [cells[(design, load)]])
print()
print("| design, kind | trials | s/trial | found / of | wrong sign | CI holds | CI meets | CI holds its rounds' conditions | mean change found | depending on load | across rounds, not with load | A/A verdicts |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for design in designs:
    for kind in table:
        kc = kinds.get((design, kind))
        if not kc:
            continue
        ch = f"{100 * statistics.mean(kc['changes']):+.1f}%" if kc["changes"] else "-"
        found = f"{kc['found']}/{kc['of']}" if kc["of"] else "-"
        hm = (f"{kc['holds']}/{kc['found']}", f"{kc['meets']}/{kc['found']}") if kc["of"] else ("-", "-")
        vs = ", ".join(f"{n} {v}" for v, n in sorted(kc["verdicts"].items())) or "-"
        het = f"{kc['het']}/{kc['of']}" if kc["of"] else "-"
        across = f"{kc['across']}/{kc['of']}" if kc["of"] else "-"
        cond = f"{kc['cond']}/{kc['cond_of']}" if kc["cond_of"] else "-"
        wr = kc["wrong"] if kc["of"] else "-"
        print(f"| {design}, {kind} | {kc['trials']} | {statistics.mean(kc['walls']):.1f} | {found} | {wr} | {hm[0]} | {hm[1]} | {cond} | {ch} | {het} | {across} | {vs} |")
# the issue's "done when", by effect size (measured on its own) and quiet or loaded
print()
print("| design | effects | quiet: found / of | loaded: found / of | CI holds (all) |")
print("|---|---|---:|---:|---:|")
for design in designs:
    for cls in ("large", "small"):
        q = [0, 0]; l = [0, 0]; h = [0, 0]
        for (d, kind), kc in kinds.items():
            if d != design or not is_effect(kind) or size_class(kind) != cls:
                continue
            for rc in glob.glob(f"{out}/{design}-{kind}-*.rc"):
                base = rc[:-3]; load = base.split("-")[-2]
                tgt = q if load == "none" else l
                tgt[1] += 1
                p = f"{base}/compare.json"
                if not os.path.exists(p):
                    continue
                dd = json.load(open(p))
                code = int(open(rc).read().strip() or 1)
                for m in dd["metrics"]:
                    if target(kind, m) and dd["summary"]["trusted"] and code != 3 and m["verdict"] == table[kind]["want"]:
                        tgt[0] += 1
                        e = effect.get(kind); lo, hi = m["ci95"]
                        h[1] += 1
                        h[0] += bool(e and lo is not None and hi is not None and lo <= e[0] <= hi)
        if q[1] or l[1]:
            label = "+40% or more" if cls == "large" else "under +40%"
            print(f"| {design} | {label} | {q[0]}/{q[1]} | {l[0]}/{l[1]} | {h[0]}/{h[1]} |")
print("\nfalse WIN/LOSS in trusted A/A comparisons: " + ("none" if not falses else ""))
for f in falses:
    print("  " + f)
PY
