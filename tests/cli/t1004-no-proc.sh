# Facts that cannot be read are unknown, never 0: with /proc hidden (an empty
# tmpfs over it in a mount namespace of the test's own), cpu.first_touch
# records no thp_backed sample and says why, where it used to record 0 MiB.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root for a mount namespace"
command -v unshare >/dev/null || skip "no unshare"
unshare -m sh -c 'mount -t tmpfs none /proc' 2>/dev/null || skip "cannot mount over /proc here"
# LeakSanitizer reads /proc at exit, and ASan reads its options from
# /proc/self/environ: under ASan the empty /proc holds only that file (a
# directory, not the kernel's per-process link), turning the leak check off.
hide='mount -t tmpfs none /proc'
[ -z "${MEMPATH_SANITIZED:-}" ] ||
	hide="$hide && mkdir /proc/self && printf 'ASAN_OPTIONS=detect_leaks=0:handle_segv=0\\0' >/proc/self/environ"
unshare -m sh -c "$hide && exec '$MEMPATH' probe cpu.first_touch size=16M \
	pages=thp touch=write --reps 2 --warmups 0 -o p.json" >p.txt 2>p.err ||
	fail "probe exited $?: $(cat p.err)"
grep -q '"thp_backed": "unknown: /proc/self/smaps not readable"' p.json ||
	fail "no reason recorded: $(grep thp_backed p.json | head -3)"
grep -q '^   thp_backed  *pages=thp,touch=write  *-  *-  *-  *-  *-  *0  MiB$' p.txt ||
	fail "thp_backed should read absent: $(grep thp_backed p.txt)"
"$MEMPATH" probe cpu.first_touch size=16M pages=thp touch=write --reps 2 --warmups 0 >q.txt 2>&1 ||
	fail "probe with /proc exited $?"
grep -q '^   thp_backed  *pages=thp,touch=write  *[0-9]' q.txt || fail "with /proc: $(grep thp_backed q.txt)"
exit 0
