# wrap: "name value unit" lines, Markdown table, --parse none; vmstat rows
# that never moved are left out of the table but kept in the file.
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
exit 0
