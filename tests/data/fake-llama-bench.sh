#!/bin/sh
# fake-llama-bench.sh [-o json|jsonl] [--mmap 0|1] - prints llama-bench-shaped
# results for `mempath wrap` tests: pp512 steady, tg128 rising with every call
# (decode converging as pages get promoted, docs/design.md §10.8), and 1.5x
# faster with --mmap 0 (use_mmap false; llama-bench's default is 1). The call
# count lives in ./fake-llama-bench.count. Progress goes to stderr, as
# llama-bench's does.
fmt=json
mmap=1
while [ $# -gt 0 ]; do
	case $1 in
	-o) fmt=$2; shift ;;
	--mmap) mmap=$2; shift ;;
	esac
	shift
done
use_mmap=$([ "$mmap" = 0 ] && echo false || echo true)
scale=$([ "$mmap" = 0 ] && echo 1.5 || echo 1)
n=$(cat fake-llama-bench.count 2>/dev/null || echo 0)
n=$((n + 1))
echo $n >fake-llama-bench.count
tg=$(awk -v n=$n -v s=$scale 'BEGIN { printf "%.3f", s * (4.2 + 0.6 * (1 - 1 / n)) }')
echo "llama_model_load: fake model, call $n" >&2
pp='"build_commit": "fake", "model_type": "fake 7B Q4_K - Medium", "n_threads": 2, "use_mmap": '$use_mmap', "n_prompt": 512, "n_gen": 0, "n_depth": 0, "avg_ns": 7386000000, "stddev_ns": 38000000, "avg_ts": 69.31, "stddev_ts": 2.70, "samples_ns": [7350000000, 7420000000], "samples_ts": [69.66, 68.96]'
tgo="\"build_commit\": \"fake\", \"model_type\": \"fake 7B Q4_K - Medium\", \"n_threads\": 2, \"use_mmap\": $use_mmap, \"n_prompt\": 0, \"n_gen\": 128, \"n_depth\": 0, \"avg_ns\": 30030000000, \"stddev_ns\": 20000000, \"avg_ts\": $tg, \"stddev_ts\": 0.004, \"samples_ns\": [30030000000], \"samples_ts\": [$tg]"
if [ "$fmt" = jsonl ]; then
	echo "{$pp}"
	echo "{$tgo}"
else
	printf '[\n  {\n    %s\n  },\n  {\n    %s\n  }\n]\n' "$pp" "$tgo"
fi
