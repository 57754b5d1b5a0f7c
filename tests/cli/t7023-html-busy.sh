# report --format html marks what was measured beside other work (docs/
# design.md §4.14): a probe whose noise meter saw 1.35 of 2 CPUs used by
# other work says so above its pictures, and cpu.loaded's latency against
# bandwidth says it in its caption ("unsteady"); the same files quiet say
# neither.
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3 here (it plants the fixtures)"
# plant(IN, OUT, PROBE, OTHER_CPUS): PROBE's noise meter reads OTHER_CPUS of 2
plant() {
	python3 - "$@" <<'EOF' || fail "planting $2"
import json, sys
r = json.load(open(sys.argv[1]))
for p in r["probes"]:
    if p["name"] == sys.argv[3]:
        p["noise"] = {"cpus": 2, "mean": {"other_cpus": float(sys.argv[4]), "steal_cpus": 0.0}}
json.dump(r, open(sys.argv[2], "w"))
EOF
}
plant "$top/docs/results/vm-quick-2026-11-30.json" busy.json cpu.stream 1.35
plant "$top/docs/results/vm-quick-2026-11-30.json" quiet.json cpu.stream 0
plant "$top/docs/results/h200x2-refs-2026-11-30/cpu-loaded-full.json" lbusy.json cpu.loaded 1.35
plant "$top/docs/results/h200x2-refs-2026-11-30/cpu-loaded-full.json" lquiet.json cpu.loaded 0
for f in busy quiet lbusy lquiet; do
	"$MEMPATH" report $f.json --format html -o $f.html || fail "report $f.json: exit $?"
done
note='"><b>Measured beside other work</b> (busy: 1.35 of 2 CPUs used by other work while it ran, the mean)'
[ "$(grep -cF "$note" busy.html)" -eq 1 ] || fail "the busy probe has no note (or more than one): $(grep -c busy busy.html)"
# the note stands in cpu.stream's section: after its heading, before the next probe's
awk '/<h2>cpu.stream/ { on = 1 } on && /<h2>/ && !/cpu.stream/ { exit } on' busy.html | grep -qF "$note" ||
	fail "the note is not in cpu.stream's section"
grep -q 'class="busy"' quiet.html && fail "a quiet run carries the busy note"
grep -q 'measured beside other work (busy: 1.35 of 2 CPUs used by other work): unsteady' lbusy.html ||
	fail "the loaded curve's caption does not say it was measured beside other work"
grep -q 'unsteady' lquiet.html && fail "a quiet loaded curve reads unsteady"
exit 0
