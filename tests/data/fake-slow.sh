#!/bin/sh
# fake-slow.sh SECONDS - a workload that takes a while (and a child that
# would outlive it if its process group were not ended).
sleep "${1:-30}" &
sleep "${1:-30}"
echo "done 1"
