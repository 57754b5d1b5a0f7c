# fleet merge: five copies of a committed quick run (the dev VM) named as
# five hosts, one of them with every sample halved: that node, and no other,
# is flagged (the others are identical, so the MAD is zero: the mean absolute
# deviation stands in); exit 1. The fleet file renders in every format, the
# HTML with a strip plot per flagged metric; without the slow node no node is
# flagged and both commands exit 0. Kinds apart: the H200 files make groups
# of their own.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
src=$top/docs/results/vm-quick-2026-11-30.json
for n in 1 2 3 4 5; do
	sed "s/\"hostname\": \"vm\"/\"hostname\": \"node$n\"/" "$src" >n$n.json
done
# node3: every sample and warm-up halved (higher-is-better rates halve,
# latencies too: those read as better, never flagged)
awk '/"(samples|warmups)": \[\]/ { print; next }
     /"samples": \[/ || /"warmups": \[/ { inside = 1; print; next }
     inside && /^ *\]/ { inside = 0 }
     inside { sub(/[0-9.eE+-]+/, $1 / 2) } { print }' n3.json >slow.json
mv slow.json n3.json
"$MEMPATH" fleet merge n1.json n2.json n4.json n5.json -o ok.json >ok.txt 2>ok.err
rc=$?
[ $rc -eq 0 ] || fail "four identical nodes: exit $rc; $(cat ok.err)"
grep -q 'no node flagged' ok.txt || fail "four identical nodes flagged: $(cat ok.txt)"
grep -q '4 nodes; judged by reference values only' ok.txt ||
	fail "a group of four must be judged by references only: $(cat ok.txt)"
"$MEMPATH" fleet merge n1.json n2.json n3.json n4.json n5.json -o fleet.json >term.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || fail "a slow node: exit $rc, expected 1; $(cat err.txt)"
grep -q '^FLAGGED  node3$' term.txt || fail "node3 not flagged: $(cat term.txt)"
[ "$(grep -c '^FLAGGED' term.txt)" -eq 1 ] || fail "another node flagged: $(grep FLAGGED term.txt)"
grep -q 'cpu.first_touch touch_rate pages=thp,touch=write: .*below the group median' term.txt ||
	fail "the THP first touch of node3 is not among its flags: $(cat term.txt)"
grep -q 'group 1: AMD EPYC x2, 24 GiB, no GPU' term.txt || fail "kind key: $(cat term.txt)"
# report renders the file as fleet printed it, and exits 1 for the flag
"$MEMPATH" report fleet.json >report.txt
[ $? -eq 1 ] || fail "report of a flagged fleet must exit 1"
cmp -s term.txt report.txt || fail "report differs from what fleet printed: $(diff term.txt report.txt | head)"
for fmt in md csv json html; do
	"$MEMPATH" report fleet.json --format $fmt -o "r.$fmt"
	[ $? -eq 1 ] || fail "report --format $fmt exit status"
	[ -s "r.$fmt" ] || fail "report --format $fmt wrote nothing"
done
grep -q '^| node3 |.*\*\*' r.md || fail "md: node3's flagged cells are not marked"
grep -q '^node3,1,metric,cpu.first_touch,touch_rate,"pages=thp,touch=write",GiB/s,.*,yes,' r.csv ||
	fail "csv: node3's flagged row: $(grep node3 r.csv | head -3)"
grep '^node[1245],' r.csv | grep -q ',yes,' && fail "csv: another node flagged: $(grep ',yes,' r.csv | head)"
[ "$(grep -c '<svg' r.html)" -ge 1 ] || fail "html: no strip plot"
grep -q '<circle class="v-loss"' r.html || fail "html: the flagged node is not marked in the plot"
grep -q '"schema": "mempath/fleet/1"' r.json || fail "json: no schema"
# kinds apart: the H200 runs form groups of their own, never compared with the VMs
# (against the references those runs were measured against: data/ before issue 41)
MEMPATH_REFS=$top/tests/data/refs-2026-12-01 \
	"$MEMPATH" fleet merge n1.json n2.json n4.json n5.json h200="$top/docs/results/h200-2026-11-30.json" \
	h200x2="$top/docs/results/h200x2-2026-11-30.json" -o mixed.json >mixed.txt 2>&1
[ $? -eq 0 ] || fail "mixed kinds: $(cat mixed.txt)"
[ "$(grep -c '^== group' mixed.txt)" -eq 3 ] || fail "expected three groups: $(grep '== group' mixed.txt)"
grep -q '1x NVIDIA H200, driver 580.159.04' mixed.txt || fail "H200 kind key: $(cat mixed.txt)"
grep -q 'NVLink peer copy, copy engine, write (push) .*src=1,dst=0.*: 1 PASS, 0 WARN, 0 FAIL' mixed.txt ||
	fail "the NV18 reference checks: $(cat mixed.txt)"
# text from a file reaches no output as markup or control (docs/design.md §9.3)
"$MEMPATH" fleet merge '<i>x</i>=n1.json' "$(printf 'e\033[2J=n2.json')" n4.json n5.json n3.json \
	-o esc.json --format html >esc.html 2>/dev/null
grep -q '<i>x' esc.html && fail "html: a node name became markup"
grep -q '&lt;i&gt;x' esc.html || fail "html: the escaped name is missing"
"$MEMPATH" report esc.json >esc.txt
grep -q "$(printf '\033')" esc.txt && fail "term: an escape sequence reached the terminal"
exit 0
