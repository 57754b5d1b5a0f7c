#!/bin/sh
# tools/pci-tree.sh DIR - records what `mempath doctor --root DIR` reads of
# this machine into DIR: every PCI device's class, vendor, device, numa_node,
# resource and config (the first 4096 bytes; as root, since other readers get
# 64) under DIR/sys/devices at its real path, DIR/sys/bus/pci/devices links
# to them, the IOMMU groups with their type and devices, the IOMMU units, and
# DIR/proc/cmdline, osrelease and hostname. POSIX sh with readlink -f and dd,
# so it runs in a busybox guest too. Nothing of the machine is changed.
set -eu
out=${1:?usage: tools/pci-tree.sh DIR}
mkdir -p "$out/proc/sys/kernel" "$out/sys/bus/pci/devices" "$out/sys/kernel/iommu_groups" \
	"$out/sys/class/iommu"
cat /proc/cmdline >"$out/proc/cmdline"
cat /proc/sys/kernel/osrelease >"$out/proc/sys/kernel/osrelease"
cat /proc/sys/kernel/hostname >"$out/proc/sys/kernel/hostname"
for u in /sys/class/iommu/*; do
	[ -e "$u" ] && mkdir -p "$out/sys/class/iommu/${u##*/}"
done
for d in /sys/bus/pci/devices/*; do
	[ -e "$d" ] || continue
	b=${d##*/}
	real=$(readlink -f "$d")
	rel=${real#/sys/}
	mkdir -p "$out/sys/$rel"
	for x in class vendor device numa_node resource current_link_speed current_link_width \
		max_link_speed max_link_width; do
		[ -r "$real/$x" ] && cat "$real/$x" >"$out/sys/$rel/$x"
	done
	dd if="$real/config" of="$out/sys/$rel/config" bs=4096 count=1 2>/dev/null || true
	ln -sf "../../../$rel" "$out/sys/bus/pci/devices/$b"
	if [ -e "$real/iommu_group" ]; then
		g=$(readlink "$real/iommu_group")
		up=$(echo "$rel" | sed 's|[^/][^/]*|..|g')
		ln -sf "$up/kernel/iommu_groups/${g##*/}" "$out/sys/$rel/iommu_group"
	fi
done
for g in /sys/kernel/iommu_groups/*; do
	[ -d "$g" ] || continue
	n=${g##*/}
	mkdir -p "$out/sys/kernel/iommu_groups/$n/devices"
	[ -r "$g/type" ] && cat "$g/type" >"$out/sys/kernel/iommu_groups/$n/type"
	for dv in "$g"/devices/*; do
		[ -e "$dv" ] && ln -sf "../../../../bus/pci/devices/${dv##*/}" \
			"$out/sys/kernel/iommu_groups/$n/devices/${dv##*/}"
	done
done
echo "$out: $(ls "$out/sys/bus/pci/devices" | wc -l) PCI devices, $(ls "$out/sys/kernel/iommu_groups" | wc -l) IOMMU groups"
