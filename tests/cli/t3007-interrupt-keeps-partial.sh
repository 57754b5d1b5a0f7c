# processes: a probe stopped before its end (Ctrl-C here; a timeout the same
# way) keeps what its child had measured by its last step: the child writes
# its result so far at its steps (at most once a second) into a private
# folder under $TMPDIR, and the parent takes it when the child gives none.
# The test waits for that file (the event), then interrupts.
. "$top/tests/cli/lib.sh"
mkdir tmp
TMPDIR=$PWD/tmp "$MEMPATH" probe work.decode weights=8M kv=1M batch=2 --reps 100000 --warmups 0 \
	-o w.json >w.txt 2>w.err &
pid=$!
i=0
until ls tmp/*/partial.json >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -le 600 ] || { kill -9 $pid; fail "no partial result after 60 s: $(cat w.err)"; }
	kill -0 $pid 2>/dev/null || fail "the probe ended before its first step was kept: $(cat w.err)"
	sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "interrupted probe exited $rc, not 130: $(cat w.err)"
grep -q 'work.decode fail: interrupted (the metrics it had finished are kept)' w.err ||
	fail "no word of what was kept: $(cat w.err)"
"$MEMPATH" report w.json --format csv >w.csv || fail "report of the kept result"
n=$(awk -F, '$1 == "work.decode" && $3 == "tokens_per_s" { print $7 }' w.csv)
[ -n "$n" ] && [ "$n" -ge 1 ] || fail "no tokens_per_s sample kept: $(cat w.csv)"
[ -z "$(ls tmp)" ] || fail "the private folder was left behind: $(ls -R tmp)"
exit 0
