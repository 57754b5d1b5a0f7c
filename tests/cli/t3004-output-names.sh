# Default results names are unique (created with O_EXCL: three runs started
# in the same second get three files); an explicit -o is the run's until it
# ends: a second run naming the same file meanwhile is refused before any
# work, and the first run's file is whole; a long label makes a valid name.
. "$top/tests/cli/lib.sh"
for i in 1 2 3; do
	"$MEMPATH" wrap -n 1 --label same -- true >out$i.txt 2>err$i.txt &
done
wait
n=$(ls mempath-same-*.json | wc -l)
[ "$n" -eq 3 ] || fail "three runs, $n default files: $(ls)"
for i in 1 2 3; do
	f=$(sed -n 's/^results: //p' err$i.txt)
	[ -s "$f" ] || fail "run $i named '$f': $(cat err$i.txt)"
	grep -q '"complete": true' "$f" || fail "$f is not a complete run"
done
[ "$(sed -n 's/^results: //p' err1.txt err2.txt err3.txt | sort -u | wc -l)" -eq 3 ] ||
	fail "two runs printed the same file"

spawn "$MEMPATH" wrap -n 1 -o mine.json -- sh -c 'touch started; sleep 3' >a.txt 2>a.err
first=$spawned
i=0
while [ ! -e started ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -e started ] || fail "the first run never started its workload"
"$MEMPATH" wrap -n 1 -o mine.json -- sh -c 'touch second-ran' >b.txt 2>b.err &&
	fail "a second run writing the same -o was let through"
grep -q "^mempath: error: 'mine.json' is being written by another mempath (pid [0-9]*): choose another -o$" b.err ||
	fail "refusal: $(cat b.err)"
[ ! -e second-ran ] || fail "the refused run ran its workload"
wait $first || fail "the first run failed: $(cat a.err)"
grep -q '"complete": true' mine.json || fail "the first run's file is not whole"
[ ! -e .mine.json.lock ] || fail "lock file left after the run ended"
# the same -o again, after the first ended, is the user's to replace
"$MEMPATH" wrap -n 1 -o mine.json -- true >c.txt 2>c.err || fail "rerun into mine.json: $(cat c.err)"

long=$(printf 'x%.0s' $(seq 300))
"$MEMPATH" wrap -n 1 --label "$long/é" -- true >l.txt 2>l.err || fail "long label: $(cat l.err)"
f=$(sed -n 's/^results: //p' l.err)
[ -s "$f" ] || fail "no file for the long label: $(cat l.err)"
case $f in mempath-xxxxxxxx*) ;; *) fail "odd name '$f'" ;; esac
[ ${#f} -lt 120 ] || fail "name not cut: $f"
grep -q "\"label\": \"$long/" "$f" || fail "the label itself was cut in the file"
exit 0
