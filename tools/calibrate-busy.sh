#!/bin/sh
# tools/calibrate-busy.sh BIN [PAIRS] - what the noise meter reads, and what a
# metric does, when a memory hog on one core (cpu.stream, one thread) runs
# through a leg, against pairs of legs with nothing added: the measurement
# behind NOISE_BUSY_CPUS (docs/design.md §4.14). Each pair is two legs of
# cpu.first_touch (pages=4k,default, touch=write, 32M, 6 samples) run back to
# back, the second with or without the hog; it prints, per metric and pair,
# the other CPUs busy in each leg, their difference and the change of the
# median. Bounded: PAIRS (default 6) pairs of each kind, the hog stopped with
# its leg.
set -u
bin=${1:?usage: calibrate-busy.sh BIN [PAIRS]}
pairs=${2:-6}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mempath-cal.XXXXXX")
trap 'kill $hog 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
hog=""
leg() { # leg FILE: one leg
	"$bin" probe cpu.first_touch size=32M pages=4k,default touch=write --reps 6 \
		--quiet -o "$1" >/dev/null 2>&1
}
for i in $(seq 1 "$pairs"); do
	for kind in none hog; do
		leg "$tmp/$kind-$i-a.json"
		if [ $kind = hog ]; then
			"$bin" probe cpu.stream threads=1 size=256M kernels=copy --reps 100000 \
				--quiet >/dev/null 2>&1 &
			hog=$!
			sleep 1
		fi
		leg "$tmp/$kind-$i-b.json"
		[ -n "$hog" ] && kill "$hog" 2>/dev/null && wait "$hog" 2>/dev/null
		hog=""
	done
done
python3 - "$tmp" "$pairs" <<'PY'
import json, sys, statistics as st
tmp, pairs = sys.argv[1], int(sys.argv[2])
def metrics(f):
    d = json.load(open(f))
    out = {}
    for p in d["probes"]:
        for m in p["metrics"]:
            if m["better"] == "none" or "busy" not in m: continue
            key = m["name"] + " " + ",".join(f"{k}={v}" for k, v in m["labels"].items())
            b = [x for x in m["busy"] if x is not None]
            w = [x for x in m.get("wait", []) if x is not None]
            out[key] = (st.median(m["samples"]), sum(b) / len(b) if b else float("nan"),
                        sum(w) / len(w) if w else float("nan"))
    return out
print("kind pair metric busy_a busy_b diff wait_a wait_b wdiff change%")
for kind in ("none", "hog"):
    for i in range(1, pairs + 1):
        a = metrics(f"{tmp}/{kind}-{i}-a.json"); b = metrics(f"{tmp}/{kind}-{i}-b.json")
        for k in a:
            if k not in b: continue
            ma, ba, wa = a[k]; mb, bb, wb = b[k]
            ch = 100 * (mb / ma - 1) if ma else float("nan")
            print(f"{kind} {i} {k.replace(' ', '_')} {ba:.2f} {bb:.2f} {bb - ba:+.2f} {wa:.2f} {wb:.2f} {wb - wa:+.2f} {ch:+.1f}")
PY
