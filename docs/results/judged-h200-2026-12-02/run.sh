#!/bin/sh
# The runs of docs/results/judged-h200-2026-12-02.md on the lent one-H200
# machine (issue 41): check measuring there (the H200 kind's probes), the
# quick suite and its check, and gpu.copy's pinned 256M/512M copies at the
# default windows (the link receipt). OUT: where the files go.
B=./build/mempath
out=${OUT:?}
{ date -u; $B check -o "$out/check.json" 2>&1; echo "rc=$?"; date -u; } >"$out/check.txt"
{ date -u; $B run --suite quick -o "$out/quick.json" 2>&1; echo "rc=$?"; date -u; } >"$out/quick.txt"
{ $B check "$out/quick.json" 2>&1; echo "rc=$?"; $B check --brief "$out/quick.json" 2>&1; echo "rc=$?"; } >"$out/check-quick.txt"
{ date -u; $B probe gpu.copy sizes=256M,512M mems=pinned dirs=h2d,d2h -o "$out/copy.json" 2>&1; echo "rc=$?"; date -u; } >"$out/copy.txt"
