# cpu: the THP variant is verified, not assumed - smaps backing and fault
# counts must match the page size actually obtained.
. "$top/tests/cli/lib.sh"
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
[ -n "$thp" ] || skip "no THP on this kernel"
"$MEMPATH" probe cpu.first_touch size=64M touch=write --reps 2 --warmups 0 -o ft.json >/dev/null 2>&1 ||
	fail "probe failed"
four=$(csv_value ft.json cpu.first_touch thp_backed "pages=4k,touch=write")
[ "$four" = 0 ] || fail "4k variant had $four MiB of THP (MADV_NOHUGEPAGE ignored?)"
faults=$(csv_value ft.json cpu.first_touch minor_faults "pages=4k,touch=write")
awk -v f="$faults" 'BEGIN { exit !(f >= 262144 * 0.95) }' || fail "4k faults/GiB $faults, expected ~262144"
[ "$thp" = never ] && skip "THP is 'never' here: only the 4k half checked"
huge=$(csv_value ft.json cpu.first_touch thp_backed "pages=thp,touch=write")
awk -v h="$huge" 'BEGIN { exit !(h >= 60) }' || fail "thp variant obtained only $huge MiB of 64"
exit 0
