# basics: make builds quietly, one short line a step as kbuild does, the
# compiler's command lines only with V=1; `make run` ends with the two
# commands that read its results file (check, and the HTML report)
. "$top/tests/cli/lib.sh"
command -v make >/dev/null 2>&1 || skip "no make here"
# a make of its own, not a job of the make that runs the tests
unset MAKEFLAGS MFLAGS MAKELEVEL
b=$PWD/b
make -C "$top" --no-print-directory GPU=0 MPI=0 BUILD="$b" "$b/src/base/list.o" >q.txt 2>&1 ||
	fail "make of one object: $(cat q.txt)"
[ "$(cat q.txt)" = "  CC      src/base/list.c" ] || fail "not one short line: $(cat q.txt)"
rm -f "$b/src/base/list.o"
make -C "$top" --no-print-directory GPU=0 MPI=0 BUILD="$b" V=1 "$b/src/base/list.o" >v.txt 2>&1 ||
	fail "make V=1: $(cat v.txt)"
grep -q -- ' -c src/base/list.c -o ' v.txt || fail "V=1 does not show the command: $(cat v.txt)"
grep -q '^  CC ' v.txt && fail "V=1 printed the short line too: $(cat v.txt)"
make -n -C "$top" --no-print-directory GPU=0 MPI=0 BUILD="$b" RUN_OUT=r.json run >n.txt 2>&1 ||
	fail "make -n run: $(cat n.txt)"
grep -q "run --suite quick -o r.json" n.txt || fail "make run does not write RUN_OUT: $(cat n.txt)"
tail -n 3 n.txt | grep -q "check r.json" && tail -n 1 n.txt | grep -q "report r.json --format html -o r.html" ||
	fail "make run does not end with check and report: $(tail -n 3 n.txt)"
tail -n 2 n.txt | grep -q "check --again-quiet 600 -o r-again.json r.json" ||
	fail "make run does not say how to measure busy figures again: $(tail -n 3 n.txt)"
exit 0
