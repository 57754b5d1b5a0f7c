# phantom: the built-in CPU child (mapped, touched, held, exit) must give its
# memory back: PASS, exit 0, a results file with the levels and the verdict.
. "$top/tests/cli/lib.sh"
"$MEMPATH" phantom --cpu 512M --hold 0.2 --settle 5 -o p.json >p.txt 2>p.err ||
	fail "phantom exited $?: $(cat p.txt p.err)"
grep -q '^result: PASS$' p.txt || fail "not PASS: $(cat p.txt)"
grep -q '^MemAvailable+per-CPU lists ' p.txt || fail "checked level row missing"
grep -q '^per-CPU lists (zoneinfo) ' p.txt || fail "per-CPU lists row missing"
grep -q '^returned to within 0.250 GiB ' p.txt || fail "return time: $(cat p.txt)"
grep -q '^1  *cpu 512M  .* PASS$' p.txt || fail "acceptance row: $(cat p.txt)"
grep -q 'phantom: exit 0 after .*; 0.[4-9][0-9]* GiB used' p.err || fail "used memory not seen: $(cat p.err)"
"$MEMPATH" report p.json --format csv >p.csv || fail "results file rejected"
awk -F, 'NR == 2 { exit !($1 == "work.phantom" && $2 == "ok") }' p.csv || fail "status: $(cat p.csv)"
grep -q '^work.phantom,ok,missing,,GiB,lower,1,' p.csv || fail "missing metric"
grep -q '^work.phantom,ok,used,,GiB,none,1,0.[4-9]' p.csv || fail "used metric: $(grep used p.csv)"
grep -q '"verdict": "PASS"' p.json || fail "verdict param"
grep -q '"tolerance": "256M"' p.json || fail "default tolerance not 256M"
# Markdown: the seed-000-style acceptance row.
"$MEMPATH" phantom --cpu 256M --hold 0 --settle 5 --format md -q -o m.json >m.md 2>&1 || fail "md run failed"
grep -q '^| 1 | cpu 256M | .* GiB | .* GiB | .* GiB | PASS |$' m.md || fail "md row: $(cat m.md)"
exit 0
