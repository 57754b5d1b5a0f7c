# doctor --root opens nothing that can block (docs/design.md §6.4): a FIFO
# in the place of any file it reads (a device's config, vendor, class,
# resource, numa_node, /proc's cmdline and kernel names) is skipped as a file
# that is not regular, and doctor ends (it used to wait in open forever).
# Each row replaces every file of that name with a FIFO no process writes.
. "$top/tests/cli/lib.sh"
command -v mkfifo >/dev/null 2>&1 || skip "no mkfifo here"
src="$top/tests/data/pcie-q35-noiommu"
timeout 60 "$MEMPATH" doctor --root "$src" --format json -o plain.json >/dev/null 2>&1 ||
	fail "doctor --root on the recorded tree"
for name in config vendor device class resource numa_node cmdline osrelease hostname; do
	rm -rf t
	cp -r "$src" t
	find t -name "$name" -type f >files.txt
	[ -s files.txt ] || fail "no file named $name in the tree"
	while read -r f; do
		rm "$f" && mkfifo "$f" || fail "mkfifo $f"
	done <files.txt
	timeout 60 "$MEMPATH" doctor --root t --format json -o "$name.json" >out.txt 2>err.txt
	rc=$?
	[ $rc -ne 124 ] && [ $rc -ne 137 ] || fail "doctor --root with FIFOs as $name waited: killed at 60 s"
	[ $rc -lt 3 ] || fail "doctor --root with FIFOs as $name: exit $rc: $(tail -3 err.txt)"
	[ -s "$name.json" ] || fail "doctor --root with FIFOs as $name wrote no report: $(tail -3 err.txt)"
	while read -r f; do
		[ -p "$f" ] || fail "$f is no longer a FIFO"
	done <files.txt
done
