# history: runs kept in one SQLite database: add (the same run twice, or its
# file reformatted, is kept once), list, show (as 'report' prints the file),
# trend (one metric's medians over the runs, by label set), bless a baseline
# of the machine kind and check a file against it (exit 1 on a LOSS, 2 with
# no baseline); where the database is (--db, MEMPATH_HISTORY, XDG_DATA_HOME);
# run --history; mistakes are one error line and exit 2
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
export MEMPATH_HISTORY=$PWD/h.db
"$MEMPATH" history add "$d/cmp-aa-1.json" "$d/cmp-aa-2.json" "$d/cmp-effect-b.json" >add.txt ||
	fail "add: $(cat add.txt)"
[ "$(grep -c '^added run [123]: ' add.txt)" -eq 3 ] || fail "three runs not added: $(cat add.txt)"
[ -f h.db ] || fail "MEMPATH_HISTORY not used"
"$MEMPATH" history add "$d/cmp-aa-1.json" >again.txt || fail "adding again"
grep -q '^already kept as run 1: ' again.txt || fail "the same run kept twice: $(cat again.txt)"
"$MEMPATH" report "$d/cmp-aa-1.json" --format json -o re.json || fail "report json"
"$MEMPATH" history add re.json >re.txt || fail "adding the reformatted file"
grep -q '^already kept as run 1: re.json' re.txt || fail "a reformatted file is a new run: $(cat re.txt)"
# list
"$MEMPATH" history list --format csv >list.csv || fail "list"
[ "$(tail -n +2 list.csv | wc -l)" -eq 3 ] || fail "list should have 3 runs: $(cat list.csv)"
"$MEMPATH" history list >list.txt || fail "list term"
grep -q '^ *3  *2026-11-30T00:00:00Z  *fixture  *patched' list.txt || fail "list row: $(cat list.txt)"
# show: what report prints of the file
"$MEMPATH" history show 1 --format csv >show.csv || fail "show"
"$MEMPATH" report "$d/cmp-aa-1.json" --format csv >file.csv || fail "report csv"
cmp -s show.csv file.csv || fail "show differs from report: $(diff show.csv file.csv | head)"
# trend: the medians, in the order measured, one series per label set
"$MEMPATH" history trend cpu.first_touch:touch_rate,pages=4k,touch=write --format csv >t.csv ||
	fail "trend: $(cat t.csv)"
[ "$(tail -n +2 t.csv | wc -l)" -eq 3 ] || fail "trend should have 3 points: $(cat t.csv)"
want=$(csv_value "$d/cmp-effect-b.json" cpu.first_touch touch_rate "pages=4k,touch=write")
awk -F, -v w="$want" '$1 == 3 { m = $(NF - 5); exit !(m / w > 0.999 && m / w < 1.001) }' t.csv ||
	fail "run 3's median is not $want: $(cat t.csv)"
"$MEMPATH" history trend 'cpu.first_touch:touch_rate,pages=t*' --limit 1 --format csv >t1.csv ||
	fail "trend with a glob"
[ "$(tail -n +2 t1.csv | wc -l)" -eq 1 ] && grep -q '^3,.*pages=thp' t1.csv ||
	fail "--limit 1 should keep the newest point of the thp series: $(cat t1.csv)"
"$MEMPATH" history trend cpu.first_touch:touch_rate >t.txt || fail "trend term"
grep -q '^cpu.first_touch touch_rate pages=4k,touch=write  (GiB/s; higher is better)' t.txt ||
	fail "trend series heading: $(head -3 t.txt)"
grep -q '+20\.[0-9]%$' t.txt || fail "no change against the first point: $(cat t.txt)"
# bless and check
expect_fail 2 "$MEMPATH" history check "$d/cmp-aa-2.json"
grep -q "no baseline for machine kind 'Fixture CPU | ? CPUs | ? GiB'" err.txt || fail "$(cat err.txt)"
"$MEMPATH" history bless "$d/cmp-aa-1.json" >b.txt || fail "bless: $(cat b.txt)"
grep -q "^run 1 (stock, .*) is the baseline of machine kind 'Fixture CPU" b.txt || fail "$(cat b.txt)"
"$MEMPATH" history list | grep -q '^ *1\*' || fail "the baseline is not marked in the list"
"$MEMPATH" history check "$d/cmp-aa-2.json" >ok.txt 2>ok.err || fail "check of an A/A run should pass: $(cat ok.txt ok.err)"
grep -q '^summary: 0 WIN, 0 LOSS' ok.txt || fail "check summary: $(tail -2 ok.txt)"
# one run against a baseline of one: too few legs to judge (docs/design.md
# §5.4), no LOSS
"$MEMPATH" history check "$d/cmp-control-b.json" >one.txt 2>one.err ||
	fail "one run against one exited $?: $(tail -3 one.txt one.err)"
grep -q 'not enough legs to judge' one.txt || fail "one against one judged: $(cat one.txt)"
# a baseline of four runs judges one
"$MEMPATH" history add "$d/cmp-aa-3.json" "$d/cmp-aa-4.json" "$d/cmp-aa-5.json" >/dev/null || fail "add 3"
"$MEMPATH" history bless 1 4 5 6 >b4.txt || fail "bless a set: $(cat b4.txt)"
"$MEMPATH" history check "$d/cmp-control-b.json" >loss.txt 2>loss.err
[ $? -eq 1 ] || fail "a LOSS should exit 1: $(tail -3 loss.txt loss.err)"
grep -q 'read LOSS against runs 1 to 6 (4 runs), the baseline of' loss.err || fail "$(cat loss.err)"
grep -q 'LOSS' loss.txt || fail "no LOSS row: $(cat loss.txt)"
"$MEMPATH" history bless 3 >b3.txt || fail "bless by number"
grep -q '^run 3 ' b3.txt || fail "$(cat b3.txt)"
[ "$("$MEMPATH" history list --format csv | awk -F, '$9 == "yes"' | cut -d, -f1)" = 3 ] ||
	fail "blessing run 3 should replace run 1 as the baseline"
# mistakes
expect_fail 2 "$MEMPATH" history lst
grep -q "did you mean 'list'" err.txt || fail "$(cat err.txt)"
expect_fail 2 "$MEMPATH" history
expect_fail 2 "$MEMPATH" history show 99
expect_fail 2 "$MEMPATH" history show --limit 3 1
expect_fail 2 "$MEMPATH" history trend cpu.first_touch
expect_fail 2 "$MEMPATH" history trend cpu.nothing:none
grep -q 'did you mean' err.txt && fail "a hint for a name nothing is near: $(cat err.txt)"
# a mistyped metric or probe: the nearest that the history keeps
expect_fail 2 "$MEMPATH" history trend cpu.first_touch:touch_rat
grep -q "did you mean 'cpu.first_touch:touch_rate'?" err.txt || fail "no did-you-mean: $(cat err.txt)"
expect_fail 2 "$MEMPATH" history trend cpu.frist_touch:touch_rate,pages=4k
grep -q "did you mean 'cpu.first_touch:touch_rate'?" err.txt || fail "no did-you-mean: $(cat err.txt)"
expect_fail 2 "$MEMPATH" history list --format md
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-aa-2.json" --format json -o c.json || fail "compare"
expect_fail 2 "$MEMPATH" history add c.json
grep -q 'is a comparison' err.txt || fail "$(cat err.txt)"
"$MEMPATH" history add "$d/cmp-corrupt.json" "$d/cmp-aa-6.json" >mix.txt 2>mix.err
[ $? -eq 2 ] || fail "a bad file among good ones should exit 2"
grep -q '^added run 7: ' mix.txt || fail "the good file after a bad one was not added: $(cat mix.txt)"
# where the database is: --db first, then MEMPATH_HISTORY, then XDG_DATA_HOME
"$MEMPATH" history --db other.db add "$d/cmp-aa-1.json" >/dev/null || fail "--db"
[ -f other.db ] || fail "--db not used"
(unset MEMPATH_HISTORY; XDG_DATA_HOME=$PWD/xdg "$MEMPATH" history add "$d/cmp-aa-1.json" >/dev/null) ||
	fail "default db"
[ -f xdg/mempath/history.db ] || fail "no database at \$XDG_DATA_HOME/mempath/history.db"
# run --history keeps what it ran
"$MEMPATH" run --only cpu.wake --reps 2 --warmups 0 --quiet --history -o w.json >/dev/null 2>w.err ||
	fail "run --history: $(cat w.err)"
grep -q "^history: run 8 in $PWD/h.db" w.err || fail "run --history: $(cat w.err)"
"$MEMPATH" history list --format csv | grep -q '^8,.*,quick,1,' || fail "the run is not in the list"
exit 0
