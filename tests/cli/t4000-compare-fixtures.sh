# compare: verdicts on the fixtures (tests/data/gen_fixtures.sh): A/A, a known
# effect, drift, a moved control, a knob nobody declared, missing and void;
# A/B/A' (one process a side) has too few legs for a verdict, four legs a
# side are judged (docs/design.md §5.4).
. "$top/tests/cli/lib.sh"
d=$top/tests/data
ctl='cpu.first_touch,pages=thp'
row() { grep "^cpu.first_touch $1" "$2"; }
# four legs a side, A first: legs8 B1 B2 B3 B4
legs8() { echo "$d/cmp-aa-1.json $d/$1 $d/cmp-aa-3.json $d/$2 $d/cmp-aa-4.json $d/$3 $d/cmp-aa-5.json $d/$4"; }
eff8=$(legs8 cmp-effect-b.json cmp-effect-b2.json cmp-effect-b3.json cmp-effect-b4.json)

"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-aa-2.json" "$d/cmp-aa-3.json" >aa.txt ||
	fail "A/A/A compare exited $?"
grep -v '^summary' aa.txt | grep -Eq ' (WIN|LOSS|UNSTABLE)' && fail "A/A/A gave a verdict: $(cat aa.txt)"
grep -q '^summary: 0 WIN, 0 LOSS, 0 NOWIN, 0 UNSTABLE; .*; 6 too few samples or legs' aa.txt ||
	fail "A/A summary: $(tail -1 aa.txt)"
# shellcheck disable=SC2046 # eight paths without spaces
"$MEMPATH" compare $(legs8 cmp-aa-2.json cmp-aa-6.json cmp-aa-7.json cmp-aa-8.json) >aa8.txt ||
	fail "A/A of 8 legs exited $?"
grep -q '^summary: 0 WIN, 0 LOSS, 6 NOWIN, 0 UNSTABLE' aa8.txt || fail "A/A summary of 8 legs: $(tail -1 aa8.txt)"

# A/B/A' of a +20% effect: the change shown, no verdict, the reason said
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" "$d/cmp-aa-3.json" --control "$ctl" >eff3.txt ||
	fail "A/B/A' compare failed"
row "touch_rate pages=4k" eff3.txt | grep -q 'too few samples: not enough legs to judge (+19.[0-9]% .*): 2 processes of A, 1 of B' ||
	fail "A/B/A' judged: $(row 'touch_rate pages=4k' eff3.txt)"
grep -q 'controls moved' eff3.txt && fail "controls of A/B/A' read as moved"
# shellcheck disable=SC2086
"$MEMPATH" compare $eff8 --control "$ctl" >eff.txt || fail "effect compare failed"
row "touch_rate pages=4k" eff.txt | grep -q ' WIN$' || fail "known effect not a WIN: $(cat eff.txt)"
grep -q '^summary: 1 WIN, 0 LOSS, 3 NOWIN, 0 UNSTABLE; geomean' eff.txt || fail "summary: $(tail -1 eff.txt)"
grep -q 'controls moved' eff.txt && fail "controls flagged without moving"
head -1 eff.txt | grep -q '^compare: stock \[A\].* -> patched \[B\].* -> stock again \[A\]' ||
	fail "leg names: $(head -1 eff.txt)"

"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" "$d/cmp-drift-a2.json" >drift.txt
row "touch_rate pages=4k" drift.txt | grep -q 'UNSTABLE: stock again vs stock -1[0-9]\.[0-9]%' ||
	fail "drift not UNSTABLE: $(cat drift.txt)"

ctl8=$(legs8 cmp-control-b.json cmp-control-b2.json cmp-control-b3.json cmp-control-b4.json)
# shellcheck disable=SC2086
"$MEMPATH" compare $ctl8 --control "$ctl" >ctl.txt
rc=$?
head -1 ctl.txt | grep -q '^controls moved - verdicts untrusted: cpu.first_touch touch_rate pages=thp,touch=write (LOSS)' ||
	fail "moved control not on the first line: $(head -1 ctl.txt)"
# a moved control: no verdict is trusted, the summary says so first, exit 3
[ $rc -eq 3 ] || fail "a moved control exited $rc, not 3 (no trusted verdict)"
tail -1 ctl.txt | grep -q '^no trusted verdict (2 controls moved): 1 WIN and 0 LOSS not trusted, .*; no geomean' ||
	fail "summary of a moved control: $(tail -1 ctl.txt)"
# and a control's LOSS is no LOSS for --fail-on-loss: still 3, not 1
# shellcheck disable=SC2086
"$MEMPATH" compare $ctl8 --control "$ctl" --fail-on-loss >/dev/null
rc=$?
[ $rc -eq 3 ] || fail "a control's LOSS with --fail-on-loss exited $rc, not 3"
# shellcheck disable=SC2086
expect_fail 1 "$MEMPATH" compare --legs BABABABA $eff8 --fail-on-loss
grep -q 'touch_rate pages=4k.* LOSS$' out.txt || fail "reversed effect not a LOSS: $(cat out.txt)"

"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-knob-b.json" "$d/cmp-aa-3.json" >knob.txt
head -1 knob.txt | grep -q '^knobs differ between legs - no verdict' || fail "knob line: $(head -1 knob.txt)"
grep -q 'knob thp_enabled: stock=madvise, patched=always, stock again=madvise' knob.txt || fail "thp knob not named"
grep -q 'knob swappiness: stock=60, patched=60->10' knob.txt || fail "swappiness not named"
grep -Eq ' (WIN|LOSS|~)$' knob.txt && fail "verdict given although knobs differ"
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-knob-b.json" "$d/cmp-aa-3.json" --expect-diff thp_enabled >knob2.txt
grep -q 'knob thp_enabled' knob2.txt && fail "expected knob still reported"
grep -q 'knob swappiness' knob2.txt || fail "undeclared knob not reported"
# shellcheck disable=SC2046
"$MEMPATH" compare $(legs8 cmp-knob-b.json cmp-knob-b2.json cmp-knob-b3.json cmp-knob-b4.json) \
	--expect-diff thp_enabled --allow-diff >knob3.txt
row "touch_rate pages=4k" knob3.txt | grep -q ' WIN$' || fail "--allow-diff gave no verdict"

"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-missing-b.json" "$d/cmp-void-a2.json" >miss.txt
grep -q '^missing: cpu.first_touch random_after pages=4k,touch=write,streams=8 (absent in patched)' miss.txt ||
	fail "missing metric not listed: $(cat miss.txt)"
grep -q '^cpu.stream copy_bw .*VOID: probe ok in stock, fail in patched' miss.txt || fail "status change not VOID"
row "touch_rate pages=thp" miss.txt | grep -q 'VOID: thp_backed differs between legs of one variant: 16 MiB in stock, 0 MiB in stock again' ||
	fail "THP fact not VOID: $(cat miss.txt)"
row "touch_rate pages=4k" miss.txt | grep -q ' too few samples: not enough legs' || fail "4k path voided by the THP fact: $(row 'touch_rate pages=4k' miss.txt)"

"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-few-b.json" >few.txt
row "touch_rate pages=4k" few.txt | grep -q 'too few samples: n=5 in patched' || fail "5 samples judged"
grep -q 'baseline drift not checked' few.txt || fail "A/B without A' not noted"
# Every non-verdict says why.
# shellcheck disable=SC2046
"$MEMPATH" compare $(legs8 cmp-aa-2.json cmp-aa-6.json cmp-aa-7.json cmp-aa-8.json) >why.txt
n_nowin=$(grep -c ' ~' why.txt)
[ "$n_nowin" -ge 6 ] || fail "expected 6 ~ rows: $(cat why.txt)"
[ "$(grep -c ' ~: not significant (p=' why.txt)" -eq "$n_nowin" ] ||
	fail "a ~ without its reason: $(grep ' ~' why.txt | grep -v 'not significant')"
exit 0
