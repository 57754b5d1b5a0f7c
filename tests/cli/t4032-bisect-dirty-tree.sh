# bisect in a work tree with uncommitted changes says so (docs/design.md
# §5.14): the changes are part of what the step runs, so a warning names
# them and the step is named REV-dirty, not after the commit alone; a clean
# tree's step is the commit's short name, and --step names it as given.
. "$top/tests/cli/lib.sh"
command -v git >/dev/null 2>&1 || skip "no git here"
git init -q repo && cd repo && git config user.email t@t && git config user.name t || fail "git init"
echo one >f.txt && git add f.txt && git commit -qm c1 || fail "commit"
rev=$(git rev-parse --short HEAD)
timeout 60 "$MEMPATH" wrap -n 6 --parse lines -o ../ref.json -- sh -c 'echo v 5' >/dev/null 2>&1 || fail "wrap"
step() {
	timeout 120 "$MEMPATH" bisect --good ../ref.json --bad ../ref.json -o ../b "$@" -- \
		wrap -n 6 --parse lines -- sh -c 'echo v 5' >../out.txt 2>../err.txt
	rc=$?
	[ $rc -ne 124 ] && [ $rc -lt 129 ] || fail "bisect: exit $rc: $(tail -3 ../err.txt)"
}
step
! grep -q 'uncommitted' ../err.txt || fail "a clean tree was called dirty: $(cat ../err.txt)"
ls -d ../b/step-1-"$rev" >/dev/null 2>&1 || fail "clean step not named $rev: $(ls ../b)"
echo two >f.txt
step
grep -q "^mempath: warning: the work tree has uncommitted changes (f.txt ...): they are part of this step, so it is named $rev-dirty" ../err.txt ||
	fail "no warning of the uncommitted changes: $(cat ../err.txt)"
ls -d ../b/step-2-"$rev"-dirty >/dev/null 2>&1 || fail "dirty step not named $rev-dirty: $(ls ../b)"
# an untracked file (a build's output) is not a change to the tree
git checkout -q f.txt && echo x >untracked.o
step
ls -d ../b/step-3-"$rev" >/dev/null 2>&1 || fail "an untracked file made the step dirty: $(ls ../b)"
