# doctor's peer-to-peer rules on recorded trees (doctor --root): a q35 guest
# (Debian 6.1 under QEMU TCG, intel-iommu, five display devices: three on
# pcie-root-ports 00:03.0, 00:04.0 and 00:05.0 (ACS off), two behind a switch
# on 00:06.0), booted with intel_iommu=on (tests/data/pcie-q35-redir: DMA-FQ
# groups, ACSCtl 0x001d on every root port with ACS) and with iommu=pt
# pci=disable_acs_redir=0000:00:03.0;0000:00:04.0 (pcie-q35-pt: identity
# groups, ACSCtl 0x0011 on those two) and without intel-iommu
# (pcie-q35-noiommu); then the knobs they give in an A/B/A.
. "$top/tests/cli/lib.sh"
d=$top/tests/data

# ACS redirect on: the three root ports with ACS, and the one parameter line
"$MEMPATH" doctor --root "$d/pcie-q35-redir" --format json -o redir.json
[ $? -eq 1 ] || fail "warnings expected on the redirect tree"
grep -q '"kernel_parameter": "pci=disable_acs_redir=0000:00:03.0;0000:00:04.0;0000:00:06.0"' redir.json ||
	fail "kernel parameter: $(grep kernel_parameter redir.json)"
grep -q '"acs_redirect": "0000:00:03.0,0000:00:04.0,0000:00:06.0"' redir.json || fail "acs_redirect knob"
grep -q '"iommu_mode": "translated"' redir.json || fail "iommu_mode knob"
"$MEMPATH" doctor --root "$d/pcie-q35-redir" >redir.txt
grep -Eq '^WARN +acs_redirect ' redir.txt || fail "acs_redirect not a warning: $(cat redir.txt)"
grep -Eq '^WARN +iommu_mode ' redir.txt || fail "translated IOMMU not a warning"
tr -s ' \n' '  ' <redir.txt >redir.flat
grep -q 'fix: add pci=disable_acs_redir=0000:00:03.0;0000:00:04.0;0000:00:06.0 to the kernel command line' redir.flat ||
	fail "fix line: $(grep -A3 'fix: add' redir.txt)"
grep -q 'ACS redirect on 3 of 7 port(s) between the GPUs: 0000:00:03.0 (root_port on 4 pair(s). path): ACSCap 0x005f, ACSCtl 0x001d SrcValid+ TransBlk- ReqRedir+ CmpltRedir+' redir.flat ||
	fail "acs evidence: $(grep -A4 acs_redirect redir.txt)"
grep -q 'groups: 11 DMA-FQ; GPU 0000:01:00.0 in group 6 (DMA-FQ)' redir.flat || fail "iommu evidence"
grep -q 'switch (nvidia-smi topo PIX/PXB): 0000:06:00.0-0000:07:00.0 through 0000:04:00.0 (ports 0000:05:00.0 0000:05:01.0)' redir.flat ||
	fail "switch pair: $(grep -A6 p2p_path redir.txt)"
grep -q '0000:01:00.0 BAR0 16 MiB below 4 GiB at 0xfd000000' redir.flat || fail "BAR evidence"
grep -Eq '^unknown +bar1 ' redir.txt || fail "bar1 judged without the GPU's memory"

# pci=disable_acs_redir= on two of the ports: only 00:06.0 left, IOMMU passthrough
"$MEMPATH" doctor --root "$d/pcie-q35-pt" --format json -o pt.json
grep -q '"kernel_parameter": "pci=disable_acs_redir=0000:00:06.0"' pt.json || fail "pt parameter"
grep -q '"acs_redirect": "0000:00:06.0"' pt.json || fail "pt knob"
grep -q '"iommu_mode": "passthrough"' pt.json || fail "pt iommu_mode knob"
grep -q '"acs_ctl_flags": "SrcValid+ TransBlk- ReqRedir- CmpltRedir- UpstreamFwd+ EgressCtrl- DirectTrans-"' pt.json ||
	fail "cleared flags of 00:03.0 not read"
"$MEMPATH" doctor --root "$d/pcie-q35-pt" >pt.txt
tr -s ' \n' '  ' <pt.txt >pt.flat
grep -Eq '^ok +iommu_mode ' pt.txt || fail "passthrough not ok: $(grep -A3 iommu_mode pt.txt)"
grep -q '/proc/cmdline already has pci=disable_acs_redir=0000:00:03.0;0000:00:04.0' pt.flat || fail "cmdline not quoted"

# the same guest without the emulated IOMMU: no groups, and the kernel leaves
# ACS off (it enables it for an IOMMU's isolation)
"$MEMPATH" doctor --root "$d/pcie-q35-noiommu" --format json -o off.json
grep -q '"iommu_mode": "off"' off.json || fail "no-IOMMU knob: $(grep iommu_mode off.json)"
grep -q '"acs_redirect": "none"' off.json || fail "no-IOMMU acs knob"
"$MEMPATH" doctor --root "$d/pcie-q35-noiommu" >off.txt
grep -Eq '^ok +iommu_mode +.*' off.txt && grep -q 'IOMMU off; /proc/cmdline: no IOMMU option' off.txt ||
	fail "no IOMMU: $(grep -A2 iommu_mode off.txt)"
grep -Eq '^ok +acs_redirect ' off.txt && grep -q '0000:00:03.0 ACSCtl 0x0000 (no redirect)' off.txt ||
	fail "no IOMMU, ACS: $(grep -A3 acs_redirect off.txt)"

# config space as a non-root reader sees it (64 bytes): unknown, never guessed
cp -R "$d/pcie-q35-pt" short
find short/sys/devices -name config | while read -r f; do
	head -c 64 "$f" >c.tmp && mv c.tmp "$f"
done
"$MEMPATH" doctor --root short >short.txt
grep -Eq '^unknown +acs_redirect ' short.txt || fail "64-byte config space judged: $(grep -A3 acs_redirect short.txt)"
grep -q 'needs root' short.txt || fail "no word on root"

# a tree without a PCI bus: the P2P rules say so, no warning
mkdir -p empty/sys empty/proc
"$MEMPATH" doctor --root empty >empty.txt || fail "empty tree exited $?"
grep -Eq '^unknown +acs_redirect +.*' empty.txt || fail "empty tree: $(cat empty.txt)"

# an A/B/A of "ACS redirect on vs off": compare names the knobs that changed
leg() { # leg LABEL TREE OUT: a gpu.p2p results file with that tree's knobs
	knobs=$(awk '/"knobs": \{/ { on = 1 } on { print } on && /^    }/ { exit }' "$2" |
		sed '1d;$d' | tr -d '\n')
	sed -e "s/\"label\": \"4gpu-pcie\"/\"label\": \"$1\"/" \
		-e "s/^ \"knobs\": .*/ \"knobs\": {\"start\": {$knobs}, \"end\": {$knobs}},/" \
		"$d/p2p-4gpu.json" >"$3"
}
leg acs-on redir.json a.json
leg acs-off pt.json b.json
leg acs-on redir.json a2.json
grep -q '"acs_redirect"' a.json || fail "leg file without the knob: $(grep knobs a.json)"
"$MEMPATH" compare a.json b.json a2.json >cmp.txt
grep -q 'knob acs_redirect: acs-on=0000:00:03.0,0000:00:04.0,0000:00:06.0, acs-off=0000:00:06.0, acs-on again=0000:00:03.0,0000:00:04.0,0000:00:06.0' cmp.txt ||
	fail "acs_redirect not named: $(head -5 cmp.txt)"
grep -q 'knob iommu_mode: acs-on=translated, acs-off=passthrough' cmp.txt || fail "iommu_mode not named"
"$MEMPATH" compare a.json b.json a2.json --expect-diff acs_redirect,iommu_mode >cmp2.txt
grep -q 'knob acs_redirect\|knob iommu_mode' cmp2.txt && fail "expected knobs still refused: $(head -5 cmp2.txt)"

# tools/pci-tree.sh records this machine's tree; doctor reads it back alike
sh "$top/tools/pci-tree.sh" here >tree.log || fail "pci-tree.sh: $(cat tree.log)"
[ "$(ls here/sys/bus/pci/devices | wc -l)" -eq "$(ls /sys/bus/pci/devices | wc -l)" ] ||
	fail "pci-tree.sh: $(cat tree.log), /sys has $(ls /sys/bus/pci/devices | wc -l)"
"$MEMPATH" doctor --root here --format json -o tree.json
[ $? -le 1 ] || fail "doctor --root of this machine's tree"
"$MEMPATH" sysinfo --json >live.json
for k in iommu_mode acs_redirect gpu_bar1 p2p_path; do
	[ "$(grep "\"$k\":" tree.json | head -1 | tr -d ' ,')" = "$(grep "\"$k\":" live.json | head -1 | tr -d ' ,')" ] ||
		fail "knob $k: tree $(grep "\"$k\":" tree.json | head -1), live $(grep "\"$k\":" live.json | head -1)"
done

# bad input: one line, exit 2
expect_fail 2 "$MEMPATH" doctor --root nosuchdir
expect_fail 2 "$MEMPATH" doctor --root "$d/pcie-q35-pt" --from "$d/doctor-clean.json"
expect_fail 2 "$MEMPATH" doctor --root "$d/pcie-q35-pt" --measure
exit 0
