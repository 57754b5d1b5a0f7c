# Where a results file goes: a device or a pipe is written through (a rename
# over /dev/null once left a regular file there, and every later reader of
# /dev/null read mempath's results), a symlink to a file keeps the link and
# replaces the file, a directory is refused before any work; a file over
# ulimit -f is an error, a device is no input.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
"$MEMPATH" wrap -n 2 -o w.json -- true >/dev/null 2>&1 || fail "wrap"
# a pipe (a FIFO of our own, never /dev/stdout: a broken build would put a
# file there): the whole file arrives on the other end
mkfifo fifo || fail "mkfifo"
timeout 30 cat fifo >piped.json &
reader=$!
# a FIFO no process reads yet is refused (the reader may still be starting):
# again until cat has it open, then the write must succeed
i=0
until "$MEMPATH" report w.json --format json -o fifo 2>fifo.err; do
	grep -q 'a FIFO that no process reads' fifo.err && [ $i -lt 300 ] ||
		fail "report to a FIFO: $(cat fifo.err)"
	i=$((i + 1))
	sleep 0.1
done
wait $reader || fail "the reader of the FIFO got no end of file"
[ -p fifo ] || fail "the FIFO was replaced by a file"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' piped.json ||
	fail "what came through the pipe is not the results file"
# a symlink to a file: the link stays a link
cp w.json target.json
ln -s target.json link.json
"$MEMPATH" wrap -n 2 -o link.json -- true >/dev/null 2>&1 || fail "wrap -o link"
[ -L link.json ] || fail "the symlink was replaced by a file"
grep -q '"wrap"' target.json || fail "the link's target was not written"
# a directory: refused with one error line before the workload ran
mkdir d
"$MEMPATH" wrap -n 2 -o d -- sh -c 'touch ran' >out.txt 2>err.txt && fail "wrap -o a directory exited 0"
grep -q "^mempath: error: 'd' is a directory$" err.txt || fail "directory message: $(cat err.txt)"
[ ! -e ran ] || fail "the workload ran although its output cannot be written"
# a character device of our own (a null device): still a device afterwards
if mknod nul c 1 3 2>/dev/null; then
	"$MEMPATH" wrap -n 2 -o nul -- true >/dev/null 2>&1 || fail "wrap -o a device"
	[ -c nul ] || fail "the device was replaced by a regular file: $(ls -l nul)"
	"$MEMPATH" report w.json -o nul || fail "report -o a device"
	[ -c nul ] || fail "report replaced the device"
else
	echo "no mknod here (not root): the device case was not tried"
fi
# a file over `ulimit -f`: an error line and exit 1, not death by SIGXFSZ
(ulimit -f 1 && exec "$MEMPATH" wrap -n 2 -o big.json -- true) >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || fail "ulimit -f: exit $rc, expected 1: $(cat err.txt)"
grep -q "^mempath: error: cannot write .*File too large" err.txt || fail "ulimit -f message: $(cat err.txt)"
# a device as an input: refused at once (/dev/zero used to be read for 20 s
# up to the size limit)
expect_fail 2 "$MEMPATH" report /dev/zero
grep -q "'/dev/zero' is a device, not a results file" err.txt || fail "device input: $(cat err.txt)"
[ -c /dev/null ] || fail "/dev/null is not a device any more: $(ls -l /dev/null)"
# outputs that name no file: refused before any work, one error line;
# writer | -o | exit | what the line says
ln -s nowhere dangling
ln -s loop.b loop.a
ln -s loop.a loop.b
mkdir -p adir
while IFS='|' read -r cmd o want says; do
	# shellcheck disable=SC2086
	expect_fail "$want" "$MEMPATH" $cmd -o "$o"
	grep -q "$says" err.txt || fail "$cmd -o $o: $(cat err.txt)"
	[ ! -f "${o%/}" ] || [ -L "$o" ] || fail "$cmd -o $o: made a file"
done <<EOF
report $top/tests/data/cmp-aa-1.json --format md|newdir/|2|ends in '/'
report $top/tests/data/cmp-aa-1.json --format md|adir/|2|ends in '/'
report $top/tests/data/cmp-aa-1.json|adir|2|is a directory
compare $top/tests/data/cmp-aa-1.json $top/tests/data/cmp-aa-2.json|dangling|2|a symbolic link to a file that does not exist
compare $top/tests/data/cmp-aa-1.json $top/tests/data/cmp-aa-2.json|loop.a|2|a loop of symbolic links
probe cpu.wake --reps 1 --warmups 0|new2/|1|ends in '/'
probe cpu.wake --reps 1 --warmups 0|dangling|1|a symbolic link to a file that does not exist
probe cpu.wake --reps 1 --warmups 0|loop.b|1|a loop of symbolic links
EOF
[ -L dangling ] && [ ! -e nowhere ] || fail "the dangling link was replaced"
# results files respect the umask; a file replaced keeps its mode
for m in 077 027 022; do
	(umask $m && exec "$MEMPATH" report "$top/tests/data/cmp-aa-1.json" --format md -o u$m.md) ||
		fail "report under umask $m"
	(umask $m && exec "$MEMPATH" wrap -q -n 1 -o u$m.json -- true) >/dev/null 2>&1 || fail "wrap under umask $m"
	want=$(printf '%o' $((0666 & ~0$m)))
	for f in u$m.md u$m.json; do
		got=$(stat -c %a $f)
		[ "$got" = "$want" ] || fail "$f under umask $m: mode $got, expected $want"
	done
done
chmod 0640 u022.md
(umask 077 && exec "$MEMPATH" report "$top/tests/data/cmp-aa-1.json" --format md -o u022.md) || fail "replace"
[ "$(stat -c %a u022.md)" = 640 ] || fail "a replaced file lost its mode: $(stat -c %a u022.md)"
exit 0
