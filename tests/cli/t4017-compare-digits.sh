# compare's printed table and `report` of the comparison file it wrote agree
# to the last digit, also where a median sits on the edge of its rounding:
# (0.008227 + 0.010543) / 2 is 0.009385000000000001 in memory (0.00939 to
# 3 digits) and 0.009385 in the file (0.00938).
. "$top/tests/cli/lib.sh"
d=$top/tests/data
sed '17s/"samples": \[[^]]*\]/"samples": [0.001, 0.002, 0.003, 0.004, 0.008227, 0.010543, 0.02, 0.03, 0.04, 0.05]/' \
	"$d/cmp-aa-1.json" >a.json
grep -q '0.008227, 0.010543' a.json || fail "the fixture changed: no samples on line 17"
for fmt in term md; do
	"$MEMPATH" compare --format $fmt a.json "$d/cmp-aa-2.json" "$d/cmp-aa-3.json" >printed.$fmt 2>err.txt
	verdict_ok $? printed.$fmt || fail "compare --format $fmt: $(cat err.txt)"
done
"$MEMPATH" compare --format json a.json "$d/cmp-aa-2.json" "$d/cmp-aa-3.json" >c.json 2>err.txt
verdict_ok $? c.json || fail "compare --format json: $(cat err.txt)"
grep -q '"median": 0.009385,' c.json || fail "the file does not hold the median to 12 digits"
for fmt in term md; do
	"$MEMPATH" report c.json --format $fmt >report.$fmt 2>err.txt || fail "report: $(cat err.txt)"
	cmp -s printed.$fmt report.$fmt || fail "$fmt: printed and reported differ: $(diff printed.$fmt report.$fmt | head -5)"
done
grep -q '0\.00938 ' printed.term || fail "the median is not the file's: $(grep touch_rate printed.term | head -2)"
exit 0
