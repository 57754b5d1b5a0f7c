# Each policy of cpu.stream (mbind before first touch), its arrays' pages read
# back from numa_maps and sampled with move_pages. LAB_NODES: the nodes' kinds.
set -- $LAB_NODES
last=$(($# - 1))
stream() {
	name=$1
	shift
	mempath probe cpu.stream size=8M threads=1 kernels=read pages=4k --reps 3 --warmups 0 \
		"$@" -o "$name.json" >"$name.txt" 2>&1
	echo "$name: exit $?"
}
stream bind policy=bind nodes=$last
stream preferred policy=preferred nodes=$last
stream preferred-many policy=preferred-many nodes=0,$last
stream interleave policy=interleave nodes=all
stream weighted policy=weighted-interleave nodes=all
exit 0
