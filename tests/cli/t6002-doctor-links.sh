# doctor's link rules on recorded trees (doctor --root): the q35 guest of
# t6001 (no IOMMU) with its display devices' PCIe link files as Linux writes
# them, one GPU trained down to x8 and Gen4 of its x16 Gen5, and the SMBIOS
# type 17 entries of tests/data/dmi-ddr5 (one DIMM configured at 4400 of its
# 4800 MT/s); the fingerprint's limits from the same facts.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d=$top/tests/data

cp -R "$d/pcie-q35-noiommu" t
link() { # dev speed width max_speed max_width
	p=$(find t/sys/devices -type d -name "$1")
	[ -n "$p" ] || fail "no $1 in the tree"
	echo "$2 GT/s PCIe" >"$p/current_link_speed"
	echo "$3" >"$p/current_link_width"
	echo "$4 GT/s PCIe" >"$p/max_link_speed"
	echo "$5" >"$p/max_link_width"
}
for g in 0000:02:00.0 0000:03:00.0 0000:06:00.0 0000:07:00.0; do
	link "$g" 32.0 16 32.0 16
done

# every link at its maximum: ok
"$MEMPATH" doctor --root t >full.txt
grep -Eq '^ok +gpu_pcie ' full.txt || fail "full links: $(grep -A2 gpu_pcie full.txt)"
grep -Eq '^unknown +dimm_speed ' full.txt && grep -q 'no SMBIOS tables' full.txt ||
	fail "no SMBIOS: $(grep -A2 dimm_speed full.txt)"

# one link trained down in width and generation: a warning naming it
link 0000:01:00.0 16.0 8 32.0 16
mkdir -p t/sys/firmware/dmi
cp -R "$d/dmi-ddr5" t/sys/firmware/dmi/entries
"$MEMPATH" doctor --root t --format json -o down.json
[ $? -eq 1 ] || fail "warnings expected on the trained-down tree"
"$MEMPATH" doctor --root t >down.txt
tr -s ' \n' '  ' <down.txt >down.flat
grep -Eq '^WARN +gpu_pcie ' down.txt || fail "trained-down link not a warning: $(grep -A3 gpu_pcie down.txt)"
grep -q 'PCIe link narrower than the device supports: GPU 0000:01:00.0 x8 of x16; GPU 0000:01:00.0 gen 4 of 5' down.flat ||
	fail "link evidence: $(grep -A3 gpu_pcie down.txt)"
grep -Eq '^WARN +dimm_speed ' down.txt || fail "slow DIMM not a warning: $(grep -A3 dimm_speed down.txt)"
grep -q 'DIMM(s) below their rated speed: DIMM_D1 4400 of 4800 MT/s' down.flat ||
	fail "DIMM evidence: $(grep -A3 dimm_speed down.txt)"

# generation alone below its maximum: reported, not a warning (idle GPUs
# lower it by design)
link 0000:01:00.0 2.5 16 32.0 16
"$MEMPATH" doctor --root t >gen.txt
grep -Eq '^INFO +gpu_pcie ' gen.txt && grep -q 'GPU 0000:01:00.0 gen 1 of 5' gen.txt ||
	fail "generation only: $(grep -A3 gpu_pcie gen.txt)"

# the fingerprint records the facts and the DRAM limit with its formula:
# 4400 MT/s x 64 bit / 8 x 4 DIMMs = 140.8 GB/s
grep -q '"configured_mts": 4400' down.json || fail "DIMM facts not in the fingerprint"
grep -q '"max_speed_gts": 32' down.json || fail "link facts not in the fingerprint"
tr -d ' \n' <down.json | grep -Eq '"dram":{"gbps":140.80*[0-9]*,"formula":"4400MT/sx64bit/8x4DIMMs' ||
	fail "DRAM limit: $(grep -A4 '"limits"' down.json)"
exit 0
