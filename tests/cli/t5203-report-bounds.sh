# reports: what a results file may ask for is bounded (files come from other
# machines): a matrix over more ids than is drawn is one clear error with the
# formats that list every cell named; a file over the size limit is refused
# before it is parsed; running out of memory is its own one-line error.
. "$top/tests/cli/lib.sh"
cell() { # cell SRC DST
	printf '{"name": "p2p_bw", "unit": "GB/s", "better": "higher", "labels": {"src": "%s", "dst": "%s"}, "samples": [1, 2, 3]}' "$1" "$2"
}
{
	printf '{"schema": "mempath/run/1", "host": {}, "probes": [{"name": "gpu.p2p", "status": "ok", "params": {}, "metrics": ['
	i=0
	while [ $i -lt 300 ]; do
		[ $i -gt 0 ] && printf ', '
		cell $i $((i + 1))
		i=$((i + 1))
	done
	printf ']}]}\n'
} >wide.json
expect_fail 1 "$MEMPATH" report wide.json
grep -q '301 ids, more than the 256 a matrix is drawn for (--format json or csv' err.txt ||
	fail "matrix bound: $(cat err.txt)"
[ ! -s out.txt ] || fail "a refused report printed something"
"$MEMPATH" report wide.json --format csv >w.csv || fail "csv of a wide matrix exited $?"
[ "$(wc -l <w.csv)" -eq 301 ] || fail "csv should list every cell: $(wc -l <w.csv) lines"

truncate -s 600M huge.json
expect_fail 2 "$MEMPATH" report huge.json
grep -q 'results files over 512 MiB are refused' err.txt || fail "size bound: $(cat err.txt)"
rm -f huge.json

awk 'BEGIN { printf "{\"schema\": \"mempath/run/1\", \"host\": {}, \"probes\": [{\"name\": \"x.y\", \"status\": \"ok\", \"params\": {}, \"metrics\": [{\"name\": \"rate\", \"unit\": \"GB/s\", \"better\": \"higher\", \"labels\": {}, \"samples\": ["
	for (i = 0; i < 1000000; i++) printf "%s%d.5", i ? "," : "", 100 + i % 7
	printf "]}]}]}\n" }' >big.json
"$MEMPATH" report big.json >/dev/null || fail "a 1M-sample file should render with the memory here"
[ -n "${MEMPATH_SANITIZED:-}" ] && skip "ulimit -v does not work under ASan's shadow memory"
(ulimit -v 40000 && "$MEMPATH" report big.json) >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || [ $rc -eq 2 ] || fail "out of memory: exit $rc, expected 1 or 2: $(cat err.txt)"
[ "$(wc -l <err.txt)" -eq 1 ] || fail "out of memory should be one line: $(cat err.txt)"
grep -q 'out of memory' err.txt || fail "out of memory not named: $(cat err.txt)"
exit 0
