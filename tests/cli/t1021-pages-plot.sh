# report: a page-size sweep (pages=... with sizes) is drawn as a line
# against the page size on the HTML page, hugetlb a line of its own, thp and
# default (no size of their own) left out of the plot, not of the table.
. "$top/tests/cli/lib.sh"
"$MEMPATH" probe cpu.first_touch pages=thp,4k,64k,2m size=8M touch=write --reps 2 --warmups 0 \
	-o ft.json >ft.txt 2>&1 || fail "the sweep failed: $(tail -n 3 ft.txt)"
"$MEMPATH" report ft.json --format html >ft.html || fail "report --format html failed"
grep -q "page size (bytes" ft.html || fail "no plot against the page size"
grep -q "pages=thp" ft.html || fail "the thp row left the table"
