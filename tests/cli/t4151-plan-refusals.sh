# plan: a leg is never run under a kernel, command line or module its
# variant does not name (conditions faked through MEMPATH_TEST_PLAN_ROOT):
# it is refused before its setup (kernel, cmdline: exit 4 and the boot
# command) or after it (a module's version: exit 1, the restore run); a
# stray file of a leg's name is kept aside, never compared; the boot command
# runs with --boot; a changed plan or a broken journal is refused.
. "$top/tests/cli/lib.sh"
root=$PWD/root
export MEMPATH_TEST_PLAN_ROOT="$root"
mkdir -p "$root/proc/sys/kernel" "$root/sys/module/fakemod" s
echo 6.18.0-test >"$root/proc/sys/kernel/osrelease"
echo "BOOT_IMAGE=/boot/vmlinuz-6.18.0-test ro quiet" >"$root/proc/cmdline"
echo 1.0 >"$root/sys/module/fakemod/version"
ver=$root/sys/module/fakemod/version
# patched's setup swaps the module in only once swap-ok exists
cat >s/p.plan <<PLAN
command probe cpu.first_touch size=4M touch=write pages=4k --warmups 0 --reps 3
legs stock patched patched stock
restore echo 1.0 >$ver; echo restore >>$PWD/trail
variant stock
  kernel 6.18.*
  module fakemod 1.0
  setup echo stock >>$PWD/trail
variant patched
  kernel 6.18.*
  cmdline mitigations=off
  module fakemod 2.0
  setup if [ -e $PWD/swap-ok ]; then echo 2.0 >$ver; fi; echo patched >>$PWD/trail
  boot echo reboot-with-mitigations-off >>$PWD/booted
PLAN
trail() { tr '\n' ' ' <trail; }

# leg 1 runs; leg 2 needs a command-line word: refused before its setup
"$MEMPATH" plan s/p.plan >o1 2>e1
rc=$?
[ $rc = 4 ] || fail "a leg whose cmdline does not hold: exit $rc, not 4: $(cat e1)"
grep -qx "next: leg 2 (patched, round 1) cannot run here: the kernel command line lacks 'mitigations=off'" o1 ||
	fail "why: $(cat o1)"
grep -qxF "boot next: echo reboot-with-mitigations-off >>$PWD/booted" o1 || fail "the variant's boot line: $(cat o1)"
[ "$(trail)" = "stock restore " ] || fail "trail: $(trail)"
[ ! -e s/leg-2-r1-patched.json ] || fail "a refused leg left a file"
# --boot runs it (and still says it)
"$MEMPATH" plan --boot s/p.plan >o2 2>e2
[ $? = 4 ] || fail "--boot: $(cat e2)"
[ "$(cat booted)" = reboot-with-mitigations-off ] || fail "--boot did not run the boot line"
[ "$(trail)" = "stock restore " ] || fail "--boot ran a leg: $(trail)"

# "booted": the word is there; the module is still 1.0 after the setup:
# refused there, the restore run, exit 1, no results file
echo "BOOT_IMAGE=/boot/vmlinuz-6.18.0-test ro quiet mitigations=off" >"$root/proc/cmdline"
"$MEMPATH" plan s/p.plan >o3 2>e3
rc=$?
[ $rc = 1 ] || fail "a wrong module version: exit $rc, not 1: $(cat e3)"
grep -qx 'mempath: error: leg 2 (patched) refused after its setup: module fakemod is version 1.0, the variant needs 2.0' e3 ||
	fail "module refusal: $(cat e3)"
[ "$(trail)" = "stock restore patched restore " ] || fail "trail: $(trail)"
[ ! -e s/leg-2-r1-patched.json ] || fail "a refused leg left a results file"

# the wrong kernel: nothing runs
echo 6.17.1-other >"$root/proc/sys/kernel/osrelease"
touch swap-ok
"$MEMPATH" plan s/p.plan >o4 2>e4
rc=$?
[ $rc = 4 ] || fail "the wrong kernel: exit $rc, not 4: $(cat e4)"
grep -qxF "next: leg 2 (patched, round 1) cannot run here: kernel 6.17.1-other is running, the variant needs 6.18.*" o4 ||
	fail "wrong kernel: $(cat o4)"
[ "$(trail)" = "stock restore patched restore " ] || fail "a leg ran under the wrong kernel: $(trail)"

# a changed plan, a broken journal: refused, nothing runs
echo 6.18.0-test >"$root/proc/sys/kernel/osrelease"
sed 's/--reps 3/--reps 4/' s/p.plan >changed.plan
expect_fail 2 "$MEMPATH" plan -o s changed.plan
grep -q "changed since its first leg ran" err.txt || fail "changed plan: $(cat err.txt)"
cp s/plan.journal journal.good
echo '{"schema": "mempath/plan-journal/1"' >s/plan.journal
expect_fail 2 "$MEMPATH" plan s/p.plan
grep -q "is not a plan journal of this plan" err.txt || fail "broken journal: $(cat err.txt)"
cp journal.good s/plan.journal
[ "$(trail)" = "stock restore patched restore " ] || fail "a refused plan ran a leg: $(trail)"

# the swap works now: the rest runs; a stray file of leg 3's name is kept
# aside, the comparison reads the leg's own
echo '{"not": "a leg"}' >s/leg-3-r2-patched.json
"$MEMPATH" plan s/p.plan >o5 2>e5
rc=$?
verdict_ok $rc o5 || fail "the rest of the plan: exit $rc: $(cat e5)"
[ "$(trail)" = "stock restore patched restore patched restore patched restore stock restore " ] ||
	fail "trail: $(trail)"
grep -q '"not": "a leg"' s/leg-3-r2-patched.json.try-0 || fail "the stray file was not kept aside: $(ls s)"
grep -q '"label": "patched"' s/leg-3-r2-patched.json || fail "leg 3 is not the leg's own"
grep -q 'had not run, yet its file was there' s/plan.journal || fail "journal: no word of the stray file"
grep -q '"round": 2' s/leg-4-r2-stock.json || fail "leg 4 does not record its round"
exit 0
