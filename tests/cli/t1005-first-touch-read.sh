# cpu: a read touch is labelled by what it did, read off smaps and the fault
# count, never predicted: the zero page is zero_map_rate (apart from
# touch_rate's chart), the huge zero page touch=read_hugezero, a read that
# allocated huge pages stays touch_rate with a note; the random pass's state
# lives in a 4 KiB-page mapping of its own.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
"$MEMPATH" probe cpu.first_touch size=32M pages=4k,thp touch=read --reps 2 --warmups 0 \
	-o ft.json >ft.txt 2>&1 || fail "probe failed: $(tail -n 3 ft.txt)"
grep -q '"aux_pages": "4 KiB pages (MADV_NOHUGEPAGE), 0 MiB THP"' ft.json ||
	fail "no 4 KiB auxiliary mapping recorded: $(grep aux ft.json)"
# 4k: one fault per 4 KiB page, the shared zero page, nothing backing it
rate=$(csv_value ft.json cpu.first_touch zero_map_rate "pages=4k,touch=read")
[ -n "$rate" ] || fail "pages=4k touch=read is not zero_map_rate: $(grep -o 'touch_rate *pages=4k[^ ]*' ft.txt)"
[ "$(csv_value ft.json cpu.first_touch thp_backed "pages=4k,touch=read")" = 0 ] || fail "4k read got THP"
grep -q 'random_after *pages=4k,touch=read' ft.txt && fail "a random pass over the zero page"
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
[ -n "$thp" ] && [ "$thp" != never ] || skip "THP is '${thp:-absent}' here: only the 4k half checked"
# thp: the huge zero page (one fault per 2 MiB, no AnonHugePages), or real huge pages
if [ -n "$(csv_value ft.json cpu.first_touch zero_map_rate "pages=thp,touch=read_hugezero")" ]; then
	[ "$(csv_value ft.json cpu.first_touch thp_backed "pages=thp,touch=read_hugezero")" = 0 ] ||
		fail "read_hugezero with THP backing"
	f=$(csv_value ft.json cpu.first_touch minor_faults "pages=thp,touch=read_hugezero")
	awk -v f="$f" 'BEGIN { exit !(f <= 1024) }' || fail "read_hugezero with $f faults/GiB"
else
	h=$(csv_value ft.json cpu.first_touch thp_backed "pages=thp,touch=read")
	[ -n "$(csv_value ft.json cpu.first_touch touch_rate "pages=thp,touch=read")" ] ||
		fail "pages=thp touch=read is neither read_hugezero nor touch_rate: $(cat ft.txt)"
	awk -v h="$h" 'BEGIN { exit !(h > 0) }' || fail "touch_rate for a read with $h MiB THP"
	grep -q '"read_touch": "a read touch allocated huge pages' ft.json || fail "no read_touch note"
fi
exit 0
