# history's queries (list, show, trend, check, with and without
# --changepoints) only read (docs/design.md §9.6): a database that does not
# exist is one error line and exit 2, and no file is made (it used to leave
# an empty 180 KB database); on a read-only database file in a read-only
# folder every query works and changes no byte of the database; where the
# folder is truly read-only to us (not root, or root under a read-only bind
# mount: file modes do not stop root) not even SQLite's -wal/-shm side files
# appear.
. "$top/tests/cli/lib.sh"
d="$top/tests/data"
mkdir ro
timeout 60 "$MEMPATH" history --db ro/h.db add "$d/cmp-aa-1.json" "$d/cmp-aa-2.json" "$d/cmp-aa-3.json" \
	>/dev/null || fail "add"
timeout 60 "$MEMPATH" history --db ro/h.db bless 1 >/dev/null || fail "bless"
chmod 0444 ro/h.db
chmod 0555 ro
cksum ro/h.db >before.txt
ls ro >names.txt
queries="list
show 1
trend cpu.stream:copy_bw
trend cpu.stream:copy_bw --changepoints
check $d/cmp-aa-2.json
check --changepoints"
echo "$queries" >queries.txt
ro_mount=
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	ro_mount=1
fi
while read -r q; do
	# a missing database: refused, nothing made
	# shellcheck disable=SC2086
	expect_fail 2 timeout 60 "$MEMPATH" history --db new/none.db $q
	grep -q "no history at 'new/none.db'" err.txt || fail "$q on a missing db: $(cat err.txt)"
	[ ! -e new ] || fail "$q made $(ls -R new)"
	if [ -n "$ro_mount" ]; then
		# the side files a query in the writable folder left (below)
		rm -f ro/h.db-wal ro/h.db-shm
		# shellcheck disable=SC2086
		timeout 60 unshare -m sh -c 'mount --bind ro ro && mount -o remount,ro,bind ro && "$@" &&
			ls ro >names-ro.txt' sh "$MEMPATH" history --db ro/h.db $q >q.txt 2>q.err ||
			fail "$q on a read-only mount: $(cat q.err)"
		[ -s q.txt ] || fail "$q printed nothing on a read-only mount"
		cmp -s names.txt names-ro.txt || fail "$q made files in the read-only folder: $(cat names-ro.txt)"
	elif [ "$(id -u)" -ne 0 ]; then
		ls ro | cmp -s - names.txt || fail "$q made files in the read-only folder: $(ls ro)"
	fi
	# shellcheck disable=SC2086
	timeout 60 "$MEMPATH" history --db ro/h.db $q >q.txt 2>q.err || fail "$q on a read-only db: $(cat q.err)"
	[ -s q.txt ] || fail "$q printed nothing"
	cksum ro/h.db | cmp -s - before.txt || fail "$q changed the database"
done <queries.txt
chmod 0755 ro
# a writer still refuses what it cannot write, saying so
chmod 0444 ro/h.db
[ "$(id -u)" -eq 0 ] || {
	timeout 60 "$MEMPATH" history --db ro/h.db add "$d/cmp-effect-b.json" >/dev/null 2>err.txt &&
		fail "add to a read-only db exited 0"
}
[ -n "$ro_mount" ] || echo "not root: the read-only mount was not tried"
