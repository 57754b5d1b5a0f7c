# The comparison's report has the counters per configuration (a column per
# leg and round), and they show the mechanism: under numa_balancing=2 (nb2)
# pages were promoted and the balloon's demoted in every round; under 0 (nb0)
# nothing was promoted and fewer pages were demoted than under 2.
set -u
. "$(dirname "$0")/lib.host.sh"
case $(cat ab.rc) in 0 | 1) ;; *) fail "ab exited $(cat ab.rc): $(tail -n 15 ab.txt)" ;; esac
grep -q '^\*\*Counters per run' report.md || fail "no counters table: $(tail -n 30 report.md)"
grep -q "^\*\*measured under an emulator (QEMU TCG): timings are the emulator's, not memory figures" report.md ||
	fail "the comparison does not say its timings are an emulator's: $(head -n 5 report.md)"
# cells COUNTER: "LEG VALUE" per column of the counters table, 0 where the row is absent
cells() {
	awk -F'|' -v c="vmstat $1 (machine-wide)" '
		/^\*\*Counters per run/ { t = 1; next }
		t == 1 && /^\| metric \|/ { for (i = 4; i < NF; i++) { h[i] = $i; gsub(/^ +| +$/, "", h[i]) } n = NF; t = 2; next }
		t == 2 && /^$/ { t = 3 }
		t == 2 { l = $2; gsub(/^ +| +$/, "", l); if (l == c) for (i = 4; i < NF; i++) { v[i] = $i + 0; f = 1 } }
		END { for (i = 4; i < n; i++) print h[i], (f ? v[i] : 0) }' report.md
}
cells pgpromote_success >promote
cells pgdemote_kswapd >kswapd
cells pgdemote_direct >direct
[ -s promote ] || fail "no leg columns in the counters table: $(sed -n '/Counters per run/,/^$/p' report.md)"
paste promote kswapd direct | awk '
	{ leg = $1; p = $3; d = $6 + $9 }
	leg == "nb2" && (p <= 0 || d <= 0) { printf "nb2 %s: promoted %s, demoted %s\n", $2, p, d; bad = 1 }
	leg == "nb0" && p != 0 { printf "nb0 %s: promoted %s under numa_balancing=0\n", $2, p; bad = 1 }
	leg == "nb2" { d2 += d } leg == "nb0" { d0 += d }
	END { if (!(d2 > d0)) { printf "demoted %s under nb2, %s under nb0\n", d2, d0; bad = 1 } exit bad }' >verdict ||
	fail "$(cat verdict); the table: $(sed -n '/Counters per run/,/^$/p' report.md | grep -E 'metric|pgpromote|pgdemote')"
echo "note: promoted/demoted per run (median) $(paste promote kswapd direct | awk '{ printf "%s%s %s: %d/%d", s, $1, $2, $3, $6 + $9; s = ", " }')"
