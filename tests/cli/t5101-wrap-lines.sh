# wrap: "name value unit" lines, Markdown table, --parse none; vmstat rows
# that never moved are left out of the table but kept in the file.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
fake="$top/tests/data/fake-lines.sh"
"$MEMPATH" wrap -n 3 --format md -o w.json -- sh "$fake" >w.md 2>w.err || fail "wrap exited $?: $(cat w.err)"
grep -q '^| metric | unit | iter1 | iter2 | iter3 | median | CoV% |$' w.md || fail "md header: $(head -n 1 w.md)"
grep -q '^| bandwidth | GB/s | 20.1 | 20.2 | 20 | 20.1 | ' w.md || fail "bandwidth row: $(grep bandwidth w.md)"
grep -q '^| latency | ns | 91 | 90 | 91 |' w.md || fail "latency row (name: value)"
grep -q '^| requests |  | 1001 | 1002 | 1003 |' w.md || fail "requests row (name=value)"
grep -q 'too many' w.md && fail "a prose line was parsed"
grep -q '"counter": "pgpromote_success"' w.json || fail "key vmstat counter not recorded"
"$MEMPATH" report w.json --format csv | grep -q '^work.wrap,ok,latency,,ns,lower,3,' || fail "latency metric"
"$MEMPATH" wrap -n 2 --parse none -q -o n.json -- sh "$fake" >n.txt 2>&1 || fail "parse none exited $?"
grep -q '^bandwidth' n.txt && fail "--parse none parsed"
grep -q '^wall_time' n.txt || fail "no rusage rows with --parse none"
# report of the file prints what the command printed, in term and md; the
# workload's own "wall_time" lives apart from wrap's.
"$MEMPATH" wrap -q -n 2 --warmup 1 -o r.json -- sh -c 'echo wall_time 999; echo speed 5' >r.txt ||
	fail "wrap exited $?"
"$MEMPATH" report r.json >r2.txt || fail "report exited $?"
cmp -s r.txt r2.txt || fail "report differs from what wrap printed: $(diff r.txt r2.txt | head)"
"$MEMPATH" wrap -q -n 2 --format md -o m.json -- sh -c 'echo speed 5' >m.md || fail "wrap md exited $?"
"$MEMPATH" report m.json --format md | cmp -s - m.md || fail "md report differs from wrap's md"
grep -q '^workload.wall_time  .* 999 ' r.txt || fail "workload's wall_time not apart: $(grep wall_time r.txt)"
grep -q '^wall_time  *s ' r.txt || fail "wrap's own wall_time row missing"
"$MEMPATH" report r.json --format html | grep -q '<td>workload.wall_time</td>' || fail "html lacks the wrap table"
exit 0
