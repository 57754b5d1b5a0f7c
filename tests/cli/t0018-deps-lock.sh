# basics: tools/deps.sh (make deps, make run) waits for the package
# manager's lock, saying so, for at most DEPS_LOCK_TIMEOUT seconds, then goes
# on; every apt-get call carries -o DPkg::Lock::Timeout. A fake apt-get and
# id on PATH and a lock file of the test's own: nothing is installed and the
# machine's dpkg lock is not touched.
# test: waits (a held package-manager lock: a lane beside the pool, tests/run.sh)
. "$top/tests/cli/lib.sh"
command -v flock >/dev/null 2>&1 || skip "no flock here"
mkdir bin
d=$PWD
cat >bin/apt-get <<EOS
#!/bin/sh
echo "apt-get \$*" >>"$d/apt.log"
[ -e "$d/released" ] && echo "after release" >>"$d/apt.log"
exit 0
EOS
printf '#!/bin/sh\necho 0\n' >bin/id
chmod +x bin/apt-get bin/id
: >lock
# hold the lock for 3 s; "held" says it is held, "released" is written just
# before the holder exits (and the lock goes with it)
flock lock sh -c 'touch held; sleep 3; touch released' &
holder=$!
n=0
while [ ! -e held ]; do
	n=$((n + 1))
	[ $n -lt 300 ] || fail "the lock holder did not start"
	sleep 0.1
done
PATH="$d/bin:$PATH" DEPS_DPKG_LOCK="$d/lock" DEPS_LOCK_TIMEOUT=120 MEMPATH_DEPS_MISSING=fake-pkg \
	sh "$top/tools/deps.sh" >out.txt 2>err.txt || fail "deps failed: $(cat out.txt err.txt)"
wait $holder
grep -q "^deps: waiting for the package manager's lock $d/lock (held by pid [0-9]*), at most 120 s" out.txt ||
	fail "no waiting line: $(cat out.txt)"
grep -q '^deps: lock free after [0-9]* s, going on' out.txt || fail "no going-on line: $(cat out.txt)"
grep -q '^apt-get -o DPkg::Lock::Timeout=120 install -y -q .*fake-pkg' apt.log ||
	fail "apt-get not called with the lock timeout: $(cat apt.log)"
grep -q '^after release' apt.log || fail "apt-get ran while the lock was held: $(cat apt.log)"
# every apt-get call carries the timeout
grep '^apt-get' apt.log | grep -v -q 'DPkg::Lock::Timeout=120' && fail "a call without the timeout: $(cat apt.log)"

# a lock held past the bound: one line on stderr, exit 1, apt-get not run
rm -f held released apt.log
flock lock sh -c 'touch held; while [ ! -e stop ]; do sleep 0.1; done' &
holder=$!
n=0
while [ ! -e held ]; do
	n=$((n + 1))
	[ $n -lt 300 ] || fail "the lock holder did not start"
	sleep 0.1
done
PATH="$d/bin:$PATH" DEPS_DPKG_LOCK="$d/lock" DEPS_LOCK_TIMEOUT=1 MEMPATH_DEPS_MISSING=fake-pkg \
	sh "$top/tools/deps.sh" >out.txt 2>err.txt
rc=$?
touch stop
wait $holder
[ $rc -eq 1 ] || fail "deps with the lock held past the bound exited $rc: $(cat out.txt err.txt)"
grep -q "still held by pid [0-9]* after 1 s; run later: apt-get install -y" err.txt ||
	fail "no still-held line: $(cat err.txt)"
[ -e apt.log ] && fail "apt-get ran with the lock held: $(cat apt.log)"

# a bad bound is a usage error
PATH="$d/bin:$PATH" DEPS_LOCK_TIMEOUT=soon MEMPATH_DEPS_MISSING=fake-pkg sh "$top/tools/deps.sh" >out.txt 2>err.txt
[ $? -eq 2 ] || fail "DEPS_LOCK_TIMEOUT=soon did not exit 2"
grep -q "must be a number of seconds" err.txt || fail "no error for DEPS_LOCK_TIMEOUT=soon: $(cat err.txt)"
exit 0
