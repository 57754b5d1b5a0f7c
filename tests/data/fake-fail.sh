#!/bin/sh
# fake-fail.sh - a workload that fails: a message on stderr, exit 3.
echo "bandwidth 1.0 GB/s"
echo "fake-fail: cannot open model file 'missing.gguf'" >&2
exit 3
