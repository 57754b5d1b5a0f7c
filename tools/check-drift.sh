#!/bin/sh
# tools/check-drift.sh [OUT] - on a GPU machine: runs every probe data/ names
# (quick sizes, 2 samples: label keys do not depend on the size or the
# count), then `mempath check --drift` of every reference file against what
# today's probes wrote, and `mempath check` of the same run against the
# machine's kind or its physical limits. Writes drift-run.json, drift.txt and
# check.txt to OUT (default $OUT, else .); exits 1 when a value drifted.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-${OUT:-.}}
mkdir -p "$out"
[ -x "$top/build/mempath" ] || make -C "$top" -j"$(nproc)" >"$out/build.log" 2>&1 ||
	{ echo "build failed: $out/build.log" >&2; exit 2; }
m=$top/build/mempath
probes=$(grep -ho '"probe": "[a-z_.]*"' "$top"/data/*.json | sed 's/.*: "//; s/"//' | sort -u |
	paste -sd, -)
"$m" run --suite quick --only "$probes" --reps 2 --warmups 0 --quiet -o "$out/drift-run.json" \
	>"$out/run.txt" 2>&1
"$m" check --drift "$out/drift-run.json" >"$out/drift.txt"
rc=$?
"$m" check "$out/drift-run.json" >"$out/check.txt"
cat "$out/drift.txt"
exit $rc
