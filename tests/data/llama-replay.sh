#!/bin/sh
# llama-replay.sh [-o md|csv|json|jsonl|sql] [ARGS...] - prints what the real
# llama-bench printed in that format (tests/data/llama/mmap01.*, recorded with
# `--mmap 0,1`; md, its default, when no -o is given), its progress on stderr.
# Other arguments are ignored, as `mempath wrap` tests need only the output.
fmt=md
while [ $# -gt 0 ]; do
	case $1 in
	-o) fmt=$2; shift ;;
	esac
	shift
done
echo "llama_model_load: replayed (-o $fmt)" >&2
cat "$(dirname "$0")/llama/mmap01.$fmt"
