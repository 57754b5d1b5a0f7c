# nothing reads as a verdict or a clean run where an error or a warning is
# due: one run compared with itself, legs of different machines or of
# different units, a comparison file whose counts contradict its rows,
# numbers past a double's digits, option values a probe cannot measure, an
# ab leg that would fail after its setup, a fleet's twin files, options that
# do nothing, an empty or unwritable history, a planted phantom the
# tolerance swallows, llama-bench rows no llama-bench writes.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d="$top/tests/data"
edit() { # edit IN OUT PYTHON: OUT is IN as JSON `j` after PYTHON
	python3 -c "import json, sys
j = json.load(open(sys.argv[1]))
$3
json.dump(j, open(sys.argv[2], 'w'))" "$1" "$2" || fail "could not make $2"
}

# one run twice: refused | files
cp "$d/cmp-aa-1.json" copy.json
ln -s "$d/cmp-aa-1.json" link.json
while read -r a b says; do
	expect_fail 2 "$MEMPATH" compare "$a" "$b"
	grep -q "$says" err.txt || fail "compare $a $b: $(cat err.txt)"
done <<EOF
$d/cmp-aa-1.json $d/cmp-aa-1.json are the same file
$d/cmp-aa-1.json link.json are the same file
copy.json $d/cmp-aa-1.json hold the same run
EOF
# legs of different machines: judged, with a note naming what differs
edit "$d/cmp-aa-2.json" host.json "j['host']['hostname'] = 'other'"
edit "$d/cmp-aa-2.json" model.json "j['host']['cpu']['model'] = 'Other CPU'"
edit "$d/cmp-aa-2.json" cpus.json "j['host']['cpu']['logical_cpus'] = 96"
for f in host:hostname model:"cpu model" cpus:"cpu logical_cpus"; do
	"$MEMPATH" compare "$d/cmp-aa-1.json" "${f%%:*}.json" >out.txt 2>err.txt
	grep -q "^note: legs from different machines: ${f#*:} differs" out.txt ||
		fail "${f%%:*}: no note: $(grep note out.txt)"
done
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-aa-2.json" >out.txt 2>&1
! grep -q 'different machines' out.txt || fail "one machine read as two"
# a metric whose unit or direction differs between legs: no verdict, said
edit "$d/cmp-aa-2.json" unit.json "j['probes'][0]['metrics'][0]['unit'] = 'MiB'"
edit "$d/cmp-aa-2.json" dir.json "j['probes'][0]['metrics'][0]['better'] = 'lower'"
for f in unit:"unit differs between legs: GiB/s in " dir:"better direction differs between legs: higher in "; do
	"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-aa-3.json" "${f%%:*}.json" --legs AAB >out.txt 2>&1
	grep 'touch_rate pages=4k' out.txt | grep -q "VOID.*${f#*:}" || fail "${f%%:*}: $(grep 'touch_rate pages=4k' out.txt)"
done
# a comparison file whose summary contradicts its rows: refused
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-effect-b.json" --format json -o c.json >/dev/null 2>&1 ||
	fail "compare -o c.json"
while read -r what py; do
	edit c.json "c-$what.json" "$py"
	expect_fail 2 "$MEMPATH" report "c-$what.json"
	grep -q 'not a valid mempath comparison file: summary' err.txt || fail "$what: $(cat err.txt)"
done <<'EOF'
win j['summary']['counts']['win'] = 99
nowin j['summary']['counts']['nowin'] = 5
controls j['summary']['controls'] = 3
EOF
"$MEMPATH" report c.json >/dev/null || fail "the comparison as written was refused"
# numbers past a double's digits, and a spread that overflows
edit "$d/cmp-aa-1.json" big.json "j['probes'][0]['metrics'][0]['samples'] = [1e40] * 10"
edit "$d/cmp-aa-1.json" huge.json "j['probes'][0]['metrics'][0]['samples'] = [1e308, 1.7e308] * 5"
for cmd in "report big.json" "report big.json --format md" "compare big.json $d/cmp-aa-2.json" \
	"compare big.json $d/cmp-aa-2.json --format md" "report huge.json" "report huge.json --format md" \
	"report huge.json --format csv"; do
	# shellcheck disable=SC2086
	"$MEMPATH" $cmd >out.txt 2>&1
	! grep -q '[0-9]\{17\}' out.txt || fail "$cmd: digits a double does not hold: $(grep -m1 '[0-9]\{17\}' out.txt)"
	! grep -qi 'nan' out.txt || fail "$cmd: a nan: $(grep -im1 nan out.txt)"
done
"$MEMPATH" report big.json | grep -q 'touch_rate .*1e+40' || fail "1e40 not shown as 1e+40"
"$MEMPATH" report huge.json | grep 'touch_rate  *pages=4k' | grep -q ' -  *10  GiB/s$' || fail "CoV not '-'"
# option values a probe cannot measure: refused before it runs; and an ab
# leg naming them is refused before any setup
while read -r leg; do
	# shellcheck disable=SC2086
	expect_fail 2 "$MEMPATH" probe $leg --reps 1 --warmups 0
	# shellcheck disable=SC2086
	expect_fail 2 "$MEMPATH" ab --a 'echo A >>ran' --b 'echo B >>ran' -o ab1 -- probe $leg --reps 6
	[ ! -e ran ] || fail "ab ran a setup for 'probe $leg'"
done <<'EOF'
cpu.reach spans=3M
cpu.reach spans=100M
cpu.reach spans=64M,100M
cpu.reach spans=128T
cpu.reach spans=1P
cpu.stream size=1
cpu.stream size=4K
no.such.probe
cpu.stream size=12X
cpu.stream nosuch=1
EOF
expect_fail 2 "$MEMPATH" ab --a 'echo A >>ran' --b 'echo B >>ran' -o ab2 -- run --only no.such --reps 6
[ ! -e ran ] || fail "ab ran a setup for an unknown --only"
# fleet merge: the cause named
cp "$d/cmp-aa-1.json" twin.json
while IFS='|' read -r files says; do
	# shellcheck disable=SC2086
	expect_fail 2 "$MEMPATH" fleet merge $files -o f.json
	grep -q "$says" err.txt || fail "fleet merge $files: $(cat err.txt)"
done <<EOF
$d/cmp-aa-1.json $d/cmp-aa-1.json|is given twice
$d/cmp-aa-1.json x=twin.json|'twin.json' holds the same run as
$d/cmp-aa-1.json $d/cmp-aa-2.json|two nodes named 'fixture'
EOF
# options that would do nothing, and histories that cannot be
expect_fail 2 "$MEMPATH" check "$d/cmp-aa-1.json" -o out.json
[ ! -e out.json ] || fail "check FILE -o wrote something"
while IFS='|' read -r sub db says; do
	expect_fail 2 "$MEMPATH" history $sub --db "$db"
	grep -q -- "$says" err.txt || fail "history $sub --db '$db': $(cat err.txt)"
done <<EOF
list||--db: an empty path
add $d/cmp-aa-1.json|/dev/null/h.db|'/dev/null' is not a folder
list|/dev/null/h.db|no history at '/dev/null/h.db' (Not a directory)
EOF
if [ "$(id -u)" = 0 ] && command -v su >/dev/null && su nobody -s /bin/sh -c true 2>/dev/null; then
	# a folder another user can reach (this test's own may sit in one he cannot)
	pub=$(mktemp -d /tmp/mempath-t4019.XXXXXX) && chmod 755 "$pub" && mkdir "$pub/ro" && chmod 555 "$pub/ro"
	# and the binary where he can run it (the checkout may sit in a 0700 folder)
	cp "$MEMPATH" "$pub/mempath" && chmod 755 "$pub/mempath"
	cp "$d/cmp-aa-1.json" "$pub/r.json" && chmod 644 "$pub/r.json"
	su nobody -s /bin/sh -c "'$pub/mempath' history add '$pub/r.json' --db '$pub/ro/h.db'" >out.txt 2>err.txt
	rm -rf "$pub"
	grep -q "its folder '.*/ro' is not writable (Permission denied)" err.txt || fail "read-only folder: $(cat err.txt)"
else
	echo "not root: the read-only folder case was not tried"
fi
# a planted phantom the tolerance would swallow
expect_fail 2 "$MEMPATH" phantom --detach --cpu 256M
grep -q 'under twice the tolerance (256M)' err.txt || fail "phantom: $(cat err.txt)"
expect_fail 2 "$MEMPATH" phantom --detach --cpu 1G --tolerance 600M
# llama-bench rows no llama-bench writes: left out, and said
python3 - "$d/llama/mmap01.csv" <<'PY' || fail "could not make the llama rows"
import csv, io, sys
lines = open(sys.argv[1]).read().splitlines()
head = next(csv.reader([lines[0]]))
def row(i, col, val):
    r = next(csv.reader([lines[i]]))
    r[head.index(col)] = val
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="").writerow(r)
    return out.getvalue()
for name, col, val in (("neg", "avg_ts", "-5.0"), ("inf", "avg_ts", "1e999"),
                       ("nan", "avg_ts", "nan"), ("hex", "n_prompt", "0x10")):
    open(name + ".csv", "w").write("\n".join([lines[0], row(1, col, val), lines[2]]) + "\n")
PY
while read -r f says; do
	"$MEMPATH" wrap -q -n 1 -o "$f.json" -- cat "$f.csv" >out.txt 2>err.txt || fail "wrap $f: exit $?"
	grep -q "llama-bench test 1 left out: $says" err.txt || fail "$f: $(cat err.txt)"
	grep -q 'tokens_per_s test=tg4' out.txt || fail "$f: the good row lost"
	! grep -q 'test=pp16' out.txt || fail "$f: the bad row kept: $(grep pp16 out.txt)"
done <<'EOF'
neg avg_ts is negative
inf avg_ts is not a number
nan avg_ts is not a number
hex n_prompt and n_gen are not whole numbers
EOF
exit 0
