#!/bin/sh
# tools/deb-chroot.sh [DIR] - a clean Debian bookworm (debootstrap
# --variant=minbase) for installing mempath's .deb into, made once and kept
# in DIR (default /var/cache/mempath/chroot-bookworm) so that later runs cost
# seconds: the apt lists and the packages mempath depends on are fetched
# into it when it is made, and each test installs into a throwaway overlay
# of it (tests/pkg/t9000-deb-chroot.sh), never into it. MIRROR: the Debian
# mirror (default http://deb.debian.org/debian). Prints DIR when ready.
set -eu
dir=${1:-/var/cache/mempath/chroot-bookworm}
mirror=${MIRROR:-http://deb.debian.org/debian}
[ -f "$dir/.mempath-ready" ] && {
	echo "$dir"
	exit 0
}
command -v debootstrap >/dev/null 2>&1 || {
	echo "no debootstrap (apt-get install debootstrap)" >&2
	exit 77
}
[ "$(id -u)" -eq 0 ] || {
	echo "debootstrap needs root" >&2
	exit 77
}
rm -rf "$dir.part"
mkdir -p "$(dirname "$dir")"
debootstrap --variant=minbase bookworm "$dir.part" "$mirror" >"$dir.log" 2>&1 || {
	echo "debootstrap failed (mirror $mirror unreachable?): $(tail -n 1 "$dir.log")" >&2
	exit 77
}
# the dependencies' packages, downloaded now (not installed: the chroot stays
# clean), so an install later needs no network
chroot "$dir.part" apt-get update >>"$dir.log" 2>&1
chroot "$dir.part" apt-get install -y --download-only libjansson4 libnuma1 libsqlite3-0 \
	libopenmpi3 >>"$dir.log" 2>&1
touch "$dir.part/.mempath-ready"
mv "$dir.part" "$dir"
echo "$dir"
