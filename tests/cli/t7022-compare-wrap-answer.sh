# compare of wrapped commands (docs/design.md §5.11, §5.15): the one-line
# answer is about the primary figure, wall time for a command that prints no
# figures of its own (not sys_time, which moved more), unless --primary
# names another; where wall time did not move, the answer says so and does
# not headline sys_time; a WIN names the workload's facts that moved with it
# (minor faults 525159 -> 3006, vmstat thp_fault_alloc 0 -> 454), as a
# probe's verdict names its counters. Four A and four B legs planted from a
# committed wrap run with its own figures removed, as xz would give.
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3 here (it plants the legs)"
# plant(OUT, VARIANT, SEED, B_WALL): B's wall time B_WALL (A's 1.0), its sys
# time half of A's, its faults and THP as after hugepages; +-0.8% jitter
plant() {
	python3 - "$top/docs/results/wrap-decode-2026-11-30.json" "$@" <<'EOF' || fail "planting $1"
import json, sys
src, out, variant, seed, bwall = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
r = json.load(open(src))
r["probes"] = [p for p in r["probes"] if p["name"] == "work.wrap"]
p = r["probes"][0]
p["params"]["command"] = "xz -T1 -9 -k data"
jit = [1.0 + 0.004 * ((i * 7 + seed * 3) % 5 - 2) for i in range(6)]
b = variant == "B"
want = {"wall_time": bwall if b else 1.0, "user_time": 0.8, "sys_time": 0.1 if b else 0.2,
        "max_rss": 642.0, "minor_faults": 3006.0 if b else 525159.0, "major_faults": 0.0,
        "vmstat:thp_fault_alloc": 454.0 if b else 0.0}
ms = []
for m in p["metrics"]:
    key = m["name"] + (":" + m["labels"]["counter"] if m["name"] == "vmstat" else "")
    if key not in want and not key.startswith("vmstat:"):
        continue  # the workload's own figures: xz prints none
    v = want.get(key, 0.0)
    m["samples"] = [v * j if key != "vmstat:thp_fault_alloc" else v for j in jit]
    m["warmups"] = []
    m.pop("summary", None)
    ms.append(m)
p["metrics"] = ms
r["label"] = "hugetlb" if b else "stock"
json.dump(r, open(out, "w"))
EOF
}
legs=""
slow=""
for i in 1 2 3 4; do
	plant a$i.json A $i 0.9
	plant b$i.json B $((i + 4)) 0.9
	plant s$i.json B $((i + 4)) 1.0
	legs="$legs a$i.json b$i.json"
	slow="$slow a$i.json s$i.json"
done
# shellcheck disable=SC2086 # the legs, in order
"$MEMPATH" compare $legs --format json -o c.json 2>head.txt
verdict_ok $? head.txt || fail "compare: exit status; $(cat head.txt)"
grep -q '^hugetlb is 1.1[01]x faster at work.wrap wall_time \[' head.txt ||
	fail "the answer is not about wall time: $(cat head.txt)"
grep -q 'sys_time' head.txt && fail "the answer headlines sys_time: $(cat head.txt)"
python3 - <<'EOF' || fail "compare.json: the wall time WIN's mechanism"
import json
c = json.load(open("c.json"))
row = [m for m in c["metrics"] if m["probe"] == "work.wrap" and m["metric"] == "wall_time"][0]
assert row["verdict"] == "win", row["verdict"]
mech = row["mechanism"] or ""
assert "minor_faults 525159 -> 3006 (-99.4%)" in mech, mech
assert "vmstat counter=thp_fault_alloc 0 -> 454" in mech, mech
assert "max_rss" not in mech, mech  # it did not move
EOF
# shellcheck disable=SC2086
"$MEMPATH" compare $legs --primary 'work.wrap:sys_time' -o p.txt 2>phead.txt
verdict_ok $? phead.txt p.txt || fail "compare --primary: exit status; $(cat phead.txt)"
grep -q '^hugetlb is 2x faster at work.wrap sys_time \[' phead.txt ||
	fail "--primary sys_time is not the answer: $(cat phead.txt)"
# wall time unchanged, sys time halved: the answer says wall time did not move
# shellcheck disable=SC2086
"$MEMPATH" compare $slow -o s.txt 2>shead.txt
verdict_ok $? shead.txt s.txt || fail "compare: exit status; $(cat shead.txt)"
grep -q '^hugetlb: no change beyond noise at work.wrap wall_time; 1 other metric changed, 1 unchanged$' shead.txt ||
	fail "unchanged wall time: $(cat shead.txt)"
exit 0
