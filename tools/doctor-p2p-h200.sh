#!/bin/sh
# tools/doctor-p2p-h200.sh - the peer-to-peer checks of `mempath doctor` on a
# GPU machine (written for the lent one-H200 machine), with what they read
# kept beside them. Run from the repository root, as root (ACS is in extended
# config space, which sysfs gives root only):
#
#   OUT=/some/dir sh tools/doctor-p2p-h200.sh
#
# Builds mempath with the Makefile in build-doctor/ (the CUDA backend where
# nvcc is, MPI=0; libjansson, libnuma and libsqlite3 from a carried
# third_party/debs where the machine lacks them), then writes into OUT:
#   build.log, env.txt       the build; date, uname, nvidia-smi, uid
#   doctor.txt .md .json     mempath doctor (exit status in env.txt)
#   sysinfo.json             mempath sysinfo --json (doctor.json holds the
#                            fingerprint doctor read, as "host")
#   tree/                    tools/pci-tree.sh: the sysfs and proc files read,
#                            for `mempath doctor --root OUT/tree` anywhere
#   doctor-tree.txt          doctor --root OUT/tree (the tree reads back)
#   evidence.txt             the same facts from other tools: /proc/cmdline,
#                            the IOMMU groups' types, each display-class
#                            device's resource file and lspci -vvv of it and of
#                            the ports above it, nvidia-smi -q -d MEMORY,
#                            nvidia-smi topo -m and topo -p2p r
set -u
OUT=${OUT:?OUT: the results folder}
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
cd "$top" || exit 1
export PATH=$PATH:/usr/local/cuda/bin
if [ ! -f /usr/include/jansson.h ] || [ ! -f /usr/include/numa.h ] ||
	[ ! -f /usr/include/sqlite3.h ]; then
	root=/var/tmp/mempath-doctor-deps
	for d in third_party/debs/*.deb; do
		[ -f "$d" ] && dpkg -x "$d" "$root"
	done
	lib=$root/usr/lib/x86_64-linux-gnu
	export C_INCLUDE_PATH=$root/usr/include LIBRARY_PATH=$lib LD_LIBRARY_PATH=$lib
fi
# its own build folder: objects of another build (GPU=0, MPI) are not reused
make -j"$(nproc)" BUILD=build-doctor MPI=0 >"$OUT/build.log" 2>&1 || {
	tail -20 "$OUT/build.log"
	exit 1
}
m=build-doctor/mempath
{
	date -u
	uname -a
	echo "uid $(id -u)"
	nvidia-smi 2>&1 | head -20
} >"$OUT/env.txt"
$m doctor >"$OUT/doctor.txt" 2>&1
echo "doctor exit $?" >>"$OUT/env.txt"
$m doctor --format md -o "$OUT/doctor.md"
$m doctor --format json -o "$OUT/doctor.json"
$m sysinfo --json >"$OUT/sysinfo.json"
sh tools/pci-tree.sh "$OUT/tree" >>"$OUT/env.txt" 2>&1
$m doctor --root "$OUT/tree" >"$OUT/doctor-tree.txt" 2>&1
{
	echo "== /proc/cmdline"
	cat /proc/cmdline
	echo "== IOMMU group types"
	cat /sys/kernel/iommu_groups/*/type 2>/dev/null | sort | uniq -c
	for d in /sys/bus/pci/devices/*; do
		case $(cat "$d/class") in 0x03*) ;; *) continue ;; esac
		real=$(readlink -f "$d")
		echo "== display-class device ${d##*/}: $(cat "$d/class") at $real"
		echo "iommu group $(basename "$(readlink "$d/iommu_group" 2>/dev/null)" 2>/dev/null)"
		head -7 "$d/resource"
		if command -v lspci >/dev/null 2>&1; then
			p=$real
			while :; do
				b=${p##*/}
				case $b in *:*:*.*) ;; *) break ;; esac
				lspci -vvv -s "$b" 2>&1 | grep -E '^[0-9a-f]|Region|Access Control|ACSCap|ACSCtl|LnkSta:|Resizable|BAR '
				p=${p%/*}
			done
		fi
	done
	echo "== nvidia-smi -q -d MEMORY"
	nvidia-smi -q -d MEMORY 2>&1
	echo "== nvidia-smi topo -m"
	nvidia-smi topo -m 2>&1
	echo "== nvidia-smi topo -p2p r"
	nvidia-smi topo -p2p r 2>&1
} >"$OUT/evidence.txt"
grep -E '^(WARN|INFO|ok|n/a|unknown) +(iommu_mode|acs_redirect|bar1|p2p_path|peer_access|gpu_pcie) ' -A4 \
	"$OUT/doctor.txt"
tail -1 "$OUT/doctor.txt"
