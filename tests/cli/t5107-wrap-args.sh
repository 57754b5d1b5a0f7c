# wrap --args: the words go where the command has {} (or at its end); the
# command as typed stays the identity, so runs that differ only by the words
# join in compare; what ran, the words and knob wrap.args are recorded.
. "$top/tests/cli/lib.sh"
cat >args.sh <<'S'
#!/bin/sh
# prints its arguments, one "argN value" line each (lines wrap parses)
i=0
for a in "$@"; do i=$((i + 1)); echo "arg$i \"$a\"" >&2; done
echo "nargs $#"
echo "last_is_x $([ "${*##* }" = x ] && echo 1 || echo 0)"
S
"$MEMPATH" wrap -n 1 -q --args '--mmap  0' --args '-t 2' -o a.json -- sh args.sh first {} x >a.txt 2>a.err ||
	fail "wrap exited $?: $(cat a.err)"
tr -d ' \n' <a.json | grep -q '"command":\["sh","args.sh","first","--mmap","0","-t","2","x"\]' ||
	fail "what ran: $(tr -d ' \n' <a.json | grep -o '"command":\[[^]]*\]')"
grep -q '"command": "sh args.sh first {} x"' a.json || fail "identity is not the command as typed"
grep -q '"wrap.args": "--mmap 0 -t 2"' a.json || fail "knob wrap.args: $(grep wrap.args a.json)"
awk '$1 == "nargs" && $2 == 6 { ok = 1 } END { exit !ok }' a.txt || fail "the command got: $(grep nargs a.txt)"
# No {}: at the end. Without --args a {} stays as typed.
"$MEMPATH" wrap -n 1 -q --args 'x' -o b.json -- sh args.sh first >b.txt 2>b.err || fail "exit $?"
awk '$1 == "last_is_x" && $2 == 1 { ok = 1 } END { exit !ok }' b.txt || fail "not at the end: $(grep last_is_x b.txt)"
"$MEMPATH" wrap -n 1 -q -o c.json -- sh args.sh {} >c.txt 2>c.err || fail "exit $?"
tr -d ' \n' <c.json | grep -q '"command":\["sh","args.sh","{}"\]' || fail "{} changed without --args"
grep -q 'wrap.args' c.json && fail "a wrap.args knob without --args"
# Two runs differing only by the words compare (one join, the knob named).
"$MEMPATH" wrap -n 6 -q --args 'y' -o d.json -- sh args.sh first {} x >/dev/null 2>&1 || fail "exit $?"
"$MEMPATH" wrap -n 6 -q --args 'z' -o e.json -- sh args.sh first {} x >/dev/null 2>&1 || fail "exit $?"
"$MEMPATH" compare d.json e.json --legs AB >cmp.txt 2>cmp.err
grep -q 'wrap.args: A=y, B=z' cmp.txt || fail "knob difference not named: $(cat cmp.txt)"
grep -q '^work.wrap nargs ' cmp.txt || fail "runs did not join: $(cat cmp.txt)"
"$MEMPATH" compare d.json e.json --legs AB --expect-diff wrap.args >cmp2.txt 2>&1
grep -q 'knob' cmp2.txt && fail "expected knob still refused: $(cat cmp2.txt)"
exit 0
