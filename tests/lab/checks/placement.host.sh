# Every policy's pages are where it asked, by numa_maps (whole range) and by
# move_pages (1024 pages sampled over it); weighted interleave is skipped with
# the kernel's reason where it has none.
set -u
. "$(dirname "$0")/lib.host.sh"
set -- $LAB_NODES
n=$# last=$(($# - 1))
# share NAME METRIC NODE: the median of METRIC on NODE, 0 when absent
share() { v=$(median "$1.csv" "$2" "node=$3;pages=4k;threads=1"); echo "${v:-0}"; }
policy() { tr -d '\n' <"$1.json" | sed -n 's/.*"policy_obtained": *"\([^"]*\)".*/\1/p'; }
for p in bind preferred preferred-many interleave; do csv $p.json $p.csv; done
for m in pages_on_node sampled_on_node; do
	for p in bind preferred; do
		v=$(share $p $m $last)
		[ "$v" = 100 ] || fail "$p nodes=$last: $m on node $last is $v%, want 100: $(grep "$m" $p.csv)"
	done
	a=$(share preferred-many $m 0) b=$(share preferred-many $m $last)
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(a + b > 99.9) }' ||
		fail "preferred-many nodes=0,$last: $m $a% + $b%, want 100: $(grep "$m" preferred-many.csv)"
	# numa_maps counts every page: within 1 point; 1024 sampled pages: within
	# 8 (5 standard deviations)
	tol=1
	[ $m = sampled_on_node ] && tol=8
	for k in $(seq 0 $last); do
		v=$(share interleave $m $k)
		awk -v v="$v" -v n="$n" -v t=$tol 'BEGIN { exit !(v > 100 / n - t && v < 100 / n + t) }' ||
			fail "interleave over $n nodes: $m on node $k is $v%, want $((100 / n))+-$tol: $(grep "$m" interleave.csv)"
	done
done
[ "$(policy bind)" = "bind:$last" ] || fail "bind: numa_maps policy '$(policy bind)'"
[ "$(policy preferred)" = "prefer:$last" ] || fail "preferred: numa_maps policy '$(policy preferred)'"
case $(policy preferred-many) in "prefer (many):0,$last" | "prefer (many):0-$last") ;;
*) fail "preferred-many: numa_maps policy '$(policy preferred-many)'" ;; esac
case $(policy interleave) in "interleave:0-$last" | "interleave:0,$last") ;;
*) fail "interleave: numa_maps policy '$(policy interleave)'" ;; esac
if grep -q '^== cpu.stream  skip: policy=weighted-interleave: ' weighted.txt; then
	why=$(sed -n 's/^== cpu.stream  skip: policy=weighted-interleave: \(.*\)  ([0-9.]* s)$/\1/p' weighted.txt)
	echo "note: bind, preferred, preferred-many, interleave verified; weighted interleave skipped: $why"
else
	csv weighted.json weighted.csv
	for k in $(seq 0 $last); do
		v=$(share weighted sampled_on_node $k)
		awk -v v="$v" 'BEGIN { exit !(v > 0) }' || fail "weighted interleave: nothing on node $k"
	done
	echo "note: bind, preferred, preferred-many, interleave, weighted interleave verified"
fi
