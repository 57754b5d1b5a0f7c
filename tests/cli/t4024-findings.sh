# findings: a findings document from ab directories (docs/design.md §9.9) -
# the summary table (finding, kind, impact, status with the A/B numbers),
# each finding's table with receipts and the counters that moved, the
# machine and the command to reproduce it; md and html. One directory made
# of the THP A/B/A' fixtures (tests/data/mech-*.json, four legs a side), one by a real ab
# --title (its command line recorded), its verdicts not asserted.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (writes the fixture directory)"
d="$top/tests/data"
python3 "$d/mech8.py" "$d" thp '{"setup": "echo x", "env": {}, "title": "THP=always: first touch | 4x faster", "command": "mempath ab --title '"'"'THP=always: first touch | 4x faster'"'"' -o thp -- probe cpu.first_touch"}' ||
	fail "fixture directory"
# shellcheck disable=SC2046 # paths without spaces
"$MEMPATH" compare $(ls thp/leg-?-*.json | sort -t- -k2n) --format json >thp/compare.json || fail "compare"
"$MEMPATH" ab --title "same <twice>" --legs ABA --a true --b true -o same -- \
	probe cpu.first_touch size=16M pages=4k touch=write --reps 6 --warmups 0 >ab.txt 2>&1
rc=$?
verdict_ok $rc ab.txt same/compare.json || fail "ab exit $rc: $(tail -3 ab.txt)"
"$MEMPATH" findings thp same >f.md 2>err.txt || fail "findings: $(cat err.txt)"
head -1 f.md | grep -qx '# mempath findings' || fail "title: $(head -1 f.md)"
grep -q '^| # | Finding | Kind | Impact | Status |$' f.md || fail "no summary table"
grep -qF '| A | THP=always: first touch \| 4x faster | A/B/A/B/A/B/A/B | 1 WIN, 0 LOSS of 1 metrics; geomean 3.98x (>1: B better) | A/B/A/B/A/B/A/B (2026-12-01): WIN cpu.first_touch touch_rate pages=default,touch=write: 2.01 GiB/s -> 8.02 GiB/s (+298.0%) |' f.md ||
	fail "summary row A: $(grep '^| A ' f.md)"
# a title's markup is text in Markdown too: no tag reaches a page that renders it
grep -q '^| B | same &lt;twice> | A/B/A | ' f.md || fail "summary row B: $(grep '^| B ' f.md)"
grep -qF 'vmstat:thp_fault_alloc 0 -> 32; sw:page-faults 16390 -> 170 (-99.0%) |' f.md ||
	fail "finding A lacks the counters that moved"
grep -qF "mempath ab --legs ABA --title 'same <twice>' --a true --b true -o same -- probe cpu.first_touch size=16M pages=4k touch=write --reps 6 --warmups 0" f.md ||
	fail "the command to reproduce B: $(grep -A2 Reproduce f.md | tail -3)"
grep -q '4 KiB pages: no THP: held' f.md || fail "B's receipts: $(grep 'touch_rate' f.md | tail -1)"
grep -q '^Machine: ' f.md || fail "no machine"
"$MEMPATH" findings thp same --format html -o f.html || fail "html"
grep -q '<h2>1. Summary</h2>' f.html && grep -q 'same &lt;twice&gt;' f.html || fail "html: escaping or layout"
expect_fail 2 "$MEMPATH" findings
expect_fail 2 "$MEMPATH" findings no-such-dir
expect_fail 2 "$MEMPATH" findings "$d/cmp-aa-1.json"
grep -q "is not a directory: findings takes ab directories" err.txt || fail "a file given to findings: $(cat err.txt)"
exit 0
