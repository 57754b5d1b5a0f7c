# phantom --churn: K cycles while a holder (a shell command, or cpu:SIZE)
# keeps running and a host memory hog applies pressure; both are gone at the
# end, every cycle is checked, new kernel warnings are counted.
. "$top/tests/cli/lib.sh"
"$MEMPATH" phantom --cpu 256M --hold 0 --churn 3 --holder 'sleep 39' --hog 256M --settle 4 \
	-o c.json >c.txt 2>c.err || fail "churn exited $?: $(cat c.txt c.err)"
grep -q '^result: PASS$' c.txt || fail "not PASS: $(cat c.txt)"
grep -q '^phantom: cpu 256M  (3 cycles, holder sleep 39)$' c.txt || fail "title: $(head -n 1 c.txt)"
[ "$(grep -c '^ *[123] exit 0 ' c.txt)" -eq 3 ] || fail "cycle rows: $(cat c.txt)"
grep -q 'starting a 0.2 GiB host memory hog' c.err || fail "hog not started"
grep -q 'holder and hog stopped; settling' c.err || fail "no final settle"
if [ -r /dev/kmsg ]; then
	grep -q '^kernel log (/dev/kmsg): [0-9]* new warnings, 0 bug reports$' c.txt || fail "kernel log line: $(cat c.txt)"
else
	grep -q '^kernel log: skipped: ' c.txt || fail "no skip reason for the kernel log"
fi
sleep 0.2
pgrep -f "sleep 39" >/dev/null && fail "the holder outlived the run"
"$MEMPATH" report c.json --format csv | grep -q '^work.phantom,ok,cycle_missing,,GiB,lower,3,' ||
	fail "per-cycle metric"
# A built-in holder.
"$MEMPATH" phantom --cpu 128M --hold 0 --churn 2 --holder cpu:128M --settle 4 -q -o h.json >h.txt 2>&1 ||
	fail "cpu holder run failed: $(cat h.txt)"
grep -q '^result: PASS$' h.txt || fail "cpu holder: not PASS"
exit 0
