# every bandwidth metric (GB/s, GiB/s) of every probe has a row in the limit
# table (mempath list --limits, src/machine/limits.c): the path whose
# physical limit holds it, or why none does. The metrics are read from the
# probes' sources ("name", UNIT_GB_S / UNIT_GIB_S in src/probes/*.c), so a
# probe that adds a bandwidth metric with neither fails here; then every
# bandwidth figure of the H200 run files in docs/results/ gets a share of
# its limit or that reason from check.
. "$top/tests/cli/lib.sh"
"$MEMPATH" list --limits >table.txt || fail "list --limits: $(cat table.txt)"
n=0
for f in "$top"/src/probes/*.c; do
	probe=$(sed -n 's/^[[:space:]]*\.name = "\([a-z0-9_.]*\)",$/\1/p' "$f" | head -1)
	[ -n "$probe" ] || continue
	for m in $(perl -0ne 'while (/"([a-z_0-9]+)",\s*UNIT_GI?B_S\b/g) { print "$1\n" }' "$f" | sort -u); do
		n=$((n + 1))
		row=$(awk -v p="$probe" -v m="$m" '$1 == p && $2 == m' table.txt | head -1)
		[ -n "$row" ] || fail "$probe's bandwidth metric $m has no row in the limit table (src/machine/limits.c): give it its path or why none holds"
		why=$(echo "$row" | awk '{ $1 = $2 = $3 = $4 = ""; print }' | tr -d ' ')
		[ -n "$why" ] || fail "$probe $m: a row with neither what crosses the path nor why no limit holds: $row"
	done
done
[ "$n" -ge 20 ] || fail "only $n bandwidth metrics found in the probes' sources: the scan is broken"
# every row names a path or says none
awk 'NR > 1 && NF >= 5 && $1 != "path:" && $4 != "none" && $4 !~ /^(dram|hbm|pcie|nvlink|l2)(x2|\/2)?$/ { print; bad = 1 } END { exit bad }' table.txt ||
	fail "a row with a path that is not one of dram, hbm, pcie, nvlink, l2"

# the run files: each bandwidth figure that no path of the kind judges says
# its share of a limit, a limit unknown, or why none holds - never nothing
for f in "$top"/docs/results/h200-2026-11-30.json "$top"/docs/results/h200x2-round2-2026-11-30/gpu0.json \
	"$top"/docs/results/vm-quick-2026-11-30.json; do
	"$MEMPATH" check --format json "$f" >c.json 2>err.txt
	[ $? -le 1 ] || fail "check $f: $(cat err.txt)"
	python3 - "$f" c.json <<'PY' || fail "check of $f left a figure without a status and reason"
import json, sys
run = json.load(open(sys.argv[1]))
checks = json.load(open(sys.argv[2]))["checks"]
seen = {(c["probe"], c["metric"], json.dumps(c["labels"], sort_keys=True)) for c in checks}
bad = 0
for p in run["probes"]:
    if p.get("status") != "ok":
        continue
    for m in p.get("metrics", []):
        if not m.get("samples") or (m.get("better") in (None, "none") and m.get("unit") not in ("GB/s", "GiB/s")):
            continue
        key = (p["name"], m["name"], json.dumps(m.get("labels", {}), sort_keys=True))
        if key not in seen:
            print("unjudged:", key); bad = 1
for c in checks:
    if c["status"] == "INCONCLUSIVE" and not c.get("reason"):
        print("no reason:", c["probe"], c["metric"], c["labels"]); bad = 1
    if c.get("rest") and c["unit"] in ("GB/s", "GiB/s") and "no reference" not in (c.get("reason") or "") \
            and "limit" not in (c.get("reason") or "") and "receipt" not in (c.get("reason") or ""):
        print("a bandwidth without its limit or why:", c); bad = 1
sys.exit(bad)
PY
done
exit 0
