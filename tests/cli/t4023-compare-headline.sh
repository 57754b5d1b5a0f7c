# compare: the answer in one line, last on the terminal (stderr, so that the
# table on stdout, and the committed golden comparisons, are as before): the
# largest change with a verdict (a speed before a count), oriented as a
# word, its 95% CI, and how many others changed or did not; nothing when no
# verdict is trusted (the summary line says why)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" "$d/cmp-aa-3.json" >e.txt 2>e.err ||
	fail "compare: $(cat e.err)"
tail -n 1 e.err | grep -qx 'patched is 1\.2x faster at cpu\.first_touch touch_rate pages=4k,touch=write \[1\.[0-9]*, 1\.[0-9]*\], 5 unchanged' ||
	fail "headline: $(tail -n 1 e.err)"
grep -q 'faster at' e.txt && fail "the headline went to stdout"
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-aa-2.json" "$d/cmp-aa-3.json" >a.txt 2>a.err ||
	fail "compare A/A: $(cat a.err)"
tail -n 1 a.err | grep -q ': no change beyond noise in the [0-9]* metrics with a verdict$' ||
	fail "A/A headline: $(tail -n 1 a.err)"
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-control-b.json" "$d/cmp-aa-3.json" \
	--control 'cpu.first_touch,pages=thp' >c.txt 2>c.err
[ $? -eq 3 ] || fail "a moved control should exit 3"
grep -q 'faster\|slower\|no change beyond' c.err && fail "a headline without a trusted verdict: $(cat c.err)"
exit 0
