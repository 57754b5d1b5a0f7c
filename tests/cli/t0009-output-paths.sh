# Where a results file goes: a device or a pipe is written through (a rename
# over /dev/null once left a regular file there, and every later reader of
# /dev/null read mempath's results), a symlink to a file keeps the link and
# replaces the file, a directory is refused before any work; a file over
# ulimit -f is an error, a device is no input.
. "$top/tests/cli/lib.sh"
"$MEMPATH" wrap -n 2 -o w.json -- true >/dev/null 2>&1 || fail "wrap"
# a pipe (a FIFO of our own, never /dev/stdout: a broken build would put a
# file there): the whole file arrives on the other end
mkfifo fifo || fail "mkfifo"
timeout 30 cat fifo >piped.json &
reader=$!
"$MEMPATH" report w.json --format json -o fifo || fail "report to a FIFO"
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
exit 0
