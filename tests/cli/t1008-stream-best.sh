# cpu: cpu.stream's libc memcpy kernel is its own code path (stores=libc), and
# every kernel's best sample sits beside its median as bandwidth_best, equal
# to the highest counted sample of bandwidth. A size given needs no cache
# knee: none is measured (no knee file in a cache of its own), and the
# results say so.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
XDG_CACHE_HOME=$PWD/cache "$MEMPATH" probe cpu.stream size=16M threads=1 kernels=copy,memcpy stores=temporal pages=4k \
	--reps 3 --warmups 1 -o st.json >st.txt 2>&1 || fail "probe failed: $(tail -n 3 st.txt)"
"$MEMPATH" report st.json --format csv >st.csv
[ ! -e cache/mempath/knee ] || fail "a knee was measured for a size given: $(cat cache/mempath/knee)"
grep -q '"knee_source": "not measured (size given)"' st.json || fail "knee: $(grep knee_ st.json)"
for l in "kernel=copy,threads=1,stores=temporal,pages=4k" "kernel=memcpy,threads=1,stores=libc,pages=4k"; do
	max=$(awk -F'"' -v l="$l" '$1 ~ /,bandwidth,$/ && $2 == l { split($3, b, ","); print b[9] }' st.csv)
	best=$(awk -F'"' -v l="$l" '$1 ~ /,bandwidth_best,$/ && $2 == l { split($3, b, ","); print b[5] }' st.csv)
	[ -n "$max" ] && [ -n "$best" ] || fail "$l: bandwidth max '$max', bandwidth_best '$best'"
	[ "$max" = "$best" ] || fail "$l: bandwidth_best $best is not the best sample $max"
done
exit 0
