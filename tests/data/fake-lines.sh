#!/bin/sh
# fake-lines.sh - a workload reporting "name value unit" lines among other
# output, for `mempath wrap` tests. Numbers vary a little with the call count
# in ./fake-lines.count (and MP_FAKE_SCALE, to give ab legs an effect).
n=$(cat fake-lines.count 2>/dev/null || echo 0)
n=$((n + 1))
echo $n >fake-lines.count
s=${MP_FAKE_SCALE:-1}
echo "fake workload starting (call $n)"
awk -v n=$n -v s=$s 'BEGIN {
	printf "bandwidth %.2f GB/s\n", s * (20 + (n % 3) * 0.1)
	printf "latency: %.1f ns\n", 90 + (n % 2)
	printf "requests=%d\n", 1000 + n
	print "this line has too many words 1 2 3"
}'
