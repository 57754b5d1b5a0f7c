# cpu: pages= takes the sizes this kernel offers (read from sysfs), a bad
# one is a usage error naming them; as root, an mTHP size is enabled alone
# for its rows and a hugetlb pool grown for them, and every per-size
# setting and pool reads afterwards exactly as before: after a normal run,
# after SIGTERM, and after SIGKILL once the next run (or ab
# --restore-pending) recovered the journal.
# test: alone (it sets the mTHP and hugetlb knobs that tests beside it fingerprint)
. "$top/tests/cli/lib.sh"
expect_fail 2 "$MEMPATH" probe cpu.first_touch pages=3k
grep -q "this kernel offers: 4k" err.txt || fail "the error names no sizes: $(cat err.txt)"
expect_fail 2 "$MEMPATH" probe cpu.cycler to=hugetlb-2m
grep -q "does not split to 'hugetlb-2m'" err.txt || fail "cycler to=hugetlb-2m: $(cat err.txt)"
thp=/sys/kernel/mm/transparent_hugepage
mthp=$(ls -d $thp/hugepages-*kB 2>/dev/null | while read -r d; do
	[ -e "$d/enabled" ] && basename "$d"; done | sed 's/hugepages-\([0-9]*\)kB/\1/' | sort -n | head -n 1)
[ -n "$mthp" ] || skip "no mTHP sizes here (kernel before 6.8)"
[ "$(id -u)" -eq 0 ] && [ -w "$thp/hugepages-${mthp}kB/enabled" ] ||
	skip "not root: the knobs cannot be set (the non-root path is the probe's note)"
snap() {
	for f in $thp/enabled $thp/hugepages-*kB/enabled /sys/kernel/mm/hugepages/*/nr_hugepages; do
		[ -e "$f" ] && echo "$f $(cat "$f")"
	done
}
snap >before.txt
export MEMPATH_KNOB_JOURNAL_DIR="$PWD/journal"
name=$(awk -v k="$mthp" 'BEGIN { print (k % 1024 ? k "k" : k / 1024 "m") }')
# a normal run: the row is at the size asked, the knobs as before after it
"$MEMPATH" probe cpu.first_touch size=16M pages="$name",hugetlb-2m touch=write --reps 2 \
	--warmups 0 -o ok.json >ok.txt 2>&1 || fail "probe failed: $(tail -n 3 ok.txt)"
snap >after.txt
cmp -s before.txt after.txt || fail "knobs changed by a run: $(diff before.txt after.txt)"
[ ! -e journal/restore.pending ] || fail "the journal outlived a normal run"
grep -q "\"pages_$name\": \"$name enabled alone" ok.json || fail "no note for $name: $(grep pages_ ok.json)"
f=$(csv_value ok.json cpu.first_touch minor_faults "pages=$name,touch=write")
b=$(csv_value ok.json cpu.first_touch backed_at_size "pages=$name,touch=write")
[ -n "$b" ] || fail "no backed_at_size for $name"
# where the backing was obtained, one fault per page of the size asked
# (not under ASan: its shadow memory's faults are the process's too)
if [ -n "${MEMPATH_SANITIZED:-}" ]; then
	:
elif awk -v b="$b" 'BEGIN { exit !(b >= 0.95 * 16) }'; then
	awk -v f="$f" -v k="$mthp" 'BEGIN { e = 1048576 / k; exit !(f >= 0.95 * e && f <= 1.05 * e) }' ||
		fail "$f faults/GiB at $name (expected $((1048576 / mthp)))"
else
	grep -q '"state": "failed"' ok.json || fail "$b MiB of 16 at $name and no failed receipt"
fi
# a long run, stopped when it holds the knobs: by SIGTERM (its handlers
# restore), then by SIGKILL of mempath and its child (the journal does)
long() {
	"$MEMPATH" probe cpu.first_touch size=16M pages="$name" touch=write --reps 100000 \
		--warmups 0 >long.txt 2>&1 &
	pid=$!
	i=0
	until [ -e journal/restore.pending ] && grep -q "\[madvise\]" "$thp/hugepages-${mthp}kB/enabled"; do
		i=$((i + 1))
		[ $i -lt 600 ] || { kill -9 "$pid"; fail "the long run never set the knobs: $(cat long.txt)"; }
		sleep 0.1
	done
}
long
# a second run meanwhile touches none of the knobs the first one holds
"$MEMPATH" probe cpu.first_touch size=16M pages="$name" touch=write --reps 1 --warmups 0 \
	-o second.json >second.txt 2>&1 || fail "a second run failed: $(tail -n 3 second.txt)"
grep -q "another mempath run holds the page-size knobs" second.json ||
	fail "the second run did not leave the knobs to the first: $(grep "pages_$name" second.json)"
[ -e journal/restore.pending ] || fail "the second run removed the first one's journal"
kill -TERM "$pid"
wait "$pid"
snap >after.txt
cmp -s before.txt after.txt || fail "knobs not restored after SIGTERM: $(diff before.txt after.txt)"
[ ! -e journal/restore.pending ] || fail "the journal outlived a SIGTERM"
long
child=$(pgrep -P "$pid" | head -n 1)
kill -9 "$pid" $child
wait "$pid" 2>/dev/null
i=0
while [ -n "$child" ] && kill -0 "$child" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "the probe's child outlived SIGKILL"
	sleep 0.1
done
[ -e journal/restore.pending ] || fail "SIGKILL left no journal"
grep -q "\[madvise\]" "$thp/hugepages-${mthp}kB/enabled" || fail "SIGKILL left nothing set?"
# the next run puts them back before it measures
"$MEMPATH" probe cpu.first_touch size=16M pages=4k touch=write --reps 1 --warmups 0 \
	>next.txt 2>&1 || { "$MEMPATH" ab --restore-pending journal >/dev/null 2>&1; fail "next run failed: $(cat next.txt)"; }
snap >after.txt
cmp -s before.txt after.txt || fail "knobs not recovered by the next run: $(diff before.txt after.txt)"
grep -q "put back what a killed run" next.txt || fail "the recovery said nothing: $(cat next.txt)"
[ ! -e journal/restore.pending ] || fail "the journal outlived its recovery"
# the same record is ab's: --restore-pending runs its shell command
long
child=$(pgrep -P "$pid" | head -n 1)
kill -9 "$pid" $child
wait "$pid" 2>/dev/null
sleep 0.2
"$MEMPATH" ab --restore-pending journal >ab.txt 2>&1 || fail "ab --restore-pending: $(cat ab.txt)"
snap >after.txt
cmp -s before.txt after.txt || fail "knobs not restored by ab --restore-pending: $(diff before.txt after.txt)"
dbg=$(grep -c ' /sys/kernel/debug debugfs ' /proc/mounts)
# cycler: 25% of the 2 MiB pages split to the mTHP size, verified in the
# page table, or the param saying why debugfs could not (kernel lockdown)
"$MEMPATH" probe cpu.cycler split=25 to="$name" size=64M threads=1 --reps 2 --warmups 0 \
	-o cyc.json >cyc.txt 2>&1 || fail "cycler to=$name: $(tail -n 3 cyc.txt)"
# refused (lockdown): the buffer is built instead and says so; either way
# the rows read what the buffer got
if grep -q '"split_to": ' cyc.json; then
	grep -q '"split_to_method": "built, not split' cyc.json ||
		fail "the split was refused and the rows do not say they were built"
fi
if :; then
	o=$(csv_value cyc.json cpu.cycler split_obtained "split=25,to=$name")
	a=$(csv_value cyc.json cpu.cycler split_at_order "split=25,to=$name")
	awk -v o="$o" -v a="$a" 'BEGIN { exit !(o >= 23 && o <= 27 && a >= 95) }' ||
		fail "split to $name: obtained $o%, at the order $a%"
	[ "$(csv_value cyc.json cpu.cycler mismatches "split=25,to=$name")" = 0 ] || fail "mismatches"
fi
[ "$(grep -c ' /sys/kernel/debug debugfs ' /proc/mounts)" = "$dbg" ] ||
	fail "debugfs mounts changed by the cycler: $dbg before, $(grep -c ' /sys/kernel/debug debugfs ' /proc/mounts) after"
# an A/B between two mTHP settings: compare names the per-size knobs
big=$thp/hugepages-2048kB/enabled
if [ -w "$big" ] && [ "$mthp" != 2048 ]; then
	was=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$big")
	s=$thp/hugepages-${mthp}kB/enabled
	"$MEMPATH" ab --legs ABA -o ab --a "echo never > $s; echo $was > $big" \
		--b "echo madvise > $s; echo never > $big" --expect-diff "mthp_${mthp}kB_enabled" \
		--expect-diff mthp_2048kB_enabled -- probe cpu.first_touch pages=thp touch=write \
		size=16M --reps 6 --warmups 0 >ab.txt 2>&1
	rc=$?
	snap >after.txt
	cmp -s before.txt after.txt || fail "knobs changed by the ab: $(diff before.txt after.txt)"
	verdict_ok $rc ab.txt || fail "ab exited $rc: $(tail -n 3 ab.txt)"
	"$MEMPATH" compare ab/leg-1-A.json ab/leg-2-B.json >cmp.txt 2>&1
	grep -q "knob mthp_${mthp}kB_enabled: A=never, B=madvise" cmp.txt ||
		fail "compare does not name the per-size knob: $(head -n 5 cmp.txt)"
	grep -q "knob mthp_2048kB_enabled: A=$was, B=never" cmp.txt ||
		fail "compare does not name the 2 MiB knob: $(head -n 5 cmp.txt)"
fi
exit 0
