# plan: a study of two variants on two kernels (faked through the test root,
# MEMPATH_TEST_PLAN_ROOT), killed (SIGKILL) at the start of every leg and in
# a restore, resumed each time and across each "reboot": every leg runs to
# its end exactly once more after its killed try, no finished leg runs
# again, none is lost, and after the last leg the comparison is written.
. "$top/tests/cli/lib.sh"
root=$PWD/root
export MEMPATH_TEST_PLAN_ROOT="$root"
mkdir -p "$root/proc/sys/kernel" "$root/boot/grub" s
# Debian's menu: the newest kernel first, then each under the submenu
cat >"$root/boot/grub/grub.cfg" <<'CFG'
menuentry 'Debian GNU/Linux' --class debian --class gnu-linux $menuentry_id_option 'gnulinux-simple-1' {
	linux	/boot/vmlinuz-6.12.115+deb12-amd64 root=UUID=1 ro quiet
}
submenu 'Advanced options for Debian GNU/Linux' $menuentry_id_option 'gnulinux-advanced-1' {
	menuentry 'Debian GNU/Linux, with Linux 6.12.115+deb12-amd64' --class debian $menuentry_id_option 'a' {
		linux	/boot/vmlinuz-6.12.115+deb12-amd64 root=UUID=1 ro quiet
	}
	menuentry 'Debian GNU/Linux, with Linux 6.1.0-54-amd64 (recovery mode)' --class debian $menuentry_id_option 'b' {
		linux	/boot/vmlinuz-6.1.0-54-amd64 root=UUID=1 ro single
	}
	menuentry 'Debian GNU/Linux, with Linux 6.1.0-54-amd64' --class debian $menuentry_id_option 'c' {
		linux	/boot/vmlinuz-6.1.0-54-amd64 root=UUID=1 ro quiet
	}
}
CFG
boot() { echo "$1" >"$root/proc/sys/kernel/osrelease"; }
echo "BOOT_IMAGE=/boot/vmlinuz quiet" >"$root/proc/cmdline"
boot 6.1.0-54-amd64
cat >s/tiers.plan <<'PLAN'
# two kernels, round 1 on the old one, round 2 back on it after the new
command probe cpu.first_touch size=4M touch=write pages=4k --warmups 0 --reps 3
legs old new new old
restore sh ../killer restore
variant old
  kernel 6.1.0-*
  setup sh ../killer old
variant new
  kernel 6.12.*
  setup sh ../killer new
PLAN
# the setup or restore that writes line N of the trail, N in $kill_at,
# kills the plan (the first mempath above it): every leg's first setup,
# and leg 1's first restore (after its measurement)
cat >killer <<'SH'
echo "$1" >>../trail
case " 1 4 8 12 16 " in *" $(wc -l <../trail) "*) ;; *) exit 0 ;; esac
p=$PPID
while [ "$p" -gt 1 ] && [ "$(cat /proc/$p/comm)" != mempath ]; do
	p=$(awk '{ print $4 }' /proc/$p/stat)
done
kill -9 "$p" && sleep 5
SH
mkdir run && cd run || fail "no run dir"
runs=0 kills=0 boots=0 rc=1
while [ $runs -lt 30 ]; do
	runs=$((runs + 1))
	"$MEMPATH" plan ../s/tiers.plan >../out.$runs 2>../err.$runs
	rc=$?
	case $rc in
	137) kills=$((kills + 1)) ;;
	4)
		boots=$((boots + 1))
		case $(cat "$root/proc/sys/kernel/osrelease") in
		6.1.0*) want="Debian GNU/Linux, with Linux 6.12.115+deb12-amd64" ;;
		*) want="Debian GNU/Linux, with Linux 6.1.0-54-amd64" ;;
		esac
		grep -qxF "boot next: grub-reboot 'Advanced options for Debian GNU/Linux>$want' && reboot" ../out.$runs ||
			fail "not the GRUB entry of $want: $(cat ../out.$runs)"
		case $(cat "$root/proc/sys/kernel/osrelease") in
		6.1.0*) boot 6.12.115+deb12-amd64 ;;
		*) boot 6.1.0-54-amd64 ;;
		esac
		;;
	*) break ;;
	esac
done
cd .. || fail "cd"
verdict_ok $rc out.$runs || fail "the last plan run exited $rc: $(cat err.$runs)"
[ $boots = 2 ] || fail "$boots boots, expected 2 (old, new, old)"
# 4 legs killed in their setup, one restore killed
[ $kills = 5 ] || fail "$kills kills, expected 5: $(cat trail | tr '\n' ' ')"
for f in leg-1-r1-old leg-2-r1-new leg-3-r2-new leg-4-r2-old; do
	[ -s "s/$f.json" ] || fail "s/$f.json lost: $(ls s)"
	grep -q '"plan": "../s/tiers.plan"' "s/$f.json" || fail "$f.json does not record its plan"
done
# each leg: its killed setup, the restore it left pending, its setup, its
# restore; leg 1's restore killed after its measurement, so that leg ran
# once more (its file kept as try-2) after the restore it left
[ "$(tr '\n' ' ' <trail)" = "old restore old restore restore old restore new restore new restore new restore new restore old restore old restore " ] ||
	fail "setups and restores: $(tr '\n' ' ' <trail)"
[ -s s/leg-1-r1-old.json.try-2 ] || fail "the leg whose restore was killed did not keep its file: $(ls s)"
grep -c '"state": "done"' s/plan.journal | grep -qx 4 || fail "journal: $(cat s/plan.journal)"
[ "$(grep '"tries"' s/plan.journal | tr -d ' \n')" = '"tries":3,"tries":2,"tries":2,"tries":2,' ] ||
	fail "tries: $(grep '"tries"' s/plan.journal)"
grep -q '"kernel": "6.12.115+deb12-amd64"' s/plan.journal || fail "journal lacks the kernels"
[ -s s/compare.json ] && [ -s s/compare.md ] || fail "no comparison after the last leg: $(ls s)"
grep -q '"rounds": 2' s/compare.json || fail "the comparison is not of the plan's two rounds"
# done: another plan run repeats nothing
"$MEMPATH" plan s/tiers.plan >again.out 2>again.err
verdict_ok $? again.out || fail "plan after the last leg: $(cat again.err)"
[ "$(wc -l <trail)" = 19 ] || fail "a finished leg ran again: $(tr '\n' ' ' <trail)"
"$MEMPATH" plan --status s/tiers.plan >st.out 2>st.err || fail "--status: $(cat st.err)"
grep -qx 'plan: 4 of 4 legs done' st.out || fail "--status: $(cat st.out)"
exit 0
