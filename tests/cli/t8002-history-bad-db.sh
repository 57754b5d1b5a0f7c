# history: a database that cannot be used is one clear error line: a file
# that is not SQLite (exit 2), another program's SQLite database (2), a
# history of a newer schema (2), a damaged one (2), one another process
# holds past --wait (1); none of them is changed
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
# bytes at an offset of a file, in place (the SQLite header is big-endian)
poke() { # poke FILE OFFSET OCTAL-ESCAPES
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
printf 'these are not the bytes of a database\n%.0s' $(seq 1 200) >text.db
cp text.db text.orig
expect_fail 2 "$MEMPATH" history --db text.db list
grep -q "'text.db' is not a history database: it is not an SQLite file" err.txt || fail "$(cat err.txt)"
cmp -s text.db text.orig || fail "the file was changed"
# a history, then its header changed: application_id (offset 68), user_version (60)
"$MEMPATH" history --db h.db add "$d/cmp-aa-1.json" >/dev/null || fail "add"
cp h.db other.db
poke other.db 68 '\000\000\000\001'
expect_fail 2 "$MEMPATH" history --db other.db list
grep -q "'other.db' is an SQLite database of another program, not a mempath history" err.txt ||
	fail "$(cat err.txt)"
cp h.db newer.db
poke newer.db 60 '\000\000\000\143'
expect_fail 2 "$MEMPATH" history --db newer.db list
grep -q "history 'newer.db' has schema version 99; this mempath reads versions up to [0-9]* (a newer mempath wrote it)" err.txt ||
	fail "$(cat err.txt)"
# damaged: every page after the first overwritten
cp h.db bad.db
size=$(wc -c <bad.db)
head -c $((size - 4096)) /dev/zero | tr '\000' '\377' | dd of=bad.db bs=4096 seek=1 conv=notrunc status=none
expect_fail 2 "$MEMPATH" history --db bad.db trend cpu.stream:copy_bw
grep -q "history 'bad.db' is damaged (.*); move it aside to start a new one" err.txt || fail "$(cat err.txt)"
# held by another process: a write transaction kept open
holder=""
for p in python3 /usr/bin/python3; do
	"$p" -c 'import sqlite3' 2>/dev/null && holder=$p && break
done
[ -n "$holder" ] || skip "no python3 with sqlite3 here to hold the database; the other checks passed"
"$holder" -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
open("held", "w").close()
time.sleep(30)' h.db &
pid=$!
i=0
while [ ! -f held ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -f held ] || { kill $pid; fail "the holder did not start"; }
"$MEMPATH" history --db h.db --wait 0.2 add "$d/cmp-aa-2.json" >out.txt 2>err.txt
rc=$?
kill $pid 2>/dev/null
wait $pid 2>/dev/null
[ $rc -eq 1 ] || fail "a locked database should exit 1, not $rc: $(cat err.txt)"
[ "$(wc -l <err.txt)" -eq 1 ] && grep -q "history 'h.db' is locked by another process while adding runs (waited 0.2 s; --wait S to wait longer)" err.txt ||
	fail "$(cat err.txt)"
# readers do not wait for a writer (WAL): list works while it is held
"$holder" -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
open("held2", "w").close()
time.sleep(30)' h.db &
pid=$!
i=0
while [ ! -f held2 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
"$MEMPATH" history --db h.db --wait 0 list >list.txt 2>err.txt
rc=$?
kill $pid 2>/dev/null
wait $pid 2>/dev/null
[ $rc -eq 0 ] || fail "list should read while another process writes: $(cat err.txt)"
exit 0
