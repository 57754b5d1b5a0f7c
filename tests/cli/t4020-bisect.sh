# bisect: a repository made here of ten commits of a tiny C program; commit
# 6 makes it 20% slower, commit 4 (the first git tests) makes it noisy and
# commit 5 quiet again. `git bisect run mempath bisect` (the program
# measured through wrap, its user CPU time deciding, in rounds of a good, a
# test and a bad leg) skips the noisy commit (125, the gate), never blames
# it, and names commit 6 as the first bad one; against results files the
# noisy commit is 125 too; each step's files are kept and the report names
# the steps. Mistakes stop a bisection (exit 128).
# test: alone (judges legs measured here, whose load a test beside it would change: tests/run.sh)
. "$top/tests/cli/lib.sh"
command -v git >/dev/null || skip "no git here"
command -v cc >/dev/null || skip "no C compiler here"
busy_start # the verdicts below judge legs measured here: fail_busy
mkdir repo && cd repo || fail "no repo folder"
git init -q . && git config user.email t@t && git config user.name t || fail "git init"
# work: loops of a multiply-add; noise: up to four times as much again, at random
prog() {
	cat >prog.c <<C
/* version $3 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
int main(void)
{
	volatile double x = 1;
	long n = $1L * 1000000L;
	if ($2) { srand((unsigned)time(NULL) ^ (unsigned)getpid()); n += n * (rand() % 400) / 100; }
	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 0.0000001;
	return x < 0;
}
C
}
for i in 0 1 2 3 4 5 6 7 8 9; do
	work=15 noisy=0 # millions of loops: about 70 ms of user time on the dev VM
	[ "$i" -ge 6 ] && work=18 # 20% slower from commit 6 on
	[ "$i" -eq 4 ] && noisy=1
	prog $work $noisy "$i"
	git add prog.c && git commit -qm "c$i" || fail "commit $i"
	git tag "c$i"
done
leg="-n 6 --parse none" # wrap's, with results files as references
# the references: a build of each kept, and measured as ./prog (a metric of
# a wrapped command is known by the command as typed)
measure() {
	git checkout -q "$1" && cc -O1 -o prog prog.c && cp prog "$2" || fail "build $1"
	# shellcheck disable=SC2086 # the leg command is words
	"$MEMPATH" wrap -o "$3" $leg -- ./prog >/dev/null 2>&1 || fail "wrap at $1"
}
measure c0 ../prog-good ../good.json
measure c9 ../prog-bad ../bad.json
# measured references: each round a good, a test and a bad leg
cat >../step.sh <<S
#!/bin/sh
cc -O1 -o prog prog.c || exit 125
exec "$MEMPATH" bisect --good-args ../prog-good --bad-args ../prog-bad --args ./prog \
	--metric 'work.wrap:user_time' -o ../bis -- wrap -n 4 --parse none -- {}
S
chmod +x ../step.sh
# the noisy commit against results files: cannot tell
git checkout -q c4 || fail "checkout c4"
cc -O1 -o prog prog.c || fail "build c4"
# shellcheck disable=SC2086
"$MEMPATH" bisect --good ../good.json --bad ../bad.json --metric 'work.wrap:user_time' \
	--step c4-files -o ../files -- wrap $leg -- ./prog >/dev/null 2>../files.err
rc=$?
[ $rc -eq 125 ] || fail_busy "the noisy commit against files exited $rc, not 125: $(cat ../files.err)"
ls ../files/step-1-c4-files/leg-1-test.json ../files/step-1-c4-files/vs-good.json \
	../files/step-1-c4-files/vs-bad.json >/dev/null || fail "a step's files are not kept: $(ls ../files/step-1-*)"
git checkout -q c9
git bisect start c9 c0 >/dev/null || fail "bisect start"
git bisect run ../step.sh >../run.txt 2>../run.err
rc=$?
first=$(git rev-parse --short refs/bisect/bad)
[ "$first" = "$(git rev-parse --short c6)" ] ||
	fail_busy "first bad $first, not c6 ($(git rev-parse --short c6)): $(cat ../bis/steps.tsv)"
if [ $rc -eq 0 ]; then
	grep -q "is the first bad commit" ../run.txt || fail "git did not name one: $(tail -3 ../run.txt)"
else
	# A busy machine (another make test beside this one) can make a quiet
	# commit's legs scatter past the gate too: it is skipped (125), and git
	# then lists the candidates it cannot tell apart. Never a wrong blame:
	# c6 is the lowest bad one, and every other candidate the gate skipped.
	grep -q "We cannot bisect more" ../run.txt ||
		fail_busy "bisect run exited $rc: $(tail -n 5 ../run.txt ../run.err)"
	for c in $(sed -n '/could be any of/,/cannot bisect more/p' ../run.txt | grep -E '^[0-9a-f]{40}$'); do
		s=$(git rev-parse --short "$c")
		[ "$s" = "$first" ] && continue
		grep -q "^[0-9]*	$s	cannot tell (skip)	125	unstable: " ../bis/steps.tsv ||
			fail_busy "candidate $s was not skipped by the gate: $(cat ../bis/steps.tsv)"
	done
	echo "the gate skipped quiet commits too (a busy machine): $(sed -n '/could be any of/,/cannot bisect more/p' ../run.txt | tr '\n' ' ')"
fi
c4=$(git rev-parse --short c4)
grep -q "^[0-9]*	$c4	cannot tell (skip)	125	unstable: " ../bis/steps.tsv ||
	fail_busy "the noisy commit $c4 was not skipped: $(cat ../bis/steps.tsv)"
"$MEMPATH" bisect --report ../bis >../report.md || fail "report"
grep -q "^first bad version: $first\$" ../report.md || fail "report: $(cat ../report.md)"
grep -q "^| [0-9]* | $c4 | cannot tell (skip) | 125 | unstable: " ../report.md || fail "$(cat ../report.md)"
grep -q '^| [0-9]* | [0-9a-f]* | \(good\|bad\) | [01] | ' ../report.md || fail "$(cat ../report.md)"
git bisect reset -q >/dev/null 2>&1
ls ../bis/step-1-*/leg-1-good.json ../bis/step-1-*/leg-2-test.json ../bis/step-1-*/leg-3-bad.json \
	../bis/step-1-*/leg-4-bad.json >/dev/null || fail "the rounds' legs: $(ls ../bis/step-1-*)"
grep -q '"rounds": 3' ../bis/step-2-*/vs-good.json || fail "not a comparison of rounds"
# mistakes stop the bisection: exit 128, one line
expect_fail 128 "$MEMPATH" bisect --good ../good.json -o ../x -- wrap $leg -- ./prog
expect_fail 128 "$MEMPATH" bisect --good ../nothing.json --bad ../bad.json -o ../x -- wrap $leg -- ./prog
expect_fail 128 "$MEMPATH" bisect --good ../good.json --bad ../bad.json -o ../x -- wrap -n 2 -- ./prog
expect_fail 128 "$MEMPATH" bisect --good-args ../prog-good -o ../x -- wrap -n 4 -- {}
expect_fail 128 "$MEMPATH" bisect --good-args a --bad-args b -o ../x -- run --reps 6
[ ! -d ../x ] || fail "a refused step made its folder"
exit 0
