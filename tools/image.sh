#!/bin/sh
# tools/image.sh [DEBDIR] [TAG] - a container image of mempath built from the
# .deb of `make deb` without any registry: the clean bookworm root of
# tools/deb-chroot.sh (debootstrap --variant=minbase, cached), the package
# installed into an overlay of it with apt (its Depends come from the
# chroot's cache), and the tree imported with `podman import` as TAG
# (default localhost/mempath:bookworm). Needs root, debootstrap and podman.
# docs/kubernetes.md says how to run it (devices, capabilities, mounts).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
debs=${1:-$top/build-deb}
tag=${2:-localhost/mempath:bookworm}
main=$(ls "$debs"/mempath_*.deb 2>/dev/null | head -n 1)
[ -n "$main" ] || { echo "image: no mempath_*.deb in $debs (make deb)" >&2; exit 2; }
command -v podman >/dev/null 2>&1 || { echo "image: no podman (apt-get install podman)" >&2; exit 77; }
base=$(sh "$top/tools/deb-chroot.sh" "${MEMPATH_CHROOT:-/var/cache/mempath/chroot-bookworm}")
work=$(mktemp -d /var/tmp/mempath-image-XXXXXX)
root=$work/root
mounted=""
cleanup() {
	for m in $mounted; do umount "$m" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
mkdir -p "$work/upper" "$work/over" "$root"
if mount -t overlay overlay -o "lowerdir=$base,upperdir=$work/upper,workdir=$work/over" "$root" 2>/dev/null; then
	mounted="$root"
else
	rmdir "$root"
	cp -a "$base" "$root"
fi
mount -t proc proc "$root/proc"
mounted="$root/proc $mounted"
cp "$main" "$root/tmp/"
chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
	apt-get install -y --no-install-recommends "/tmp/$(basename "$main")" >"$work/apt.log" 2>&1 ||
	{ tail -n 5 "$work/apt.log" >&2; exit 1; }
rm -f "$root/tmp/$(basename "$main")"
chroot "$root" apt-get clean
umount "$root/proc"
mounted="$root"
tar -C "$root" --exclude=./proc/* --exclude=./var/cache/apt/archives/*.deb -c . |
	podman import --change 'CMD ["mempath", "check"]' - "$tag" >/dev/null
echo "$tag"
