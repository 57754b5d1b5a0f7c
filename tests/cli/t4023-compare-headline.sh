# compare: the answer in one line, last on the terminal (stderr, so that the
# table on stdout, and the committed golden comparisons, are as before): the
# largest change with a verdict (a speed before a count), oriented as a
# word, its 95% CI, and how many others changed or did not; nothing when no
# verdict is trusted (the summary line says why)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
# four legs a side, A first: legs8 B1 B2 B3 B4
legs8() { echo "$d/cmp-aa-1.json $d/$1 $d/cmp-aa-3.json $d/$2 $d/cmp-aa-4.json $d/$3 $d/cmp-aa-5.json $d/$4"; }
# shellcheck disable=SC2046 # paths without spaces
"$MEMPATH" compare $(legs8 cmp-effect-b.json cmp-effect-b2.json cmp-effect-b3.json cmp-effect-b4.json) >e.txt 2>e.err ||
	fail "compare: $(cat e.err)"
tail -n 1 e.err | grep -qx 'patched is 1\.2x faster at cpu\.first_touch touch_rate pages=4k,touch=write \[1\.[0-9]*, 1\.[0-9]*\], 5 unchanged' ||
	fail "headline: $(tail -n 1 e.err)"
grep -q 'faster at' e.txt && fail "the headline went to stdout"
# shellcheck disable=SC2046
"$MEMPATH" compare $(legs8 cmp-aa-2.json cmp-aa-6.json cmp-aa-7.json cmp-aa-8.json) >a.txt 2>a.err ||
	fail "compare A/A: $(cat a.err)"
tail -n 1 a.err | grep -q ': no change beyond noise in the [0-9]* metrics with a verdict$' ||
	fail "A/A headline: $(tail -n 1 a.err)"
# A/B/A': no verdict, and the headline says why instead of "no change"
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" "$d/cmp-aa-3.json" >f.txt 2>f.err ||
	fail "compare A/B/A': $(cat f.err)"
tail -n 1 f.err | grep -q '^patched: no verdict: 6 metrics with too few legs to judge' ||
	fail "A/B/A' headline: $(tail -n 1 f.err)"
# shellcheck disable=SC2046
"$MEMPATH" compare $(legs8 cmp-control-b.json cmp-control-b2.json cmp-control-b3.json cmp-control-b4.json) \
	--control 'cpu.first_touch,pages=thp' >c.txt 2>c.err
[ $? -eq 3 ] || fail "a moved control should exit 3"
grep -q 'faster\|slower\|no change beyond' c.err && fail "a headline without a trusted verdict: $(cat c.err)"
exit 0
