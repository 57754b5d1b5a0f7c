# report (term): a figure whose samples' p5-p95 spans 0 - the dev VM's
# thp_saving at 16K, -0.000357 ns, a difference of two medians - reads
# "! within noise" with the footnote saying its sign is not established; a
# figure clear of 0 in the same probe (thp_saving at 256M, 50.4 ns) does not.
. "$top/tests/cli/lib.sh"
"$MEMPATH" report "$top/docs/results/vm-quick-2026-11-30.json" >r.txt || fail "report: exit $?"
grep -q '^   thp_saving  *size=16K,order=random .*  ! within noise$' r.txt ||
	fail "the 16K saving is not marked: $(grep thp_saving r.txt)"
grep '^   thp_saving  *size=256M,order=random ' r.txt | grep -q 'within noise' &&
	fail "a saving clear of 0 is marked: $(grep thp_saving r.txt)"
grep -q '^   ! within noise: its samples. p5-p95 spans 0, so neither the size nor the sign of the median is established' r.txt ||
	fail "no footnote: $(grep '!' r.txt)"
exit 0
