# compare: the mechanism column (docs/design.md §5.15) - beside every WIN and
# LOSS the counters that moved with it, the two that moved most, ranked, with
# their change ("vmstat:thp_fault_alloc 0 -> 32, sw:page-faults -99.0%"), in
# term, md and html tables, and in json as mechanism_counters (each counter,
# its A and B medians and change, ranked), read back by report to the same
# tables; a LOSS (the legs swapped) gets the same counters moving the other
# way; rows that are not a WIN or LOSS read "-", and a comparison of files
# without counters has no column (t4004's goldens hold that byte for byte).
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d="$top/tests/data"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (writes the legs)"
# four legs a side (A/B/A' has too few legs for a verdict: t4000)
python3 "$d/mech8.py" "$d" m || fail "legs"
# shellcheck disable=SC2046 # paths without spaces
set -- $(ls m/leg-?-*.json | sort -t- -k2n)
cell='vmstat:thp_fault_alloc 0 -> 32, sw:page-faults -99.0%'
"$MEMPATH" compare "$@" >t.txt 2>/dev/null ||
	fail "compare: $(cat t.txt)"
head=$(grep '^metric ' t.txt)
case $head in *"n A/B  mechanism "*"verdict") ;; *) fail "term heading: $head" ;; esac
grep -q "^cpu.first_touch touch_rate pages=default,touch=write .*  $cell  *WIN\$" t.txt ||
	fail "term row: $(grep touch_rate t.txt)"
"$MEMPATH" compare "$@" --format json -o c.json 2>/dev/null || fail "json"
tr -d ' \n' <c.json | grep -q '"mechanism_counters":\[{"counter":"vmstat:thp_fault_alloc","median_a":0.0,"median_b":32.0,"change":null},{"counter":"sw:page-faults","median_a":16389.5,"median_b":170.5,"change":-0.98[0-9]*}\]' ||
	fail "json mechanism_counters: $(grep -A14 mechanism_counters c.json)"
"$MEMPATH" report c.json >r.txt || fail "report of the comparison"
cmp -s t.txt r.txt || fail "report reads the column back differently: $(diff t.txt r.txt)"
"$MEMPATH" report c.json --format md >r.md || fail "md"
grep -q "^| metric | madvise | always | madvise again | always again | madvise (3) | always (3) | madvise (4) | always (4) | mechanism | verdict |\$" r.md ||
	fail "md heading: $(grep '^| metric' r.md)"
grep -qF "| $cell | WIN |" r.md || fail "md row: $(grep touch_rate r.md)"
grep -q '^|  |  | 2 | sw:page-faults | 16390 | 170 | -99.0% |$' r.md || fail "md section, rank 2"
"$MEMPATH" report c.json --format html >r.html || fail "html"
grep -q '<th>mechanism</th><th>verdict</th>' r.html &&
	grep -qF '<td>vmstat:thp_fault_alloc 0 -&gt; 32, sw:page-faults -99.0%</td>' r.html ||
	fail "html column"
# a LOSS: the counters moved the other way, the one that vanished first
"$MEMPATH" compare --legs BABABABA "$@" >l.txt 2>/dev/null || fail "loss: $(cat l.txt)"
grep -q 'vmstat:thp_fault_alloc -100.0%, sw:page-faults +951[0-9].[0-9]%  LOSS$' l.txt ||
	fail "loss row: $(grep touch_rate l.txt)"
# without counters: no column, no section
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" "$d/cmp-aa-3.json" --format md >n.md 2>/dev/null
! grep -q 'mechanism' n.md || fail "a column without counters: $(grep -i mechanism n.md)"
exit 0
