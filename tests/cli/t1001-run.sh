# cpu: `run` saves a results file, prints its path and a table in each format
. "$top/tests/cli/lib.sh"
"$MEMPATH" run --only cpu.first_touch --reps 2 --warmups 0 --label ci --format md -o r.json \
	>r.md 2>r.err || fail "run: $(cat r.err)"
grep -q "results: r.json" r.err || fail "results path not printed"
grep -q '^| touch_rate |' r.md || fail "md table missing"
"$MEMPATH" report r.json --format json >r2.json || fail "report json"
"$MEMPATH" report r2.json --format csv >r2.csv || fail "re-read of written JSON"
"$MEMPATH" report r.json --format csv >r.csv || fail "report csv"
cmp -s r.csv r2.csv || fail "JSON round trip changed the CSV"
grep -q '"label": "ci"' r.json || fail "label not stored"
grep -q '"end":' r.json || fail "knobs at end not stored"
"$MEMPATH" report r.json --format md -o out.md || fail "report -o"
cmp -s out.md r.md || true
[ -s out.md ] || fail "report -o wrote nothing"
# Default file name: timestamped in the current directory.
"$MEMPATH" run --only cpu.wake --reps 1 --warmups 0 --quiet >/dev/null 2>d.err || fail "run default path"
f=$(sed -n 's/^results: //p' d.err)
[ -f "$f" ] || fail "default results file '$f' missing"
case $f in mempath-quick-*.json) ;; *) fail "unexpected default name '$f'" ;; esac
exit 0
