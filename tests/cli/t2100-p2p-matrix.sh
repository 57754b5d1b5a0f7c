# gpu (report side, no GPU needed): gpu.p2p results render as src x dst
# matrices in Markdown and on the terminal, for 4 and 8 GPUs, missing pairs "-".
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data
"$MEMPATH" report "$d/p2p-4gpu.json" --format md >r.md || fail "md report failed"
grep -Fxq '**p2p_bw** engine=ce,peer=enabled,mode=write (GB/s; median of 3 samples, CoV max 0.2%); rows src, columns dst' r.md ||
	fail "md matrix title: $(grep p2p_bw r.md)"
grep -Fxq '| D\D | 0 | 1 | 2 | 3 |' r.md || fail "md matrix header: $(cat r.md)"
grep -Fxq '| 0 | - | 24.61 | 11.92 | 11.88 |' r.md || fail "md matrix row 0: $(cat r.md)"
grep -Fxq '| 3 | 11.90 | 11.86 | 24.60 | - |' r.md || fail "md matrix row 3: $(cat r.md)"
grep -Fxq '| 2 | 6.04 | 6.01 | - | - |' r.md || fail "md staged matrix, missing pair: $(cat r.md)"
[ "$(grep -c '^| D\\D |' r.md)" -eq 3 ] || fail "expected 3 matrices: $(grep -c '^| D' r.md)"
# cells are not repeated as rows; other metrics still are
! grep -q '^| p2p_bw |' r.md || fail "matrix cells also printed as rows"
grep -q '^| sm_clock | during=probe |' r.md || fail "non-matrix metric row missing"
"$MEMPATH" report "$d/p2p-8gpu.json" >r.txt || fail "term report failed"
grep -Fxq '      D\D      0      1      2      3      4      5      6      7' r.txt || fail "term header: $(cat r.txt)"
grep -Fxq '        7      -  397.1  397.2  397.3  397.4  397.5  397.6      -' r.txt || fail "term row 7: $(cat r.txt)"
# the JSON keeps one row per ordered pair
n=$("$MEMPATH" report "$d/p2p-8gpu.json" --format csv | grep -c ',p2p_bw,')
[ "$n" -eq 55 ] || fail "csv has $n p2p_bw rows, expected 55"
exit 0
