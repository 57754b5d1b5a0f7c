# One output guard for every writer (docs/design.md §2.1): an output that is
# one of the command's inputs, a leg file or another file of an ab directory
# it reads, a reference file check reads, or a results file history adds is
# refused with one error line and exit 2 before anything is read or written
# (findings -o DIR/compare.json used to overwrite its own input). A table:
# entry point | what it must refuse; each row checks that the file it names
# is byte for byte what it was.
. "$top/tests/cli/lib.sh"
d="$top/tests/data"
mkdir ab refs
cp "$d/cmp-aa-1.json" ab/leg-1-a.json
cp "$d/cmp-aa-2.json" ab/leg-2-b.json
timeout 60 "$MEMPATH" compare ab/leg-1-a.json ab/leg-2-b.json --format json -o ab/compare.json 2>/dev/null ||
	fail "compare to make the ab directory"
echo "a log" >ab/leg-1-setup.log
cp "$d/cmp-aa-3.json" in.json
cp "$d/cmp-aa-1.json" refs/kind.json
cksum ab/* refs/* in.json >before.txt
n=0
while IFS='|' read -r victim args; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	expect_fail 2 timeout 120 "$MEMPATH" $args
	grep -q "refusing to write '$victim'" err.txt || fail "$args: $(cat err.txt)"
	cksum ab/* refs/* in.json | cmp -s - before.txt || fail "$args changed a file: $(cksum "$victim")"
done <<EOF2
ab/compare.json|findings ab -o ab/compare.json
ab/leg-1-a.json|findings ab --format html -o ab/leg-1-a.json
ab/leg-1-setup.log|findings ab -o ab/leg-1-setup.log
ab/compare.json|findings ./ab/ -o ab/compare.json
in.json|report in.json --format md -o in.json
in.json|compare in.json ab/leg-1-a.json -o in.json
in.json|compare in.json ab/leg-1-a.json --export-summary in.json
./ab/leg-2-b.json|compare ab/leg-1-a.json ab/leg-2-b.json --format md -o ./ab/leg-2-b.json
in.json|fleet merge in.json ab/leg-1-a.json -o in.json
in.json|doctor --from in.json -o in.json
refs/kind.json|check --refs refs -o refs/kind.json
in.json|history --db in.json add in.json
EOF2
# ab's summary may not take a name ab writes in its own (new) directory
expect_fail 2 timeout 120 "$MEMPATH" ab --legs AB --a true --b true --export-summary new/compare.json \
	-o new -- probe cpu.wake --reps 6 --warmups 0
grep -q "refusing to write 'new/compare.json'" err.txt || fail "ab new dir: $(cat err.txt)"
[ ! -e new/leg-1-a.json ] && ! ls new/leg-* >/dev/null 2>&1 || fail "ab ran a leg"
# a new file beside the directory's own is not refused
timeout 60 "$MEMPATH" findings ab -o ab/findings.md 2>err.txt || fail "findings to a new file: $(cat err.txt)"
grep -q '^Every number below was measured' ab/findings.md || fail "findings.md"
[ $n -ge 12 ] || fail "the table ran $n rows"
