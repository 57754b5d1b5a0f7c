#!/bin/sh
# tools/bench-rounds.sh BIN [K] - verdicts on a busy machine (docs/design.md
# §4.14, §5.10, §5.11), measured here: K A/A trials and K trials of a known
# effect (THP madvise -> always, which moves first touch of memory that does
# not call madvise: cpu.first_touch pages=default), each as one A/B/A' and as
# rounds, each without and with a competing load switched on in the middle
# of the trial (a memory hog on one core, cpu.stream with one thread, for
# half a leg at a random point). Prints per configuration the false WIN/LOSS
# rate (A/A trials, and the controls of the THP trials) and the power (THP
# trials whose pages=default touch rates read WIN in a trusted comparison),
# and the noise meter's own cost. With BASE_BIN set (a mempath built before
# the noise meter and rounds), its compare judges the same A/B/A' legs: the
# "before". Writes everything under OUT (default bench-rounds-<time>/).
#
# Needs root and a writable /sys/kernel/mm/transparent_hugepage/enabled; it
# puts back what it found there (trap on exit) and says so. Bounded: legs of
# 32M, the hog stopped by timeout, K trials of each of 8 configurations.
set -u
bin=${1:?usage: bench-rounds.sh BIN [K]}
k=${2:-${K:-10}}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
thp=/sys/kernel/mm/transparent_hugepage/enabled
out=${OUT:-bench-rounds-$(date +%Y%m%d-%H%M%S)}
size=${SIZE:-32M}
rounds=${ROUNDS:-4}
if [ "$(id -u)" != 0 ] || [ ! -w $thp ]; then
	echo "bench-rounds: skipped: needs root and a writable $thp"
	exit 0
fi
was=$(sed 's/.*\[\(.*\)\].*/\1/' $thp)
hog=""
restore() {
	[ -n "$hog" ] && kill "$hog" 2>/dev/null
	echo "$was" >$thp
	echo "bench-rounds: $thp put back to $(cat $thp)"
}
trap 'restore' EXIT
trap 'exit 130' INT TERM
mkdir -p "$out" || exit 1
echo "bench-rounds: $k trials per configuration, legs of cpu.first_touch size=$size into $out/"
echo "bench-rounds: machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), THP $was"

leg_cmd="probe cpu.first_touch size=$size pages=4k,default touch=write,populate --warmups 1"
controls="--control cpu.first_touch,pages=4k"
knob_a="echo madvise > $thp"
knob_b="echo always > $thp"

# trial MODE KIND LOAD I: one ab into $out/MODE-KIND-LOAD-I; the hog, when
# LOAD is hog, starts at a random point of the trial's expected span.
trial() {
	mode=$1 kind=$2 load=$3 i=$4
	dir=$out/$mode-$kind-$load-$i
	if [ "$mode" = aba ]; then
		ab_plan="" leg_plan="--reps 10"
	else
		ab_plan="--rounds $rounds" leg_plan="--reps $((6 * rounds))"
	fi
	if [ "$kind" = thp ]; then
		set -- --a "$knob_a" --b "$knob_b" --expect-diff thp_enabled $controls
	else
		set -- --a true --b true
	fi
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$bin" ab "$@" $ab_plan -o "$dir" -- $leg_cmd $leg_plan >"$dir.out" 2>"$dir.err" &
	abpid=$!
	if [ "$load" = hog ]; then
		span=$(cat "$out/span-$mode" 2>/dev/null || echo 60)
		legs=$([ "$mode" = aba ] && echo 3 || echo $((2 * rounds)))
		seed=$((i * 100 + $([ "$mode" = aba ] && echo 0 || echo 10) + $([ "$kind" = aa ] && echo 0 || echo 1)))
		# shellcheck disable=SC2046
		set -- $(awk -v s="$span" -v l="$legs" -v seed="$seed" 'BEGIN { srand(seed);
			printf "%.1f %.1f\n", s * (0.15 + 0.7 * rand()), s / l / 2 }')
		sleep "$1"
		if kill -0 $abpid 2>/dev/null; then
			echo "$(date +%s.%N) $2" >"$dir.hog"
			timeout "$2" "$bin" probe cpu.stream threads=1 size=256M kernels=copy \
				--reps 100000 --quiet >/dev/null 2>&1 &
			hog=$!
		fi
	fi
	wait $abpid
	echo $? >"$dir.rc"
	[ -n "$hog" ] && wait "$hog" 2>/dev/null
	hog=""
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", b - a }' >"$dir.wall"
	[ "$load" = none ] && [ ! -f "$out/span-$mode" ] && cp "$dir.wall" "$out/span-$mode"
	# the "before": a mempath without the meter and rounds, on the same A/B/A' legs
	if [ "$mode" = aba ] && [ -n "${BASE_BIN:-}" ] && [ -f "$dir/leg-3-A.json" ]; then
		if [ "$kind" = thp ]; then
			set -- --expect-diff thp_enabled $controls
		else
			set --
		fi
		"$BASE_BIN" compare "$@" --format json -o "$dir/compare-before.json" \
			"$dir/leg-1-A.json" "$dir/leg-2-B.json" "$dir/leg-3-A.json" >/dev/null 2>&1
	fi
	echo "bench-rounds: $mode $kind $load $i: exit $(cat "$dir.rc"), $(cat "$dir.wall") s"
}

for load in none hog; do
	for i in $(seq 1 "$k"); do
		for mode in aba rounds; do
			for kind in aa thp; do
				trial $mode $kind $load "$i"
			done
		done
	done
done

python3 - "$out" "$k" <<'PY'
import glob, json, os, sys
out, k = sys.argv[1], int(sys.argv[2])
def rows(path):
    d = json.load(open(path))
    trusted = d["summary"].get("trusted", not d["summary"]["controls_moved"] and not d["refused"])
    return d, trusted
print()
print("| configuration | trials | metrics judged | false WIN/LOSS (trusted) | false WIN/LOSS (any) | untrusted trials | THP found (trusted WIN) | s/trial |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
meter = []
for mode in ("aba", "rounds"):
    for load in ("none", "hog"):
        for which in (("after", "compare.json"),) + ((("before", "compare-before.json"),) if mode == "aba" else ()):
            name, fname = which
            n = false_t = false_any = untrusted = found = thp_trials = trials = 0
            walls = []
            for kind in ("aa", "thp"):
                for i in range(1, k + 1):
                    base = f"{out}/{mode}-{kind}-{load}-{i}"
                    p = f"{base}/{fname}"
                    if not os.path.exists(p):
                        continue
                    trials += 1
                    walls.append(float(open(base + ".wall").read()))
                    d, trusted = rows(p)
                    untrusted += not trusted
                    hit = 0
                    for m in d["metrics"]:
                        if m["better"] == "none" or m["verdict"] in ("missing", "fact"):
                            continue
                        target = kind == "thp" and m["labels"].get("pages") == "default"
                        if target:
                            hit += m["metric"] == "touch_rate" and m["verdict"] == "win"
                            continue
                        n += 1
                        if m["verdict"] in ("win", "loss"):
                            false_any += 1
                            false_t += trusted
                    if kind == "thp":
                        thp_trials += 1
                        found += trusted and hit == 2
            if not trials:
                continue
            label = f"{mode} {name}, load {load}"
            rate = lambda x: f"{x} ({100.0 * x / n:.1f}/100)" if n else "-"
            print(f"| {label} | {trials} | {n} | {rate(false_t)} | {rate(false_any)} | {untrusted} | {found}/{thp_trials} | {sum(walls) / len(walls):.0f} |")
for f in glob.glob(f"{out}/*/leg-*.json"):
    try:
        d = json.load(open(f))
    except Exception:
        continue
    for p in d["probes"]:
        nz = p.get("noise")
        if nz and p.get("wall_s"):
            meter.append((nz["meter_cpu_s"], p["wall_s"], len(nz["t"]) + 1))
if meter:
    cpu = sum(m[0] for m in meter); wall = sum(m[1] for m in meter); reads = sum(m[2] for m in meter)
    print(f"\nnoise meter: {cpu:.2f} s of CPU over {wall:.0f} s of probes ({100 * cpu / wall:.2f}% of one CPU), {1e6 * cpu / reads:.0f} us a reading ({reads} readings)")
PY
