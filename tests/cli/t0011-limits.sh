# limits: a small stack, few descriptors, absurd /proc values and unreadable
# references end in a clear error or a run, never a crash or a sanitizer
# report (a table of cases: limit, then what runs under it).
. "$top/tests/cli/lib.sh"
d="$top/tests/data"
# sane RC ERRFILE WHAT: no signal death, no sanitizer report.
sane() {
	[ "$1" -lt 128 ] || fail "$3: killed by signal $(($1 - 128)): $(tail -n 3 "$2")"
	! grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' "$2" ||
		fail "$3: sanitizer report: $(grep -m 3 'runtime error\|Sanitizer' "$2")"
}
python3 -c "print('[' * 1000 + ']' * 1000)" >deep.json
python3 -c "print('{\"schema\": \"mempath/run/1\", \"probes\": ' + '[' * 100000 + ']' * 100000 + '}')" >deeper.json
python3 -c "print('{\"schema\": \"mempath/run/1\", \"host\": ' + '{\"a\": ' * 1500 + '1' + '}' * 1500 + ', \"probes\": []}')" >deephost.json
# stack limit (KiB) | command | expected exit. The ASan runtime itself, before
# main, dies now and then under 16 KiB (an empty program built with
# -fsanitize=address did, 4 times in 40 on the dev VM, 2026-12-01): under
# the sanitizers the smallest limit is 32 KiB.
floor=16
[ -z "${MEMPATH_SANITIZED:-}" ] || floor=32
# A build with the CUDA runtime (linked in statically) runs its initializers
# before main, beyond mempath's reach: at 16 KiB they died now and then on
# the dev VM and every time on the H200 machine (2026-12-01), so 64 KiB there.
grep -aq cudaGetErrorName "$MEMPATH" && floor=64
while read -r kib want cmd; do
	[ "$kib" -ge "$floor" ] || kib=$floor
	# shellcheck disable=SC2086
	(ulimit -s "$kib" && exec "$MEMPATH" $cmd) >o.txt 2>e.txt
	rc=$?
	sane $rc e.txt "ulimit -s $kib; $cmd"
	[ $rc -eq "$want" ] || fail "ulimit -s $kib; $cmd: exit $rc, expected $want: $(tail -n 2 e.txt)"
done <<EOF
16 0 probe cpu.wake --reps 1 --warmups 0 -o w16.json
64 0 probe cpu.wake --reps 1 --warmups 0 -o w64.json
16 2 report deep.json
64 2 report deeper.json
16 0 report deephost.json --format json
16 0 compare $d/cmp-aa-1.json $d/cmp-aa-2.json
32 0 list
64 0 wrap -q -n 1 -o wr.json -- true
EOF
"$MEMPATH" report w16.json >/dev/null || fail "the run under ulimit -s 16 wrote a broken file"
# descriptor limit | command: an error or a run, never a crash
while read -r n cmd; do
	# shellcheck disable=SC2086
	(ulimit -n "$n" && exec "$MEMPATH" $cmd) >o.txt 2>e.txt
	sane $? e.txt "ulimit -n $n; $cmd"
done <<EOF
5 probe cpu.wake --reps 1 --warmups 0 -o n5.json
6 probe cpu.wake --reps 1 --warmups 0 -o n6.json
5 wrap -q -n 1 -o n5w.json -- true
7 wrap -q -n 1 -o n7w.json -- true
5 sysinfo
6 report $d/cmp-aa-1.json
EOF
# references that cannot be read: one error line, exit 2, nothing leaked
echo '{"schema":' >badref.json
mkdir -p refd && cp badref.json refd/x.json
expect_fail 2 "$MEMPATH" fleet merge --refs /nope "$d/cmp-aa-1.json" -o f.json
expect_fail 2 "$MEMPATH" fleet merge --refs badref.json "$d/cmp-aa-1.json" -o f.json
expect_fail 2 "$MEMPATH" fleet merge --refs refd "$d/cmp-aa-1.json" -o f.json
MEMPATH_REFS=/nope expect_fail 2 "$MEMPATH" fleet merge "$d/cmp-aa-1.json" -o f.json
expect_fail 2 "$MEMPATH" check --refs refd "$d/cmp-aa-1.json"
[ ! -e f.json ] || fail "a fleet file was written with references unreadable"
# /proc/meminfo values that do not fit (root: a bind mount of our own)
[ "$(id -u)" = 0 ] && command -v unshare >/dev/null || skip "needs root and unshare for a /proc/meminfo of our own"
sed 's/^MemAvailable:.*/MemAvailable:   9223372036854775807 kB/
	s/^MemTotal:.*/MemTotal:       -9223372036854775807 kB/
	s/^MemFree:.*/MemFree:        99999999999999999999 kB/' /proc/meminfo >meminfo
unshare -m true 2>/dev/null || skip "cannot make a mount namespace here"
for cmd in "probe cpu.first_touch size=4M --reps 1 --warmups 0 -o m.json" "sysinfo --json" "doctor"; do
	unshare -m sh -c "mount --bind '$PWD/meminfo' /proc/meminfo && exec '$MEMPATH' $cmd" >o.txt 2>e.txt
	sane $? e.txt "meminfo of 2^63-1 kB; $cmd"
done
exit 0
