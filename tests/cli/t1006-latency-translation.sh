# cpu: cpu.latency measures the local order beside a random chain over the
# same nodes (one per 256 B), keeps the 64 B curve, and, where THP backs the
# whole buffer, checks translation_cost against thp_saving and says the
# outcome (agreement, or the gap split into its two measured parts). Before
# each chain it makes the chain's translations present with page passes and
# records them (extra.page_pass), saying where they were absent.
. "$top/tests/cli/lib.sh"
"$MEMPATH" probe cpu.latency sizes=16K,32M pages=4k,thp --reps 3 --warmups 1 -o lat.json \
	>lat.txt 2>&1 || fail "probe failed: $(tail -n 3 lat.txt)"
for p in 4k thp; do
	for l in "size=32M,pages=$p,order=random,stride_bytes=64" \
		"size=32M,pages=$p,order=random,stride_bytes=256" \
		"size=32M,pages=$p,order=local,stride_bytes=256" \
		"size=16K,pages=$p,order=random,stride_bytes=64"; do
		[ -n "$(csv_value lat.json cpu.latency load_latency "$l")" ] || fail "no load_latency $l"
	done
	# one group or less: the local order is the random one, not measured twice
	grep -q "size=16K,pages=$p,order=local" lat.txt && fail "local measured below one group"
	[ -n "$(csv_value lat.json cpu.latency translation_cost "size=32M,pages=$p")" ] ||
		fail "no translation_cost at pages=$p"
done
for s in 64 256; do
	[ -n "$(csv_value lat.json cpu.latency thp_saving "size=32M,order=random,stride_bytes=$s")" ] ||
		fail "no thp_saving for stride $s"
done
full=$(csv_value lat.json cpu.latency thp_backed "pages=thp")
if awk -v h="$full" 'BEGIN { exit !(h >= 32) }'; then
	grep -Eq '"translation_check": "size 32M: translation_cost -?[0-9.]+ ns (agrees with|vs) thp_saving' lat.json ||
		fail "THP backs the buffer but no translation check: $(grep translation_check lat.json)"
	grep -q '"random_minus_local_thp_ns"' lat.json || fail "the check's parts are not recorded"
else
	grep -q '"translation_check": "not made: THP did not back the whole buffer"' lat.json ||
		fail "no reason for the missing check"
fi
# page passes: one record per chain measured (per page size: the 16K curve,
# the 32M curve and the 32M pair), each with two passes or more
[ "$(grep -c '"ns_per_page"' lat.json)" = 8 ] ||
	fail "expected 8 page-pass records: $(grep -c '"ns_per_page"' lat.json)"
short=$(awk '/"ns_per_page": \[/ { n = 0; on = 1; next }
	on && /\]/ { if (n < 2) bad++; on = 0 }
	on && /^ *[0-9.e+-]+,?$/ { n++ }
	END { print bad + 0 }' lat.json)
[ "$short" = 0 ] || fail "$short page-pass records with fewer than two passes"
if grep -q '"absent": true' lat.json; then
	grep -q '"page_pass": "translations absent before [0-9]* of 8 chains' lat.json ||
		fail "translations absent but not said"
else
	grep -q '"page_pass": "' lat.json && fail "page_pass note without an absent record"
fi
# a stride that is not a power of two is refused
"$MEMPATH" probe cpu.latency sizes=1M stride=96 >bad.txt 2>&1 && fail "stride=96 accepted"
grep -q "stride a power of two" bad.txt || fail "stride=96 refused without the reason: $(cat bad.txt)"
exit 0
