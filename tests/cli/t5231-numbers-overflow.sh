# numbers past a double's range reach no output (docs/design.md §5.16):
# samples near 1e308 (their mean, spread or gap overflows) and a wall time
# of 1e308 s print '-' with the reason in every writer, never inf, nan or a
# 310-digit number; compare judges such a metric VOID and says why; JSON
# stays valid; wrap's table of a workload's values near 1e308 too.
# llama-bench output with samples no llama-bench writes
# (samples_ts [1e308, -1], a negative or non-numeric sample, an avg_ts past
# the plausible rate) is left out with a warning that names the value.
# Tables: command | formats; file | field | value | warning.
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (writes the fixtures)"
d="$top/tests/data"
python3 - "$d" <<'PY' || fail "the fixtures could not be made"
import json, sys
for src, out in (("cmp-aa-1.json", "o1.json"), ("cmp-aa-2.json", "o2.json")):
    j = json.load(open(sys.argv[1] + "/" + src))
    p = j["probes"][0]
    p["metrics"][0]["samples"] = [1.7e308, 1.6e308, 1.75e308, 1.7e308, 1.65e308,
                                  1.72e308, 1.68e308, 1.7e308, 1.71e308, 1.69e308]
    p["metrics"][1]["samples"] = [-1.7e308, 1.7e308] * 5
    p["wall_s"] = 1e308
    json.dump(j, open(out, "w"))
PY
# bad FILE WHAT: a number that overflowed, shown raw
bad() {
	! grep -qiwE 'inf|-inf|nan|infinity' "$1" || fail "$2: $(grep -m1 -iwE 'inf|-inf|nan|infinity' "$1")"
	! grep -qE '[0-9]{40}' "$1" || fail "$2: a number of 40+ digits: $(grep -m1 -oE '.{20}[0-9]{40}' "$1")"
}
while IFS='|' read -r cmd formats; do
	for f in $formats; do
		# shellcheck disable=SC2086 # the command is words
		"$MEMPATH" $cmd --format $f >out.txt 2>err.txt || [ $? -eq 3 ] || fail "$cmd --format $f: exit $?: $(cat err.txt)"
		bad out.txt "$cmd --format $f"
		bad err.txt "$cmd --format $f (stderr)"
		case $f in
		json) python3 -c 'import json, sys; json.load(open(sys.argv[1]))' out.txt ||
			fail "$cmd --format json: not valid JSON" ;;
		term | md | html)
			case $cmd in
			report*)
				grep -q "touch_rate pages=4k,touch=write: - where a statistic is past a double's range (samples near 1e308)" out.txt ||
					fail "$cmd --format $f: the '-' is not said why: $(cat out.txt)"
				grep -q -- '- s: past a plausible wall time' out.txt ||
					fail "$cmd --format $f: the wall time: $(grep -m1 first_touch out.txt)"
				;;
			compare*)
				grep -q 'VOID: statistics in stock past a double\(.\|&#39;\)s range (samples near 1e308)' out.txt ||
					fail "$cmd --format $f: no VOID with the reason: $(grep -m1 'pages=4k' out.txt)"
				;;
			esac
			;;
		esac
	done
done <<EOF
report o1.json|term md csv html json openmetrics
compare o1.json o2.json|term md html json
EOF
# the median of samples of opposite sign near 1e308 is theirs, not an overflow
"$MEMPATH" report o1.json --format csv >out.txt || fail "csv"
grep -q '^cpu.first_touch,ok,minor_faults,"pages=4k,touch=write",/GiB,lower,10,0,' out.txt ||
	fail "the median of -1.7e308 and 1.7e308: $(grep minor_faults out.txt | head -1)"
grep -q '^cpu.first_touch,ok,touch_rate,"pages=4k,touch=write",GiB/s,higher,10,1.7e+308,.*,$' out.txt ||
	fail "a CoV that overflowed is not an empty cell: $(grep touch_rate out.txt | head -1)"
# a workload's own values near 1e308: wrap's table and report of it
"$MEMPATH" wrap --parse lines -n 3 -o wv.json -- sh -c 'echo "v 1.7e308"; echo "w -1.7e308"' >out.txt 2>err.txt ||
	fail "wrap of values near 1e308: exit $?: $(cat err.txt)"
bad out.txt "wrap's table of values near 1e308"
grep -q '^v  *1.7e+308 ' out.txt || fail "wrap: the values: $(grep '^v ' out.txt)"
grep -qF "(- where a statistic is past a double's range (samples near 1e308))" out.txt ||
	fail "wrap: the '-' is not said why: $(cat out.txt)"
for f in term md html csv json; do
	"$MEMPATH" report wv.json --format $f >out.txt 2>err.txt || fail "report wv.json --format $f: exit $?"
	bad out.txt "report of wrap's values near 1e308 --format $f"
done
# llama-bench tests with numbers past the plausible range: left out, said
while IFS='|' read -r field value says; do
	python3 - "$d/llama/mmap01.json" "$field" "$value" <<'PY' || fail "the llama output could not be made"
import json, sys
t = json.load(open(sys.argv[1]))
t[0][sys.argv[2]] = json.loads(sys.argv[3])
json.dump(t, open("ll.json", "w"), indent=1)
PY
	"$MEMPATH" wrap --parse llama-bench -q -n 1 -o ll-out.json -- cat ll.json >out.txt 2>err.txt ||
		fail "wrap with $field $value: exit $?: $(cat err.txt)"
	grep -qF "llama-bench test 1 left out: $says" err.txt || fail "$field $value: $(cat err.txt)"
	! grep -q '1e+308\|1e308' ll-out.json || fail "$field $value: a value past the range was kept"
	bad out.txt "wrap --parse llama-bench with $field $value"
	python3 - ll-out.json <<'PY' || fail "$field $value: the other tests were lost"
import json, sys
j = json.load(open(sys.argv[1]))
names = [m["name"] for p in j["probes"] for m in p.get("metrics", [])]
assert "tokens_per_s" in names, names
PY
done <<'EOF'
samples_ts|[1e308, -1]|samples_ts[0] = 1e+308 is past the plausible 1e+09
samples_ts|[5, -1]|samples_ts[1] = -1 is negative
samples_ts|[5, "x"]|samples_ts[1] is not a number
samples_ns|[1e308]|samples_ns[0] = 1e+308 is past the plausible 1e+16
avg_ts|1e308|avg_ts = 1e+308 is past the plausible 1e+09 tokens/s
EOF
exit 0
