# no command lets a results file drive the terminal: an ANSI escape and a
# BEL in a file's label, host, suite, start_time and end_time
# (tests/data/escape/inject.py ... run) never reach stdout or stderr raw,
# through report, compare, fleet merge, doctor, check, findings and every
# history subcommand that prints them (add, list, show, trend, trend
# --changepoints, bless, check, check --changepoints), in each format the
# command writes; the text is shown escaped (\x1b), not dropped.
# Table: command | formats ("-": the command's default).
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (writes the fixtures)"
d="$top/tests/data"
esc=$(printf '\033')
bel=$(printf '\007')
text=$(printf '\033[31mRED\033]0;T\007 [l](http://e)\nFORGED')
for i in 1 2 3; do
	python3 "$d/escape/inject.py" "$d/cmp-aa-$i.json" "r$i.json" "$text" run || fail "fixture r$i.json"
done
grep -q 'RED' r1.json || fail "the fixture changed"
grep -q '"start_time": "2026-11-30T00:00:00Z\\u001b\[31mRED' r1.json || fail "no ESC in start_time: $(grep -o '"start_time": "[^"]*"' r1.json)"
# reference values that match the fixtures' machine, for check
mkdir refs
python3 - "$top/data/vm-epyc-2.json" <<'PY' || fail "the reference could not be made"
import json, sys
j = json.load(open(sys.argv[1]))
j["match"] = {"cpu_model": "Fixture CPU"}
json.dump(j, open("refs/x.json", "w"))
PY
# an ab directory of the fixtures, for findings
mkdir ab
python3 - <<'PY' || fail "the ab directory could not be made"
import json
for i, v in ((1, "A"), (2, "B"), (3, "A")):
    r = json.load(open("r%d.json" % i))
    r["leg"] = {"variant": v, "label": r["label"], "setup": "true", "env": {}}
    json.dump(r, open("ab/leg-%d-%s.json" % (i, v), "w"))
PY
"$MEMPATH" compare ab/leg-1-A.json ab/leg-2-B.json ab/leg-3-A.json --format json >ab/compare.json 2>/dev/null ||
	fail "compare of the ab directory: $(cat ab/compare.json | head -3)"
export MEMPATH_HISTORY="$PWD/h.db"
clean() { # clean FILE WHAT
	! grep -q "[$esc$bel]" "$1" || fail "$2: a raw control character: $(grep -a -m1 "[$esc$bel]" "$1" | cat -v)"
	! grep -q '^FORGED' "$1" || fail "$2: a forged line"
}
n=0
while IFS='|' read -r cmd formats; do
	for f in $formats; do
		fo="--format $f"
		[ "$f" = - ] && fo=""
		# shellcheck disable=SC2086
		"$MEMPATH" $cmd $fo >out.txt 2>err.txt
		rc=$?
		[ $rc -le 1 ] || fail "'$cmd $fo' exited $rc: $(head -3 err.txt | cat -v)"
		clean out.txt "$cmd $fo"
		clean err.txt "$cmd $fo (stderr)"
		cp out.txt "out-$n.txt"
		n=$((n + 1))
	done
done <<EOF
history add r1.json r2.json r3.json|-
history add r1.json|-
history list|term csv
history show 1|term md csv html
history trend cpu.first_touch:touch_rate|term csv
history trend cpu.first_touch:touch_rate --changepoints|term csv
history bless 1|-
history bless 1 2|-
history check r3.json|term md json html
history check --changepoints|term csv
report r1.json|term md json csv html openmetrics
compare r1.json r2.json|term md json csv html openmetrics
compare r1.json r2.json r3.json|term md
fleet merge n1=r1.json n2=r2.json n3=r3.json -o f.json|term md json csv html openmetrics
doctor --from r1.json|term md json
check r1.json --refs refs|term md json
check --brief r1.json --refs refs|-
findings ab|md html
EOF
[ "$n" -ge 40 ] || fail "only $n command lines ran"
# the text is there, escaped: in the lines add said and in the list
grep -qF 'added run 1: r1.json (\x1b[31mRED' out-0.txt || fail "history add: $(cat -v out-0.txt)"
grep -qF 'already kept as run 1' out-1.txt || fail "history add again: $(cat -v out-1.txt)"
grep -qF '2026-11-30T00:00:00Z\x1b[31mRED' out-2.txt || fail "history list: $(cat -v out-2.txt)"
grep -qF '\x1b[31mRED' out-5.txt || fail "history trend: $(cat -v out-5.txt)"
exit 0
