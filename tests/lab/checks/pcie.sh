# The raw PCIe facts: each device's class, the ACS control register of those
# with an ACS capability (extended capability 0x000d in config space), and its
# IOMMU group's type. One line per device:
#   0000:00:03.0 class=0x060400 acsctl=0x001d group=1 type=DMA-FQ
for d in /sys/bus/pci/devices/*; do
	dev=${d##*/}
	acs=-
	# config space as bytes; extended capabilities from 0x100 (ID 16 bits,
	# version 4, next 12); ACSCtl is at the capability + 6
	acs=$(od -A n -t u1 -v "$d/config" | tr -s ' \n' '\n\n' | sed '/^$/d' | awk '
		{ b[NR - 1] = $1 } END {
			if (NR <= 256) { print "-"; exit }
			o = 256
			for (k = 0; k < 64 && o >= 256 && o + 8 <= NR; k++) {
				id = b[o] + 256 * b[o + 1]
				nx = int((b[o + 2] + 256 * b[o + 3]) / 16)
				if (id == 13) { printf "0x%04x\n", b[o + 6] + 256 * b[o + 7]; exit }
				if (nx == 0) break
				o = nx
			}
			print "-"
		}')
	g=-
	t=-
	if [ -e "$d/iommu_group" ]; then
		g=$(basename "$(readlink "$d/iommu_group")")
		t=$(cat "/sys/kernel/iommu_groups/$g/type" 2>/dev/null || echo -)
	fi
	echo "$dev class=$(cat "$d/class") acsctl=$acs group=$g type=$t"
done >devices
ls /sys/kernel/iommu_groups | wc -l >groups
cat /proc/cmdline >cmdline
exit 0
