# check judges every figure: the H200 quick suite's file of 2026-12-02
# (docs/results/judged-h200-2026-12-02/quick.json) beside the H200 kind's
# references measured with the defaults says the quick suite's options on
# the line and gives no WARN for them; every other figure has a status and a
# reason; a figure beyond its physical limit is FAIL; the DRAM limit of a
# machine without SMBIOS is the user's (--dram-gbps, or dram_gbps in the
# file $MEMPATH_LIMITS names), else a measured ceiling said as such.
. "$top/tests/cli/lib.sh"
q=$top/docs/results/judged-h200-2026-12-02/quick.json
"$MEMPATH" check "$q" >c.txt 2>err.txt
[ $? -eq 1 ] || fail "check of the quick file: exit $?, $(cat err.txt)"
grep -A3 '^INCONCLUSIVE  L2 read, 8M set (size=8M): 9344.5 GB/s, reference 9986.5 GB/s' c.txt |
	grep -q "why: measured with the quick suite's options (sizes=8M threads=1024 unroll=8" ||
	fail "the quick L2 figure beside the full sweep's reference: $(grep -A3 'L2 read, 8M' c.txt)"
grep -q '^WARN' c.txt && fail "a WARN between a quick figure and a reference of the defaults: $(grep ^WARN c.txt)"
grep -A1 'pinned host to device, copy engine (mem=pinned,dir=h2d,size=512M): not judged' c.txt |
	grep -q "it ran with the quick suite's options: sizes=1M,64M" || fail "the unmeasured 512M copy does not say why"
grep -q '^  INCONCLUSIVE  gpu.copy copy_bw (mem=pinned,dir=h2d,size=1M): .* of the gpu0.pcie limit 63.0 GB/s' c.txt ||
	fail "a quick copy without its share of the limit"
grep -q "^  INCONCLUSIVE  cpu.stream bandwidth (kernel=read,threads=16,.*the dram limit is unknown: no SMBIOS tables.* is a measured ceiling, not a limit" c.txt ||
	fail "a CPU figure without the DRAM limit's reason"
n_rest=$(grep -c '^  \(PASS\|WARN\|FAIL\|INCONCLUSIVE\)  ' c.txt)
grep -q "^the other figures: 0 PASS, 0 WARN, 0 FAIL, $n_rest INCONCLUSIVE\$" c.txt || fail "the other figures' count: $(grep 'other figures' c.txt)"

# the user's DRAM limit: an option, or the file
"$MEMPATH" check --dram-gbps 204.8 "$q" >d.txt
grep -q "^  INCONCLUSIVE  cpu.stream bandwidth (kernel=read,threads=16,stores=none,pages=thp): 66.1 GB/s: 32.3% of the dram limit 204.8 GB/s (the user's value (--dram-gbps; SMBIOS gives none" d.txt ||
	fail "--dram-gbps: $(grep 'cpu.stream bandwidth (kernel=read,threads=16,stores=none' d.txt)"
grep -q '^  [A-Z]*  cpu\.[a-z_]* .*measured ceiling' d.txt && fail "a measured ceiling beside a known limit"
# a limit below a figure: the figure is beyond what the path carries
"$MEMPATH" check --dram-gbps 50 "$q" >low.txt
[ $? -eq 1 ] || fail "a figure beyond its limit did not fail the check"
grep -q '^  FAIL  cpu.stream bandwidth (kernel=read,threads=16,stores=none,pages=thp): 66.1 GB/s: 132.3% of the dram limit 50.0 GB/s' low.txt ||
	fail "beyond the limit: $(grep 'threads=16,stores=none,pages=thp' low.txt | head -2)"
expect_fail 2 "$MEMPATH" check --dram-gbps 0 "$q"
# the file: read into the fingerprint of a run made here
printf '# the DIMMs of this host, from its vendor\ndram_gbps = 204.8\n' >limits.conf
MEMPATH_LIMITS=$PWD/limits.conf "$MEMPATH" sysinfo --json >s.json
python3 -c "
import json, sys
d = json.load(open('s.json'))
l = d['limits']['dram']
if 'user' in d['dram'] and 'unknown' in d['dram']:
    assert abs(l['gbps'] - 204.8) < 0.05 and 'limits.conf' in l['formula'], l
elif 'user' in d['dram']:
    assert 'gbps' in l, l  # SMBIOS gives the DIMMs: their limit stands
else:
    sys.exit('the file was not read: %s' % d['dram'])
" || fail "MEMPATH_LIMITS: $(grep -A4 '"dram"' s.json | head -12)"
printf 'dram_gbps fast\n' >bad.conf
MEMPATH_LIMITS=$PWD/bad.conf "$MEMPATH" sysinfo --json >b.json 2>berr.txt || fail "a bad limits file stopped sysinfo"
grep -q "bad.conf: dram_gbps is not a rate in GB/s between 0 and 100000; no DRAM limit taken from it" berr.txt ||
	fail "a bad limits file was not named: $(cat berr.txt)"
exit 0
