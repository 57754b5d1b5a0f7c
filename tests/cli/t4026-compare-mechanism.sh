# compare: the counters that moved with a WIN (docs/design.md §5.15), on
# fixtures whose samples carry per-window counters (tests/data/mech-*.json:
# a THP A/B/A' of first touch, four legs a side by tests/data/mech8.py): thp_fault_alloc and page faults moved (every
# B window beyond every A window), the timer interrupts did not and are not
# listed; in term, md (a ranked table), json and html, and read back by
# report (t4040: the mechanism column); a comparison
# of files without counters has no mechanism (t4004's goldens hold that).
. "$top/tests/cli/lib.sh"
d="$top/tests/data"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (writes the legs)"
python3 "$d/mech8.py" "$d" m || fail "legs"
# shellcheck disable=SC2046 # paths without spaces
set -- $(ls m/leg-?-*.json | sort -t- -k2n)
"$MEMPATH" compare "$@" >t.txt || fail "compare: $(cat t.txt)"
"$MEMPATH" compare "$@" --format json >c.json || fail "compare json"
want='mechanism: cpu.first_touch touch_rate pages=default,touch=write WIN: vmstat:thp_fault_alloc 0 -> 32; sw:page-faults 16390 -> 170 (-99.0%)'
grep -qxF "$want" t.txt || fail "term: $(grep mechanism t.txt)"
! grep -q 'irq:LOC' t.txt || fail "a counter that did not move is listed"
grep -q '"mechanism": "vmstat:thp_fault_alloc 0 -> 32; sw:page-faults 16390 -> 170 (-99.0%)"' c.json ||
	fail "json lacks the mechanism"
"$MEMPATH" report c.json >r.txt || fail "report of the comparison"
grep -qxF "$want" r.txt || fail "report lost the mechanism"
"$MEMPATH" report c.json --format md >r.md || fail "md"
grep -q '^| cpu.first_touch touch_rate pages=default,touch=write | WIN | 1 | vmstat:thp_fault_alloc | 0 | 32 | - |$' r.md ||
	fail "md: $(grep -i mechanism -A4 r.md)"
"$MEMPATH" report c.json --format html >r.html || fail "html"
grep -q '<h2>Mechanism</h2>' r.html && grep -q 'vmstat:thp_fault_alloc 0 -&gt; 32' r.html ||
	fail "html lacks the mechanism"
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" "$d/cmp-aa-3.json" >n.txt
! grep -q '^mechanism' n.txt || fail "mechanism without counters: $(grep mechanism n.txt)"
exit 0
